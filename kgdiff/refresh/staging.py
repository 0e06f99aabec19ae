"""The staging folder of a refresh: ``.staging/NAME/``, locked while the refresh runs.

``refresh.json`` records what it was started for (:class:`~kgdiff.refresh.request.RefreshState`);
a run on another base (or the base changed since), date or chunk size discards it.
``inputs/KEY/`` holds each change file's parsed chunks (an ingest's staging, resumable chunk
by chunk, discarded when that file changed), under a key of the file's path, so a run given
the files in another order, one more, or a damaged one replaced keeps the others' work;
``final/`` is the delta being written, renamed into place when complete.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import IO

import msgspec

from kgdiff.refresh.request import RefreshState
from kgdiff.store.manifest import SourceInfo
from kgdiff.store.staging import PartMeta, Staging, StagingState, lock_staging

_NO_SOURCE = SourceInfo("", 0, 0)

STATE_FILE = "refresh.json"


class RefreshStaging:
    """The work folder of one refresh."""

    def __init__(self, directory: Path, state: RefreshState) -> None:
        self.dir = directory
        self.state = state
        self.final = directory / "final"
        self._lock: IO[bytes] | None = None

    def open(self) -> None:
        """Lock the folder; keep what an interrupted run of the same refresh parsed."""
        self._lock = lock_staging(self.dir)
        if not _same_work(read_state(self.dir), self.state):
            shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / STATE_FILE).write_bytes(msgspec.json.encode(self.state))

    def input_folder(self, path: Path) -> Path:
        """The staging folder of the change file ``path``."""
        key = hashlib.sha256(str(path).encode()).hexdigest()[:16]
        return self.dir / "inputs" / key

    def combined(self, inputs: list[Staging]) -> Staging:
        """One staging whose chunks are those of every input, in order (what the sort reads)."""
        return _Combined(self.dir, inputs)

    def close(self, remove: bool) -> None:
        """Release the lock; delete the folder once the snapshot is published."""
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)
        if self._lock is not None:
            if remove:
                Path(self._lock.name).unlink(missing_ok=True)
            self._lock.close()
            self._lock = None


def _same_work(old: RefreshState | None, new: RefreshState) -> bool:
    """Whether chunks parsed for ``old`` serve ``new``: the same base, date and chunking."""
    if old is None:
        return False
    fields = ("base", "base_manifest_sha256", "date", "chunk_bytes", "version")
    return all(getattr(old, name) == getattr(new, name) for name in fields)


def read_state(directory: Path) -> RefreshState | None:
    """What the refresh staging folder ``directory`` was started for (None: not a refresh's,
    or unreadable)."""
    try:
        return msgspec.json.decode((directory / STATE_FILE).read_bytes(), type=RefreshState)
    except (OSError, msgspec.DecodeError):
        return None


class _Combined(Staging):
    """The chunks of several inputs' stagings as one (for the sort; never opened)."""

    def __init__(self, directory: Path, inputs: list[Staging]) -> None:
        state = inputs[0].state if inputs else StagingState(_NO_SOURCE, 0)
        super().__init__(directory, state)
        self.inputs = inputs

    def finished(self) -> dict[int, PartMeta]:
        raise NotImplementedError("the chunks of several inputs have no one numbering")

    def part_folders(self) -> list[tuple[PartMeta, Path]]:
        return [item for staging in self.inputs for item in staging.part_folders()]

    def reject_files(self) -> list[Path]:
        return [path for staging in self.inputs for path in staging.reject_files()]
