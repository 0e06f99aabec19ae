"""Where the tests find their data, and how they run the command line."""

import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SAMPLES = ROOT / "snapshots"
"""The bundled sample snapshots (shared with the demo)."""
CRASH_LOGS = Path(tempfile.gettempdir()) / "kgdiff-test-state"
"""Where a command run by a test writes a crash log (not under HOME, the checkout)."""


def run_kgdiff(
    *args: str, timeout: float = 300, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m kgdiff ARGS`` from the repository, in a plain environment (plus ``env``)."""
    return subprocess.run(
        [sys.executable, "-m", "kgdiff", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={
            "COLUMNS": "200",
            "PATH": "/usr/bin:/bin",
            "HOME": str(ROOT),
            "XDG_STATE_HOME": str(CRASH_LOGS),
            **(env or {}),
        },
    )
