"""The processes a command started, read from ``/proc``: its tree while it runs, and what is
left of its session after it was killed (an orphan is no longer in the tree: the kernel gives
it another parent, but it keeps its session).

A command under test is started with ``start_new_session=True``, so that its session holds
it and everything it starts (none of kgdiff's children starts a session of its own).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True)
class Process:
    """One running process: its pid, parent, session and command line."""

    pid: int
    parent: int
    session: int
    command: str

    def runs(self, marker: str) -> bool:
        """Whether ``marker`` is in its command line."""
        return marker in self.command


def _read(pid: int) -> Process | None:
    """Process ``pid`` as ``/proc`` shows it; None if it is gone or a zombie."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
        command = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may hold spaces: fields after the last ')'
    state, parent, _group, session = stat[stat.rindex(")") + 2 :].split()[:4]
    if state in ("Z", "X"):
        return None
    return Process(pid, int(parent), int(session), command.replace(b"\0", b" ").decode())


def running() -> list[Process]:
    """Every process running now (zombies left out)."""
    found = (_read(int(entry.name)) for entry in PROC.iterdir() if entry.name.isdigit())
    return [process for process in found if process is not None]


def tree(root: int) -> list[Process]:
    """``root`` and every process descending from it."""
    processes = running()
    children: dict[int, list[Process]] = {}
    for process in processes:
        children.setdefault(process.parent, []).append(process)
    found = [process for process in processes if process.pid == root]
    for process in found:  # grows while it is walked: breadth first
        found.extend(children.get(process.pid, []))
    return found


def in_session(session: int) -> list[Process]:
    """The processes of ``session`` still running."""
    return [process for process in running() if process.session == session]


def children_of(processes: list[Process], marker: str) -> list[Process]:
    """The processes among ``processes`` whose parent runs ``marker``."""
    parents = {process.pid for process in processes if process.runs(marker)}
    return [process for process in processes if process.parent in parents]


def wait_for_tree(
    root: int, ready: Callable[[list[Process]], bool], timeout: float
) -> list[Process]:
    """The tree of ``root`` once ``ready(tree)``; an AssertionError when ``root`` ends first
    or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        processes = tree(root)
        if not any(process.pid == root for process in processes):
            raise AssertionError(f"process {root} ended before its children were all there")
        if ready(processes):
            return processes
        time.sleep(0.02)
    raise AssertionError(f"the children of {root} were not all there after {timeout} s")


def left_after(session: int, grace: float) -> list[Process]:
    """The processes of ``session`` still running after up to ``grace`` seconds (polled)."""
    deadline = time.monotonic() + grace
    while (left := in_session(session)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left
