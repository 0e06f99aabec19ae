"""Where the tests find their data, and how they run the command line."""

import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path

from tests.cli_in_process import run_in_process

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SAMPLES = ROOT / "snapshots"
"""The bundled sample snapshots (shared with the demo)."""
CRASH_LOGS = Path(tempfile.gettempdir()) / "kgdiff-test-state"
"""Where a command run by a test writes a crash log (not under HOME, the checkout)."""

OWN_PROCESS = frozenset({"ingest", "refresh", "serve", "spark", "demo"})
"""The commands :func:`run_kgdiff` always runs in a process of their own: they start worker
processes or servers, install signal handlers, or end without Python's teardown."""


def plain_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a command run by a test sees: a plain one, plus ``env``."""
    return {
        "COLUMNS": "200",
        "PATH": "/usr/bin:/bin",
        "HOME": str(ROOT),
        "XDG_STATE_HOME": str(CRASH_LOGS),
        **(env or {}),
    }


def run_kgdiff(
    *args: str,
    timeout: float = 300,
    env: Mapping[str, str] | None = None,
    process: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run ``kgdiff ARGS`` from the repository in a plain environment (plus ``env``), as a
    user runs it: its exit status, stdout and stderr.

    Most commands run inside the test's own process (:mod:`tests.cli_in_process`: the same
    entry point, arguments, environment and working folder, without the ~0.4 CPU-s a new
    Python takes to start and import); ``process=True``, the commands of
    :data:`OWN_PROCESS` and a call from another thread than the main one run
    ``python -m kgdiff`` in a process of its own (``timeout`` applies there only)."""
    wanted = plain_env(env)
    own = process or (args[:1] and args[0] in OWN_PROCESS)
    if not own and threading.current_thread() is threading.main_thread():
        return run_in_process(list(args), wanted, ROOT)
    return subprocess.run(
        [sys.executable, "-m", "kgdiff", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=wanted,
    )
