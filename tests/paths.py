"""Where the tests find their data, and how they run the command line."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SAMPLES = ROOT / "snapshots"
"""The bundled sample snapshots (shared with the demo)."""


def run_kgdiff(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python -m kgdiff ARGS`` from the repository, in a plain environment."""
    return subprocess.run(
        [sys.executable, "-m", "kgdiff", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "HOME": str(ROOT)},
    )
