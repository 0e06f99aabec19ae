"""Whether the process that wrote something into the store still runs.

Files a process leaves in the store while it works (a job's state, a temporary folder) name
it by a :class:`ProcessMark`: its pid and the kernel's record of when it started. A pid alone
is not enough: after a restart, or on a busy machine, another process may get the same pid,
and a job of a dead server would look alive for ever. The start time (``/proc/PID/stat``,
field 22, in clock ticks since boot) and the boot id tell that process apart from any later
one with the same pid.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import msgspec

PROC = Path("/proc")
BOOT_ID = PROC / "sys" / "kernel" / "random" / "boot_id"


class ProcessMark(msgspec.Struct, frozen=True):
    """One process, told apart from any other that ever had its pid: ``started`` is its
    start time in clock ticks since boot (None where ``/proc`` does not tell), ``boot`` the
    boot it ran in."""

    pid: int
    started: int | None = None
    boot: str | None = None


def start_ticks(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot); None if it does not exist or
    ``/proc`` cannot tell."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces or ')': the fields
    # after the last ')' are plain numbers, the start time the 20th of them (field 22).
    fields = stat[stat.rfind(")") + 2 :].split()
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


@cache
def boot_id() -> str | None:
    """This boot's id (None where the kernel does not tell)."""
    try:
        return BOOT_ID.read_text().strip() or None
    except OSError:
        return None


def this_process() -> ProcessMark:
    """The mark of the calling process."""
    pid = os.getpid()
    return ProcessMark(pid, start_ticks(pid), boot_id())


def is_running(mark: ProcessMark) -> bool:
    """Whether the process ``mark`` names still runs: its pid exists and, where the mark
    records them, it started at the same tick of the same boot (a later process that got
    the pid is not it)."""
    if mark.boot is not None and boot_id() is not None and mark.boot != boot_id():
        return False
    try:
        os.kill(mark.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, under another user
    if mark.started is None:
        return True
    return start_ticks(mark.pid) == mark.started


def folder_owner(name: str, prefix: str) -> int | None:
    """The pid that follows ``prefix`` in the folder name ``name`` (up to a ``-`` or the
    end); None if ``name`` does not start with ``prefix`` and a pid."""
    if not name.startswith(prefix):
        return None
    pid = name[len(prefix) :].split("-", 1)[0]
    return int(pid) if pid.isdigit() else None


def remove_dead_folders(parent: Path, prefixes: Sequence[str]) -> list[Path]:
    """Remove the folders in ``parent`` named by one of ``prefixes`` and a pid whose process
    no longer runs (a killed process's, which it could not remove itself), this user's only;
    the folders removed, sorted."""
    removed: list[Path] = []
    for entry in os.scandir(parent):
        owners = (folder_owner(entry.name, prefix) for prefix in prefixes)
        pid = next((found for found in owners if found is not None), None)
        if pid is None or is_running(ProcessMark(pid)):
            continue
        try:
            mine = entry.is_dir(follow_symlinks=False) and entry.stat().st_uid == os.getuid()
        except FileNotFoundError:  # another process removed it first
            continue
        if mine:
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(Path(entry.path))
    return sorted(removed)
