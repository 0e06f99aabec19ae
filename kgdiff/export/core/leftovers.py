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
import shutil
from pathlib import Path

from kgdiff.store.liveness import ProcessMark, is_running

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


def _owner(name: str, prefix: str) -> int | None:
    """The pid that follows ``prefix`` in ``name`` (up to a ``-``); None if not one."""
    if not name.startswith(prefix):
        return None
    pid = name[len(prefix) :].split("-", 1)[0]
    return int(pid) if pid.isdigit() else None


def sweep_leftovers(out: Path) -> list[Path]:
    """Remove the staging and replaced folders of ``out`` and the spill folders beside it whose
    export no longer runs (a replaced folder only while ``out`` exists); the folders removed."""
    if not out.parent.is_dir():
        return []
    prefixes = [f".{out.name}.partial-", SPILL_PREFIX]
    if out.is_dir():  # else a replaced folder may be the only copy left (killed mid-swap)
        prefixes.append(f".{out.name}.replaced-")
    removed: list[Path] = []
    for path in out.parent.iterdir():
        for prefix in prefixes:
            pid = _owner(path.name, prefix)
            if pid is None or not path.is_dir() or is_running(ProcessMark(pid)):
                continue
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return sorted(removed)
