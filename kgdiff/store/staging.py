"""The staging folder of an ingest: finished chunks survive a crash, nothing is visible.

Each finished chunk is a folder ``parts/NNNNNNN`` (written as ``parts/.tmp-NNNNNNN``
and renamed when complete), so after a kill the next run knows exactly which
chunks to skip. ``state.json`` pins the source file and chunking; if either
changed, the staging folder is discarded and the ingest starts over.
"""

from __future__ import annotations

import fcntl
import shutil
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO

import msgspec
import pyarrow as pa
import pyarrow.ipc as ipc

from kgdiff.errors import StoreError
from kgdiff.store.manifest import SourceInfo

FORMAT_VERSION = 5  # 2: subject ranges; 3: Arrow IPC parts, table_bytes; 4: rows in entity order;
# 5: label_rows (where an entity's rows lie, for leaving out duplicates)
PART_SUFFIX = ".arrow"
STAGING_CODECS = ("lz4", "zstd", "none")
"""Compressions of the staging parts: LZ4 costs ~9 % less CPU over a whole ingest than zstd,
zstd ~40 % less staging disk; ``none`` (the choice of ``auto`` when the staging fits in
memory, see :mod:`kgdiff.ingest.staging_choice`) ~1.8× LZ4's disk and the least CPU."""
LZ4_ACCELERATION_LEVEL = -8
"""LZ4 levels below zero trade ratio for speed: -8 compresses in ~30 % less time than the
default for ~9 % larger parts (measured on bench rows); they are read back once."""


def _codec(compression: str) -> pa.Codec | None:
    if compression == "none":
        return None
    if compression == "lz4":
        return pa.Codec("lz4", compression_level=LZ4_ACCELERATION_LEVEL)
    return pa.Codec(compression)


class StagingState(msgspec.Struct, frozen=True):
    """What a staging folder was started for."""

    source: SourceInfo
    chunk_bytes: int
    format_version: int = FORMAT_VERSION


class PartMeta(msgspec.Struct, frozen=True):
    """Counts of one finished chunk."""

    seq: int
    entities: int
    statements: int
    rejects: int
    input_bytes: int
    brackets: list[tuple[int, str]] = []
    first_content: int | None = None
    last_content: int | None = None
    key_ranges: list[tuple[str, str]] = []
    """Smallest and largest entity id of each kind and length in each of the chunk's groups
    (see :func:`kgdiff.store.buckets.key_ranges`), ordered by the smallest."""
    table_bytes: dict[str, int] = {}
    """Size in memory of each table's rows (what finalize budgets its buckets with)."""


def part_name(seq: int) -> str:
    """Folder name of chunk ``seq`` (sortable)."""
    return f"{seq:07d}"


def part_file(folder: Path, table: str) -> Path:
    """The file of ``table`` in a part folder."""
    return folder / f"{table}{PART_SUFFIX}"


KeyRanges = list[tuple[str, str]]
GROUP_RANGES_KEY = b"kgdiff.group_ranges"
"""Schema metadata of a part file: the subject ranges of each of its record batches."""


def write_part(
    parts_dir: Path,
    meta: PartMeta,
    groups: Sequence[tuple[dict[str, pa.Table], KeyRanges]],
    rejects: Iterable[bytes],
    compression: str = STAGING_CODECS[0],
    extras: Mapping[str, bytes] | None = None,
) -> None:
    """Write one chunk's tables and rejects, then publish the folder by rename.

    ``groups`` holds the chunk's rows in groups, each with the subject ranges of its
    entities (:func:`kgdiff.store.buckets.key_ranges`). Each table is an Arrow IPC file
    with one record batch per group and the groups' ranges in its schema metadata, so
    finalize reads only the groups that overlap a bucket
    (:func:`kgdiff.store.bucket_sort.read_part`). Buffers are compressed with
    ``compression``, one of :data:`STAGING_CODECS` (each file names its codec, so finalize
    reads either). IPC costs a third of Parquet's encoding time to write and less to read.
    ``extras`` are more files of the folder, by name (what an XML chunk's pages were).
    """
    final = parts_dir / part_name(meta.seq)
    tmp = parts_dir / f".tmp-{part_name(meta.seq)}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    options = ipc.IpcWriteOptions(compression=_codec(compression))
    ranges = msgspec.json.encode([ranges_of_group for _, ranges_of_group in groups])
    for table_name in groups[0][0]:
        batches = [_one_batch(tables[table_name]) for tables, _ in groups]
        schema = batches[0].schema.with_metadata({GROUP_RANGES_KEY: ranges})
        with ipc.new_file(part_file(tmp, table_name), schema, options=options) as writer:
            for batch in batches:
                writer.write_batch(batch)
    lines = list(rejects)
    if lines:
        (tmp / "rejects.jsonl").write_bytes(b"".join(lines))
    for name, content in (extras or {}).items():
        (tmp / name).write_bytes(content)
    (tmp / "meta.json").write_bytes(msgspec.json.encode(meta))
    tmp.replace(final)


def _one_batch(table: pa.Table) -> pa.RecordBatch:
    """``table`` as one record batch (empty when it has no rows)."""
    table = table.combine_chunks()
    batches = table.to_batches()
    if len(batches) == 1:
        return batches[0]
    return pa.RecordBatch.from_pylist([], schema=table.schema)


def group_ranges(schema: pa.Schema) -> list[KeyRanges] | None:
    """The subject ranges of each record batch of a part file (None: not recorded)."""
    raw = (schema.metadata or {}).get(GROUP_RANGES_KEY)
    if raw is None:
        return None
    return [[(first, last) for first, last in group] for group in msgspec.json.decode(raw)]


def lock_path(directory: Path) -> Path:
    """The lock file of the staging folder ``directory`` (``.staging/NAME.lock``), held by
    the ingest that uses the folder for as long as it runs."""
    return directory.parent / f"{directory.name}.lock"


def lock_staging(directory: Path) -> IO[bytes]:
    """Take the lock of the staging folder ``directory`` (a :class:`StoreError` when another
    ingest holds it); closing the returned file releases it."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    handle = lock_path(directory).open("wb")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as exc:
        handle.close()
        raise StoreError(
            f"another kgdiff ingest is writing snapshot {directory.name!r}; wait for it to end"
        ) from exc
    return handle


def staging_in_use(directory: Path) -> bool:
    """Whether a running ingest holds the lock of the staging folder ``directory``."""
    try:
        handle = lock_path(directory).open("rb")
    except FileNotFoundError:
        return False
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


class Staging:
    """The staging folder of one snapshot name, locked while an ingest uses it."""

    def __init__(self, directory: Path, state: StagingState) -> None:
        self.dir = directory
        self.state = state
        self.parts = directory / "parts"
        self.final = directory / "final"
        self._lock: IO[bytes] | None = None

    def open(self) -> dict[int, PartMeta]:
        """Lock the folder, resume or reset it; return the chunks already finished."""
        self._lock = lock_staging(self.dir)
        if not self._matches():
            shutil.rmtree(self.dir, ignore_errors=True)
        self.parts.mkdir(parents=True, exist_ok=True)
        (self.dir / "state.json").write_bytes(msgspec.json.encode(self.state))
        for leftover in self.parts.glob(".tmp-*"):
            shutil.rmtree(leftover, ignore_errors=True)
        return self.finished()

    def _matches(self) -> bool:
        path = self.dir / "state.json"
        if not path.is_file():
            return False
        try:
            old = msgspec.json.decode(path.read_bytes(), type=StagingState)
        except msgspec.DecodeError:
            return False
        return (
            old.format_version == self.state.format_version
            and old.chunk_bytes == self.state.chunk_bytes
            and old.source.same_file(self.state.source)
        )

    def finished(self) -> dict[int, PartMeta]:
        """Metadata of every finished chunk, by sequence number."""
        done: dict[int, PartMeta] = {}
        for meta_path in self.parts.glob("[0-9]*/meta.json"):
            meta = msgspec.json.decode(meta_path.read_bytes(), type=PartMeta)
            done[meta.seq] = meta
        return done

    def part_folders(self) -> list[tuple[PartMeta, Path]]:
        """Every finished chunk's metadata and folder, in chunk order (what finalize sorts)."""
        metas = sorted(self.finished().values(), key=lambda meta: meta.seq)
        return [(meta, self.parts / part_name(meta.seq)) for meta in metas]

    def reject_files(self) -> list[Path]:
        """Rejects files of the finished chunks, in chunk order."""
        return sorted(self.parts.glob("[0-9]*/rejects.jsonl"))

    def fresh_final(self) -> Path:
        """An empty ``final`` folder for the finalize step (a crashed one is discarded)."""
        shutil.rmtree(self.final, ignore_errors=True)
        self.final.mkdir()
        return self.final

    def close(self, remove: bool) -> None:
        """Release the lock; delete the folder when the snapshot was published."""
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)
        if self._lock is not None:
            if remove:
                Path(self._lock.name).unlink(missing_ok=True)
            self._lock.close()
            self._lock = None
