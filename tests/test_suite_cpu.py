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
