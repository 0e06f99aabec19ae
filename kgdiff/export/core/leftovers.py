"""The folders an export writes beside its output folder while it runs, named by its process,
and the sweep of those a killed export left.

An export writes its dataset into ``.DIR.partial-PID``, renamed into place at the end (a
``DIR`` it replaces is moved to ``.DIR.replaced-PID`` first, then removed), and keeps what it
names in ``.kgdiff-export-PID-*`` (:mod:`kgdiff.export.inputs.named_spill`); all are removed
when it ends, also on an error, but not when the process is killed (SIGKILL, the
machine's memory exhausted, a power cut). The next export beside the same folder removes those
whose process no longer runs, so that a killed export of a large store does not leave
gigabytes behind for good.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from kgdiff.store.liveness import remove_dead_folders

SPILL_PREFIX = ".kgdiff-export-"
"""The start of the name of an export's folder of what it named (then its pid and ``-``)."""


def staging_folder(out: Path, pid: int | None = None) -> Path:
    """The hidden sibling of ``out`` the export of process ``pid`` (this one: None) writes into."""
    return out.parent / f".{out.name}.partial-{os.getpid() if pid is None else pid}"


def replaced_folder(out: Path, pid: int | None = None) -> Path:
    """Where the export of process ``pid`` (this one: None) moves the ``out`` it replaces
    until the new one is in place."""
    return out.parent / f".{out.name}.replaced-{os.getpid() if pid is None else pid}"


def spill_prefix(pid: int | None = None) -> str:
    """The start of the name of the spill folder of process ``pid`` (this one: None)."""
    return f"{SPILL_PREFIX}{os.getpid() if pid is None else pid}-"


def sweep_leftovers(out: Path) -> list[Path]:
    """Remove the staging and replaced folders of ``out`` and the spill folders beside it whose
    export no longer runs (a replaced folder only while ``out`` exists); the folders removed."""
    if not out.parent.is_dir():
        return []
    prefixes = [f".{out.name}.partial-", SPILL_PREFIX]
    if out.is_dir():  # else a replaced folder may be the only copy left (killed mid-swap)
        prefixes.append(f".{out.name}.replaced-")
    return remove_dead_folders(out.parent, prefixes)


class SpillFolder:
    """A folder an export spills into, in ``parent`` (the system's temporary folder when
    None), named by this process (a killed export's is removed by the next:
    :func:`sweep_leftovers`) and removed by :meth:`close` (or when collected)."""

    def __init__(self, parent: Path | None = None) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix=spill_prefix(), dir=parent)
        self.path = Path(self._folder.name)

    def close(self) -> None:
        """Remove the folder and what was written into it."""
        self._folder.cleanup()
