"""Lines written gzip-compressed, the compression on a thread of its own.

A whole snapshot's N-Triples are ~110 bytes a triple and ~1.1 KB a statement (a generated
snapshot of 25 M statements: ~28 GB), terabytes for real Wikidata's 1.65 billion statements:
more than most disks hold for a file read once. Wikidata's own RDF dumps are gzip files, and
``kgdiff ingest rdf`` reads them. The lines are joined into blocks of :data:`BLOCK` characters;
zlib compresses a block without holding the GIL, so on a second core it keeps up with the lines
being made (gzip's default level, ~110 MB/s of N-Triples on one
core, ~12× smaller) instead of taking a third of the export's time on the first.
"""

from __future__ import annotations

import gzip
from collections import deque
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

BLOCK = 1 << 20
"""Characters of lines compressed at a time."""
WAITING = 2
"""Blocks handed to the compressing thread and not written yet (memory: ~this many blocks)."""
LEVEL = 6
"""gzip's own default level."""


def is_gzip_name(path: Path) -> bool:
    """Whether ``path`` names a gzip file (``.gz``)."""
    return path.suffix.lower() == ".gz"


def write_gzipped(lines: Iterable[str], path: Path) -> int:
    """Write ``lines`` (each with its newline) to the gzip file ``path``; the number of
    lines. The file is whole only when this returns: write it under a temporary name."""
    count = 0
    block: list[str] = []
    size = 0
    waiting: deque[Future[int]] = deque()
    with (
        gzip.open(path, "wb", compresslevel=LEVEL) as out,
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgdiff-gzip") as pool,
    ):
        for text in lines:
            block.append(text)
            size += len(text)
            count += 1
            if size >= BLOCK:
                _hand_over(pool, out, waiting, "".join(block).encode("utf-8"))
                block, size = [], 0
        _hand_over(pool, out, waiting, "".join(block).encode("utf-8"))
        while waiting:
            waiting.popleft().result()
    return count


def _hand_over(
    pool: ThreadPoolExecutor, out: gzip.GzipFile, waiting: deque[Future[int]], data: bytes
) -> None:
    """Queue ``data`` for the compressing thread, first waiting for the oldest block when
    :data:`WAITING` are queued (a failed write raises here)."""
    while len(waiting) >= WAITING:
        waiting.popleft().result()
    if data:
        waiting.append(pool.submit(out.write, data))
