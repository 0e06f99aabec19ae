"""``KGDIFF_TEST_CPU`` makes every test append its wall and CPU seconds (tests/cpu_use.py), and
``scripts/suite_cpu.py`` sums them per file and per test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT

MEASURED = "tests/test_read_ahead.py"
"""A quick file of four tests, one of which waits 0.2 s for a timer."""


def test_each_test_writes_its_seconds_and_the_script_sums_them(tmp_path: Path) -> None:
    lines = tmp_path / "cpu.tsv"
    env = {**os.environ, "KGDIFF_TEST_CPU": str(lines)}
    env.pop("PYTEST_XDIST_WORKER", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", MEASURED]
    ran = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    rows = [line.split("\t") for line in lines.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 4 and {row[1] for row in rows} == {"main"}
    assert all(row[0].startswith(f"{MEASURED}::test_") for row in rows)
    seconds = {row[0].split("::")[1]: [float(field) for field in row[2:]] for row in rows}
    assert all(value >= 0 for values in seconds.values() for value in values)
    assert seconds["test_close_drops_the_reads_not_taken"][0] >= 0.2  # its timer's wait
    report = subprocess.run(
        [sys.executable, "scripts/suite_cpu.py", str(lines), "--top", "3"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert report.startswith("4 tests: ")
    assert f"    4  {MEASURED}" in report
    assert report.count("::test_") == 3


BURNING = """
import subprocess, sys, time

STARTED, STOPS = [], []
BURN = (
    "import pathlib, sys, time\\n"
    "end = time.process_time() + 0.6\\n"
    "while time.process_time() < end: pass\\n"
    "pathlib.Path(sys.argv[1]).touch()\\n"
    "stop = pathlib.Path(sys.argv[2])\\n"
    "while not stop.exists(): time.sleep(0.02)"
)


def start_burning(tmp_path, *launcher):
    \"\"\"Start a process (through ``launcher``) that burns 0.6 CPU-s, then waits for a file.\"\"\"
    done, stop = tmp_path / "burnt", tmp_path / "stop"
    command = [*launcher, sys.executable, "-c", BURN, str(done), str(stop)]
    STARTED.append(subprocess.Popen(command))
    STOPS.append(stop)
    deadline = time.monotonic() + 100
    while not done.exists() and time.monotonic() < deadline:  # however loaded the machine
        time.sleep(0.05)
    assert done.exists()
"""
"""The start of the measured test files below: a process burning CPU below the test's."""

BURNER = (
    BURNING
    + """

def test_a_child_left_running(tmp_path) -> None:
    start_burning(tmp_path)


def test_then_killed_unwaited() -> None:
    STARTED[0].kill()
"""
)

GRANDCHILD = (
    BURNING
    + """
PARENT = "import subprocess, sys; subprocess.run(sys.argv[1:])"


def test_a_grandchild_left_running(tmp_path) -> None:
    start_burning(tmp_path, sys.executable, "-c", PARENT)


def test_then_its_parent_reaps_it_and_ends() -> None:
    STOPS[0].touch()
    assert STARTED[0].wait(100) == 0
"""
)


def _measured_rows(tmp_path: Path, text: str) -> dict[str, list[str]]:
    """Each test's fields of ``KGDIFF_TEST_CPU``, for a test file ``text`` run alone."""
    lines, measured = tmp_path / "cpu.tsv", tmp_path / "test_burner.py"
    measured.write_text(text, encoding="utf-8")
    env = {**os.environ, "KGDIFF_TEST_CPU": str(lines), "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_XDIST_WORKER", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
               "tests.cpu_use", "--rootdir", str(tmp_path), str(measured)]  # fmt: skip
    ran = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    rows = [row.split("\t") for row in lines.read_text().splitlines()]
    return {row[0].split("::")[1]: row for row in rows}


def test_a_child_still_running_counts_in_the_test_that_ran_it(tmp_path: Path) -> None:
    """A process the test leaves running (a server, a JVM) is not waited for: its CPU is
    read from /proc, once, in the test it was spent in."""
    rows = _measured_rows(tmp_path, BURNER)
    assert float(rows["test_a_child_left_running"][4]) >= 0.5
    assert float(rows["test_then_killed_unwaited"][4]) < 0.3


def test_a_grandchild_its_parent_reaped_counts_once(tmp_path: Path) -> None:
    """Seen running below a child at one test's end, then reaped by that child, which this
    process reaps: its CPU reaches this process through the child's, and is not counted again
    as a process whose parent went away."""
    rows = _measured_rows(tmp_path, GRANDCHILD)
    assert float(rows["test_a_grandchild_left_running"][4]) >= 0.5
    assert float(rows["test_then_its_parent_reaps_it_and_ends"][4]) < 0.3
