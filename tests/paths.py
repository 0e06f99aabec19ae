"""Where the tests find their data."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SAMPLES = ROOT / "snapshots"
"""The bundled sample snapshots (shared with the demo)."""
