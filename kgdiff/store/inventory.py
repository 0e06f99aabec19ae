"""What a published folder holds, file by file: the ``files`` of its manifest.

Each file but the manifest itself is recorded by its path relative to the folder (with
``/``), its size, its SHA-256 and, for a Parquet file, its rows (from its footer). Written
when a snapshot or page view source is published, so that ``kgdiff store check`` can tell a
flipped byte, a truncated or missing file and a file that does not belong from the folder as
it was published. SHA-256 rather than a faster non-cryptographic hash: ``sha256sum`` checks
it anywhere, and it costs about a third of a second per 200 MB of Parquet, hashed by
several threads at once (:data:`HASH_THREADS`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import msgspec
import pyarrow.parquet as pq

MANIFEST_FILE = "manifest.json"
CHUNK_BYTES = 1 << 20
HASH_THREADS = max(1, min(4, os.cpu_count() or 1))
"""Files hashed at once (hashlib releases the GIL while it hashes)."""

BytesRead = Callable[[int], None]
"""Told of each chunk of bytes read (for a progress bar)."""


class FileRecord(msgspec.Struct, frozen=True):
    """One file of a published folder as it was published."""

    bytes: int
    sha256: str
    rows: int | None = None
    """Rows of a Parquet file (from its footer); None for any other file."""


def folder_files(folder: Path) -> list[Path]:
    """Every file below ``folder`` but its manifest, in path order."""
    found = (path for path in folder.rglob("*") if path.is_file())
    return sorted(path for path in found if path.relative_to(folder).as_posix() != MANIFEST_FILE)


def sha256_of(path: Path, read: BytesRead | None = None) -> tuple[str, int]:
    """The SHA-256 of the file ``path`` and its size in bytes."""
    digest = hashlib.sha256()
    buffer = bytearray(CHUNK_BYTES)
    view = memoryview(buffer)
    size = 0
    with path.open("rb", buffering=0) as handle:
        while count := handle.readinto(view):
            digest.update(view[:count])
            size += count
            if read is not None:
                read(count)
    return digest.hexdigest(), size


def parquet_rows(path: Path) -> int:
    """The rows of a Parquet file, from its footer."""
    return int(pq.read_metadata(path).num_rows)


def file_record(path: Path) -> FileRecord:
    """The record of one file as it is now."""
    sha256, size = sha256_of(path)
    rows = parquet_rows(path) if path.suffix == ".parquet" else None
    return FileRecord(size, sha256, rows)


def file_records(folder: Path, threads: int = HASH_THREADS) -> dict[str, FileRecord]:
    """The records of every file of ``folder`` but its manifest, by relative path."""
    paths = folder_files(folder)
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="kgdiff-sha256") as pool:
        records = list(pool.map(file_record, paths))
    return {
        path.relative_to(folder).as_posix(): record
        for path, record in zip(paths, records, strict=True)
    }
