"""The processes the REST service's heavy work runs in, one per job thread.

A heavy question (knowledge updates, pools, chains, evidence, a first classification, the
staleness curve) takes seconds to minutes of DuckDB and then of Python turning its rows into
JSON. Run in the service's own process it held a thread of the pool the point lookups answer
from, DuckDB's memory beside theirs, and the interpreter's lock while its rows became JSON:
a few of them at once starved every lookup (issue 36). So each job thread of
:class:`~kgdiff.query.jobs.Jobs` hands its work to a process of its own
(:mod:`kgdiff.query.work_child`), forked from the forkserver the SQL queries use (it ends with
the service, :mod:`kgdiff.children`), which answers one work at a time, keeps its graph (and
DuckDB's caches) between works, runs at a lower CPU priority than the service (``nice``: on a
machine of few cores the lookups come first) with DuckDB's memory bounded, and sends back what
the work returned (the answer's JSON, ready to send). A process that dies (killed, out of
memory) fails its work with a :class:`WorkerDiedError`; the next work starts another.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import suppress
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, TypeVar

from kgdiff.errors import KgdiffError, WorkerDiedError
from kgdiff.query.service_children import service_forkserver, start_service_forkserver
from kgdiff.query.work_child import serve
from kgdiff.query.work_limits import WorkLimits

T = TypeVar("T")
LOG = logging.getLogger(__name__)
PROCESS_NAME = "kgdiff-heavy"


class WorkBugError(Exception):
    """Work that failed in its process with an error that is no kgdiff error (a bug): the
    message carries the process's traceback, for the server's log."""


class WorkProcesses:
    """One process per calling thread that runs works on the store at ``root`` (see the
    module). Safe to call from many threads: each has its own process and pipe."""

    def __init__(self, root: Path, limits: WorkLimits | None = None) -> None:
        self.root, self.limits = root, limits or WorkLimits()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._children: list[_Child] = []

    def prepare(self) -> None:
        """Start the server the work processes are forked from, in the background (a
        service's start-up): the first heavy request then starts its process in
        milliseconds, its modules already imported."""
        threading.Thread(target=_start_server, name="kgdiff-forkserver", daemon=True).start()

    def run(self, work: Callable[[Any], T]) -> T:
        """``work(graph)`` in this thread's process (started if need be); what it returns,
        or the kgdiff error it raised, raised here."""
        child: _Child | None = getattr(self._local, "child", None)
        if child is None or not child.alive():
            child = _Child(self.root, self.limits)
            self._local.child = child
            with self._lock:
                self._children = [c for c in self._children if c.alive()] + [child]
        return child.run(work)

    def pids(self) -> list[int]:
        """The process ids of the work processes running now."""
        with self._lock:
            return [c.process.pid for c in self._children if c.alive() and c.process.pid]

    def close(self) -> None:
        """End every work process (a work running in one is abandoned)."""
        with self._lock:
            children, self._children = self._children, []
        for child in children:
            child.stop()


def _context() -> ForkServerContext:
    return service_forkserver()


def _start_server() -> None:
    with suppress(OSError):  # no folder for its socket: the first work tries again, and says
        start_service_forkserver()


class _Child:
    """A work process and the parent's end of its pipe."""

    def __init__(self, root: Path, limits: WorkLimits) -> None:
        context = _context()
        self.pipe, child_end = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=serve, args=(str(root), limits, child_end), name=PROCESS_NAME, daemon=True
        )
        try:
            self.process.start()
        finally:
            child_end.close()
        self._dead = False

    def alive(self) -> bool:
        return not self._dead and self.process.is_alive()

    def run(self, work: Callable[[Any], T]) -> T:
        try:
            self.pipe.send(work)
            kind, value = self.pipe.recv()
        except (EOFError, OSError, BrokenPipeError):
            self._dead = True
            self.process.join(1.0)
            raise _died(self.process) from None
        if kind == "error":
            assert isinstance(value, KgdiffError)
            raise value
        if kind == "bug":
            raise WorkBugError(str(value))
        result: T = value
        return result

    def stop(self) -> None:
        self._dead = True
        _close(self.pipe)
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5.0)


def _close(pipe: Connection) -> None:
    with suppress(OSError):
        pipe.close()


def _died(process: BaseProcess) -> WorkerDiedError:
    """The error of a work whose process ended before it answered (logged)."""
    code = process.exitcode
    how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
    LOG.warning("a heavy work's process (pid %s) ended before it answered (%s)", process.pid, how)
    return WorkerDiedError(
        f"the process making this answer ended before it was done ({how}: killed, or out of"
        " memory); ask again to have it made anew"
    )
