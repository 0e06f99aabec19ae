"""Child processes that die with their parent, however it ends (``kill -9`` included).

kgdiff starts processes of its own: the ingest's parse workers and the ``/v1/sql`` query
processes, both forked by Python's forkserver; the uvicorn workers of ``kgdiff serve
--workers N``; and ``lbzip2``. A parent killed by ``SIGKILL`` cleans nothing up, so each
child has to end by itself. Two things make that so:

- every child asks the kernel for ``SIGKILL`` once its parent is gone
  (``prctl(PR_SET_PDEATHSIG)``, Linux), as the first thing it does;
- a forkserver child also closes its copy of the server's "alive" pipe. multiprocessing hands
  one to every child (so that a child could start processes through the same server), and the
  server exits only when the last copy is closed; a child waiting for its parent, the server,
  to end and the server waiting for the child to close the pipe outlive the main process
  together (issue 34: the server and two parse workers, ~310 MB, lived on for minutes).
  kgdiff's children start no processes of their own.

Then a ``kill -9`` of the main process unrolls the whole tree: the forkserver reads the end of
its alive pipe and exits, its children get ``SIGKILL``, and multiprocessing's resource tracker
reads the end of its own pipe once its last writer is gone and exits too. ``lbzip2`` would
also end on its own (end of its input, then a broken output pipe), but not at once.

The kernel sends the signal when the *thread* that forked the child ends, not its process.
The forkserver has one thread; uvicorn starts its workers from its main thread; ``lbzip2`` is
started by the thread that reads its output, which cannot end before it is done with it.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from multiprocessing import forkserver

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
FORKSERVER_ALIVE_FD = "_forkserver_alive_fd"
"""The attribute of multiprocessing's forkserver that holds a child's copy of the alive pipe
(Python 3.11 to 3.14; no public way to close it)."""


@cache
def _prctl() -> Callable[[int, int, int, int, int], int] | None:
    """libc's ``prctl``, looked up once (before any fork); None off Linux."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, *[ctypes.c_ulong] * 4]
    prctl.restype = ctypes.c_int
    return prctl


def ask_for_death_signal() -> bool:
    """Have the kernel send this process ``SIGKILL`` when the thread that forked it ends;
    False where it cannot (not Linux, or prctl refused)."""
    prctl = _prctl()
    return prctl is not None and prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0


def die_with_parent() -> None:
    """Call first thing in a process that multiprocessing started (a parse worker, a query
    process, a uvicorn worker): it is killed when its parent ends, and as a forkserver child
    it no longer keeps the server alive. Does nothing in a process multiprocessing did not
    start (``kgdiff serve`` with one worker builds its app in the main process)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    ask_for_death_signal()
    if forkserver.get_inherited_fds() is not None:
        # Only now: while this process holds the alive pipe the server cannot exit, so the
        # signal was asked of a living parent.
        _release_forkserver()
    elif os.getppid() != parent.pid:  # the parent died before the signal was asked for
        os._exit(1)


def _release_forkserver() -> None:
    """Close this forkserver child's copy of the server's alive pipe."""
    server = forkserver._forkserver
    descriptor = getattr(server, FORKSERVER_ALIVE_FD, None)
    if isinstance(descriptor, int):
        with suppress(OSError):
            os.close(descriptor)
        setattr(server, FORKSERVER_ALIVE_FD, None)


def dies_with_caller() -> Callable[[], None] | None:
    """A ``preexec_fn`` for :class:`subprocess.Popen` that makes an external command die
    with the thread that starts it (None where that cannot be had). It only calls ``prctl``,
    looked up beforehand, between the fork and the exec, where little else is safe."""
    prctl = _prctl()
    if prctl is None:
        return None
    caller = os.getpid()

    def arm() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != caller:  # the caller died during the fork
            os._exit(1)

    return arm
