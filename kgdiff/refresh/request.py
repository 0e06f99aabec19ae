"""What ``kgdiff refresh`` is asked to do, and what identifies a refresh (for a re-run)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import msgspec

from kgdiff.readers.json_dump import DEFAULT_CHUNK_BYTES
from kgdiff.store.manifest import Manifest, SourceInfo

REFRESH_FORMAT = "refresh"
"""The ``source.format`` of a snapshot made by ``kgdiff refresh``."""
STATE_VERSION = 2
"""2: XML change files read by the workers in chunks cut at page boundaries (a staging
parsed by version 1 is chunked otherwise and is discarded)."""


@dataclass(frozen=True)
class RefreshRequest:
    """Everything ``kgdiff refresh`` was asked to do."""

    changes: tuple[Path, ...]
    """Daily incremental or history XML dumps, JSON dumps or entity files, in any order."""
    base: str
    snapshot: str
    date: str
    deletions: Path | None = None
    """A ``pages-logging`` XML dump or a list of ids; None: deletions unknown."""
    store: str | Path | None = None
    workers: int = 2
    max_rejects: int | None = None
    chunk_bytes: int = DEFAULT_CHUNK_BYTES


@dataclass(frozen=True)
class RefreshResult:
    """The published snapshot, and whether this run made it or found it already made."""

    manifest: Manifest
    directory: Path
    status: str


class FileIdentity(msgspec.Struct, frozen=True):
    """A file as a re-run recognises it: path, size and modification time."""

    path: str
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, source: SourceInfo) -> FileIdentity:
        """The identity of a file a manifest records."""
        return cls(source.path, source.size, source.mtime_ns)


class RefreshState(msgspec.Struct, frozen=True):
    """What a refresh's staging folder was started for: the same base (its manifest), date,
    change files and deletions, else the folder is discarded."""

    base: str
    base_manifest_sha256: str
    date: str
    inputs: list[FileIdentity]
    deletions: FileIdentity | None
    chunk_bytes: int
    version: int = STATE_VERSION


def file_identity(path: Path) -> FileIdentity:
    """The identity of ``path`` as it is now."""
    stat = path.stat()
    return FileIdentity(str(path), stat.st_size, stat.st_mtime_ns)


def made_by(manifest: Manifest, state: RefreshState) -> bool:
    """Whether the published snapshot ``manifest`` was refreshed exactly as ``state`` asks."""
    info = manifest.refresh
    if info is None:
        return False
    deletions = None if info.deletions_source is None else FileIdentity.of(info.deletions_source)
    return (
        info.base == state.base
        and info.base_manifest_sha256 == state.base_manifest_sha256
        and manifest.date == state.date
        and sorted(msgspec.structs.astuple(FileIdentity.of(source)) for source in info.inputs)
        == sorted(msgspec.structs.astuple(identity) for identity in state.inputs)
        and deletions == state.deletions
    )
