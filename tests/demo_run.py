"""``kgdiff demo`` run once per test run (tests/conftest.py's ``demo_run``), for the tests of
what it prints and leaves behind."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.paths import run_kgdiff

TEXTS = ("given.txt", "stdout.txt")


@dataclass(frozen=True)
class DemoRun:
    """``kgdiff demo`` run from an empty folder, as ``make demo`` runs it."""

    store: Path
    """What it left (never written to: copy it)."""
    given: str
    """The ``--store`` it was given (the folder has moved since: the path it printed)."""
    stdout: str

    @classmethod
    def read(cls, folder: Path) -> DemoRun:
        """The run :func:`run_demo` made in ``folder``."""
        given, stdout = ((folder / name).read_text(encoding="utf-8") for name in TEXTS)
        return cls(folder / "store", given, stdout)


def run_demo(folder: Path) -> None:
    """Run the demo command with ``folder/store`` as its store; keep what it printed."""
    folder.mkdir()
    store = folder / "store"
    done = run_kgdiff("demo", "--store", str(store), timeout=1200)
    assert done.returncode == 0, done.stderr
    for name, text in zip(TEXTS, (str(store), done.stdout), strict=True):
        (folder / name).write_text(text, encoding="utf-8")
