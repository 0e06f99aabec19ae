"""The installed ``kgdiff`` script: it runs the command line, and a parse worker that re-runs
it at start (as multiprocessing does with the main script) imports no command-line module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / "kgdiff"

AS_A_WORKER_DOES = """
import runpy, sys
runpy.run_path(sys.argv[1], run_name="__mp_main__")
heavy = sorted(name for name in ("typer", "rich", "kgdiff.cli", "pyarrow") if name in sys.modules)
print(",".join(heavy) or "-")
"""


@pytest.fixture(scope="module")
def script() -> Path:
    if not SCRIPT.is_file():
        pytest.skip("the kgdiff script is not installed next to this Python")
    return SCRIPT


def test_the_script_runs_the_command_line(script: Path) -> None:
    done = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "ingest" in done.stdout


def test_a_worker_re_running_the_script_imports_no_command_line_module(script: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", AS_A_WORKER_DOES, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "-"
