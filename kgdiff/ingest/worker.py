"""The function parse workers run: parse one task, write its part folder, report counts."""

from __future__ import annotations

import ctypes
import gc
import signal
from dataclasses import dataclass
from pathlib import Path

import msgspec

from kgdiff.children import die_with_parent
from kgdiff.ingest.parse import (
    ChunkResult,
    EntityTexts,
    Reject,
    parse_entity_texts,
    parse_json_chunk,
)
from kgdiff.ingest.xml_chunk_parse import XML_PAGES_FILE, XmlChunk, parse_xml_chunk
from kgdiff.no_pandas import keep_pandas_out
from kgdiff.readers.chunking import ChunkView, FileChunk
from kgdiff.readers.json_dump import Chunk
from kgdiff.readers.wikidata_xml import decode_entity_text
from kgdiff.store.buckets import key_ranges
from kgdiff.store.staging import STAGING_CODECS, PartMeta, write_part

COLLECT_EVERY = 16
M_TRIM_THRESHOLD = -1  # mallopt parameters (glibc's malloc.h)
M_MMAP_THRESHOLD = -3
HEAP_KEEP_BYTES = 512 << 20
MMAP_THRESHOLD_MAX = 32 << 20  # the largest glibc accepts on 64-bit
_chunk_buffer = bytearray()
"""Every chunk a worker reads from a file goes into this one buffer (see FileChunk.load)."""


Payload = Chunk | ChunkView | FileChunk | EntityTexts | XmlChunk
"""What a task parses."""


@dataclass(frozen=True, slots=True)
class Task:
    """One unit of work: a dump chunk or a batch of entity texts, and where to put it."""

    payload: Payload
    """A :class:`ChunkView` (alone or in an :class:`XmlChunk`) is staged into a slot file
    before the task is sent."""
    parts_dir: Path
    source: str
    compression: str = STAGING_CODECS[0]
    """How the part files are compressed (one of :data:`STAGING_CODECS`)."""


def _reject_line(source: str, reject: Reject) -> bytes:
    record = {
        "source": source,
        "line": reject.line,
        "offset": reject.offset,
        "error": reject.error,
        "snippet": reject.snippet,
    }
    return msgspec.json.encode(record) + b"\n"


def init_worker() -> None:
    """Pool initializer: the worker dies with the ingest (:func:`die_with_parent`), and
    Ctrl-C is the main process's to handle (it stops the pool).

    The cyclic garbage collector is switched off: a chunk creates millions of
    short-lived, acyclic objects and automatic collections cost ~15 % of the
    parse time; :func:`run_task` collects every ``COLLECT_EVERY`` tasks instead.
    pandas is kept out (:mod:`kgdiff.no_pandas`): pyarrow would import it, 0.8 CPU-seconds
    a worker, to convert objects no worker has.
    """
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.disable()
    keep_freed_memory()
    keep_pandas_out()


def keep_freed_memory() -> None:
    """Keep big freed blocks in the process instead of handing them back to the OS.

    By default glibc serves each chunk's column buffers with fresh ``mmap`` pages and
    unmaps them when freed, so every chunk pays for the kernel zeroing its pages again:
    about a quarter of the native parse time. A fixed mmap threshold and a high trim
    threshold let the next chunk reuse the heap. No-op where libc is not glibc.
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_MAX)
    mallopt(M_TRIM_THRESHOLD, HEAP_KEEP_BYTES)


def run_task(task: Task) -> PartMeta:
    """Parse ``task`` and publish its part folder; return its counts."""
    result: ChunkResult
    extras: dict[str, bytes] = {}
    if isinstance(task.payload, XmlChunk):
        result, pages = parse_xml_chunk(task.payload, _chunk_buffer)
        extras[XML_PAGES_FILE] = msgspec.json.encode(pages)
    elif isinstance(task.payload, FileChunk):
        result = parse_json_chunk(task.payload.load(_chunk_buffer))
    elif isinstance(task.payload, Chunk):
        result = parse_json_chunk(task.payload)
    elif isinstance(task.payload, EntityTexts):
        result = parse_entity_texts(task.payload, decode_entity_text)
    else:
        raise TypeError("a ChunkView must be staged into a slot file before it is sent")
    groups = [(group, key_ranges(group)) for group in result.groups]
    meta = PartMeta(
        seq=result.seq,
        entities=result.entities,
        statements=result.statements,
        rejects=len(result.rejects),
        input_bytes=result.input_bytes,
        brackets=result.layout.brackets,
        first_content=result.layout.first_content,
        last_content=result.layout.last_content,
        key_ranges=sorted(r for _, group_ranges in groups for r in group_ranges),
        table_bytes={
            name: sum(group[name].nbytes for group, _ in groups) for name in result.groups[0]
        },
    )
    lines = (_reject_line(task.source, reject) for reject in result.rejects)
    write_part(task.parts_dir, meta, groups, lines, task.compression, extras)
    if not gc.isenabled() and result.seq % COLLECT_EVERY == 0:
        gc.collect()  # in case a library made cycles; rare, so it can wait
    return meta
