"""The CPU each test spends, for finding what makes the suite slow (``KGDIFF_TEST_CPU=FILE``).

``--durations`` reports wall time, which on four pytest processes sharing two cores measures
the neighbours as much as the test. With ``KGDIFF_TEST_CPU`` set, every test (set-up, call
and tear-down) appends one line to that file: its id, the pytest process, its wall seconds,
the CPU seconds of the pytest process (every thread: DuckDB's and polars' too) and of the
child processes it waited for (commands, servers, browsers). A module's or session's fixtures
count in the first test that asks for them. ``scripts/suite_cpu.py FILE`` sums them up.
A JVM that PySpark starts is not waited for by pytest: its CPU is in neither column.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

TARGET = os.environ.get("KGDIFF_TEST_CPU")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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
