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
        pytest.param(("snapshots", "--store", "{missing}"), id="empty store"),
        pytest.param(("classify", "--no-such-option"), id="usage error"),
        pytest.param(("classify", "--cutoff", "2014-13-01", "--store", "{missing}"), id="bad date"),
        pytest.param(("snapshots", "--store", str(SAMPLES / "README.md")), id="store is a file"),
        pytest.param(("--version",), id="version"),
    ],
)
def test_in_process_and_in_a_process_answer_alike(args: tuple[str, ...], tmp_path: Path) -> None:
    words = [word.replace("{missing}", str(tmp_path / "missing")) for word in args]
    environ, cwd, argv = dict(os.environ), Path.cwd(), list(sys.argv)
    here = run_in_process(words, plain_env(), ROOT)
    assert here is not None, "consoles fixed at import: every command would start a process"
    assert (dict(os.environ), Path.cwd(), sys.argv) == (environ, cwd, argv)
    there = run_kgdiff(*words, process=True)
    named = [text.replace("python -m kgdiff", "kgdiff") for text in (there.stdout, there.stderr)]
    assert (here.returncode, here.stdout, here.stderr) == (there.returncode, *named)
