"""The manifest written with every snapshot: what it came from and what it holds."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from kgdiff.store.inventory import FileRecord

FULL = "full"
SUBSET = "subset"
COVERAGES = (FULL, SUBSET)


class SourceInfo(msgspec.Struct, frozen=True):
    """Identity of the dump file a snapshot was built from."""

    path: str
    size: int
    mtime_ns: int
    sha256: str | None = None
    compression: str = "none"
    format: str = "json-dump"
    limit: int | None = None

    def same_file(self, other: SourceInfo) -> bool:
        """True when both describe the same file content read the same way."""
        return (
            self.path == other.path
            and self.size == other.size
            and self.mtime_ns == other.mtime_ns
            and self.limit == other.limit
        )


class DeltaRef(msgspec.Struct, frozen=True):
    """How a snapshot stored as a delta reads as a whole one (:mod:`kgdiff.store.delta`): its
    folder holds the rows of the entities it changed and the ids it replaced or removed (its
    ``changes`` table); every other entity's rows are its base's."""

    base: str
    """The snapshot it was made from (itself full, or a delta: a chain)."""
    base_manifest_sha256: str
    """The SHA-256 of the base's ``manifest.json`` when this delta was made: the manifest
    records every file of the base, so this pins the whole base."""
    stored: dict[str, int]
    """The rows each table of this folder holds (``counts`` are those of the whole snapshot)."""


class RefreshInfo(msgspec.Struct, frozen=True):
    """What ``kgdiff refresh`` made a snapshot from (kept when the delta is compacted)."""

    base: str
    base_manifest_sha256: str
    """The SHA-256 of the base's ``manifest.json`` when the refresh ran."""
    inputs: list[SourceInfo]
    """The change files, each with its SHA-256."""
    deletions: str
    """``known`` (a deletion log or a list of ids was given) or ``unknown`` (an entity the
    changes do not touch is as the base has it, never deleted)."""
    deletions_source: SourceInfo | None = None
    changes: dict[str, int] = {}
    """Entities ``changed``, ``added``, ``redirected`` and ``deleted``, and what the inputs
    held besides (revisions superseded or after the date, deletions of unknown ids, ...)."""


class Manifest(msgspec.Struct, frozen=True):
    """Everything a user (or a script) needs to know about a published snapshot."""

    name: str
    date: str
    kind: str
    source: SourceInfo
    dump_date: str | None
    counts: dict[str, int]
    rejects: int
    rejects_file: str | None
    tool_version: str
    duckdb_version: str
    python_version: str
    created_at: str
    elapsed_seconds: float
    workers: int
    chunk_bytes: int
    input_stats: dict[str, int] = {}
    """What the reader saw besides entities (e.g. XML pages skipped, and why)."""
    timings: dict[str, float] = {}
    """Wall seconds of the parse and finalize steps of the run that built the snapshot."""
    wiki: str | None = None
    """For a Wikipedia snapshot: the wiki's database name (``enwiki``)."""
    row_builder: str | None = None
    """For a Wikidata JSON or XML dump: ``native`` (kgdiff._native, which leaves legacy XML
    texts to Python) or ``python`` row building."""
    staging_compression: str | None = None
    """For a Wikidata dump: how this run's parsed chunks were compressed while they waited
    for the sort (``none``, ``lz4`` or ``zstd``; see ``--staging-compression``)."""
    duplicates: int = 0
    """For a Wikidata snapshot: entities left out because their id appeared again in the input
    (the revision with the highest ``lastrevid`` is kept, else the last one read); each is a
    record of ``rejects_file`` with ``reason`` ``duplicate``. Not counted in ``rejects``."""
    coverage: str = FULL
    """For a Wikidata snapshot: ``full`` (a whole dump: an entity it lacks did not exist) or
    ``subset`` (an entity list, ``--limit``, a sample: it knows only the entities listed in
    its ``coverage`` table)."""
    files: dict[str, FileRecord] | None = None
    """Every file of the snapshot's folder but the manifest, by path relative to it: its
    size, SHA-256 and rows (Parquet), as published (:mod:`kgdiff.store.inventory`); None in
    the manifests of an earlier kgdiff."""
    delta: DeltaRef | None = None
    """For a snapshot stored as a delta (``kgdiff refresh``): its base; None when the folder
    holds every row."""
    refresh: RefreshInfo | None = None
    """For a snapshot made by ``kgdiff refresh``: the base and the change files."""
    compacted_from: list[str] = []
    """The SHA-256 of the manifests this snapshot had before ``kgdiff snapshots compact``
    rewrote it whole: deltas made on it before still find their base."""

    @property
    def stored_counts(self) -> dict[str, int]:
        """The rows each table of the folder holds: ``counts``, or a delta's own rows."""
        return self.delta.stored if self.delta is not None else self.counts


def write_manifest(path: Path, manifest: Manifest) -> None:
    """Write ``manifest`` as pretty JSON (fsynced: it marks a snapshot as complete)."""
    data = msgspec.json.format(msgspec.json.encode(manifest), indent=2)
    with path.open("wb") as handle:
        handle.write(data + b"\n")
        handle.flush()
        os.fsync(handle.fileno())


def read_manifest(path: Path) -> Manifest:
    """Read a manifest written by :func:`write_manifest`."""
    return msgspec.json.decode(path.read_bytes(), type=Manifest)
