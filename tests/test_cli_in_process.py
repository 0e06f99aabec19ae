"""A command run inside the test's process (tests/cli_in_process.py) answers as the same
command run as ``python -m kgdiff``: the same exit status, stdout and stderr (where the process
names itself ``python -m kgdiff``, the one inside calls itself ``kgdiff``, as the installed
script does); and the test's process is as it was afterwards."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.paths import ROOT, SAMPLES, plain_env, run_kgdiff


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("snapshots", "--store", "{missing}"), id="missing store"),
        pytest.param(("classify", "--no-such-option"), id="usage error"),
        pytest.param(("classify", "--cutoff", "2014-13-01", "--store", "{missing}"), id="bad date"),
        pytest.param(("snapshots", "--store", str(SAMPLES / "NOTICE")), id="store is a file"),
        pytest.param(("--version",), id="version"),
    ],
)
def test_in_process_and_in_a_process_answer_alike(args: tuple[str, ...], tmp_path: Path) -> None:
    words = [word.replace("{missing}", str(tmp_path / "missing")) for word in args]
    environ, cwd, argv, main = dict(os.environ), Path.cwd(), list(sys.argv), sys.modules["__main__"]
    here = run_in_process(words, plain_env(), ROOT)
    assert (dict(os.environ), Path.cwd(), sys.argv) == (environ, cwd, argv)
    assert sys.modules["__main__"] is main
    there = run_kgdiff(*words, process=True)
    named = [text.replace("python -m kgdiff", "kgdiff") for text in (there.stdout, there.stderr)]
    assert (here.returncode, here.stdout, here.stderr) == (there.returncode, *named)


def test_consoles_fixed_by_the_tests_environment_do_not_leak_into_a_command(
    tmp_path: Path,
) -> None:
    """Where the test's process was started with COLUMNS set (as CI may start it), rich fixed
    the width of kgdiff's consoles at import; a command run here still writes as a new process
    in the command's own environment does, and the consoles are as they were afterwards."""
    from kgdiff.cli import common

    consoles = (common.console, common.err_console)
    kept = [console._width for console in consoles]
    try:
        for console in consoles:
            console._width = 37  # what Console() builds under COLUMNS=37
        (tmp_path / "an empty store").mkdir()
        words = ["snapshots", "--store", str(tmp_path / "an empty store")]
        here = run_in_process(words, plain_env(), ROOT)
        there = run_kgdiff(*words, process=True)
        assert len(max(here.stdout.splitlines(), key=len)) > 37
        assert (here.returncode, here.stdout, here.stderr) == (
            there.returncode,
            there.stdout,
            there.stderr,
        )
        assert [console._width for console in consoles] == [37, 37]
    finally:
        for console, width in zip(consoles, kept, strict=True):
            console._width = width
