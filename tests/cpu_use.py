"""The CPU each test spends, for finding what makes the suite slow (``KGDIFF_TEST_CPU=FILE``).

``--durations`` reports wall time, which on six pytest processes sharing two cores measures
the neighbours as much as the test. With ``KGDIFF_TEST_CPU`` set, every test (set-up, call
and tear-down) appends one line to that file: its id, the pytest process, its wall seconds,
the CPU seconds of the pytest process (every thread: DuckDB's and polars' too) and of the
processes below it: those it waited for (commands) and those still running at either end of
the test (a server, a browser, PySpark's JVM, a server's query processes), read from /proc.
A module's or session's fixtures count in the first test that asks for them.
``scripts/suite_cpu.py FILE`` sums them up.

The processes below are counted so that none counts twice: the CPU of the tree (this process,
the children it reaped, and every living descendant with the children *it* reaped) only moves
between those terms when a process ends and its parent reaps it. A process still running
whose parent ended first is no longer below this one (the system will reap it): what it had
spent when last seen is kept. One that has ended too is taken as reaped by its parent (its
CPU reaches this process through the parent's); an orphan that ends between two looks is
missed, never counted twice. Before the living descendants were counted, a suite run's table
missed ~400 CPU-s on two cores: Spark's JVMs (~190) and the queries the SQL attack tests let
run to their time limits (~150).
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

TARGET = os.environ.get("KGDIFF_TEST_CPU")
_seen: dict[int, tuple[float, float]] = {}
"""The living descendants when last looked at: CPU seconds (theirs and their reaped
children's) and start time (which tells a process from a later one given its pid)."""
_orphaned = 0.0
"""What descendants still running outside this process's tree had spent when last seen."""


def _descendants() -> dict[int, tuple[float, float]]:
    found = {}
    for process in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            spent = times.user + times.system + times.children_user + times.children_system
            found[process.pid] = (spent, process.create_time())
    return found


def _still_running(pid: int, started: float) -> bool:
    try:
        process = psutil.Process(pid)
        same: bool = process.create_time() == started
        return same and str(process.status()) != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _children_cpu() -> float:
    """The CPU seconds of every process below this one, ended or running (see the module)."""
    global _orphaned
    living = _descendants()
    for pid, (spent, started) in _seen.items():
        if pid not in living and _still_running(pid, started):
            _orphaned += spent
    _seen.clear()
    _seen.update(living)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    running = sum(spent for spent, _ in living.values())
    return usage.ru_utime + usage.ru_stime + running + _orphaned


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Measure the test's whole protocol and append its line to :data:`TARGET`."""
    if not TARGET:
        yield
        return
    wall, cpu, children = time.monotonic(), time.process_time(), _children_cpu()
    yield
    fields = (
        item.nodeid,
        os.environ.get("PYTEST_XDIST_WORKER", "main"),
        f"{time.monotonic() - wall:.2f}",
        f"{time.process_time() - cpu:.2f}",
        f"{_children_cpu() - children:.2f}",
    )
    with Path(TARGET).open("a", encoding="utf-8") as out:  # one short append: whole lines
        out.write("\t".join(fields) + "\n")
