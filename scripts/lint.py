"""Lint and type-check exactly the project's Python files, and check the package's layers
(``make lint``).

In a git checkout these are the files git tracks (staged ones included), so that scratch files
lying in a working tree are neither linted nor type-checked: ``git add`` a new file to have it
checked. Without a checkout (a source archive) ruff and mypy find the files themselves, as
their settings in pyproject.toml say. mypy checks the tracked files below the folders its
``files`` setting names.

The layers are import-linter's contracts in pyproject.toml (``lint-imports``) and
:mod:`scripts.import_cycles`, which finds import circles module by module.

    .venv/bin/python scripts/lint.py    ruff check, ruff format --check, mypy, lint-imports,
                                        import circles; exit 1 if any fails
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = Path(sys.executable).parent
PATTERNS = ("*.py", "*.pyi")


def tracked_python_files(root: Path) -> list[str] | None:
    """The Python files git tracks in the checkout at ``root`` that exist (a deletion not yet
    committed is left out), relative to it; None when ``root`` is not a checkout's top."""
    try:
        top = _git(root, "rev-parse", "--show-toplevel").strip()
        listed = _git(root, "ls-files", "-z", "--cached", "--", *PATTERNS)
    except (OSError, subprocess.CalledProcessError):
        return None
    if Path(top).resolve() != root.resolve():  # a source archive unpacked in another checkout
        return None
    names = sorted({name for name in listed.split("\0") if name})
    return [name for name in names if (root / name).is_file()]


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, check=True, text=True)
    return done.stdout


def mypy_folders(root: Path) -> list[str]:
    """The folders (or files) mypy's ``files`` setting in pyproject.toml names."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["mypy"]["files"])


def under(names: list[str], folders: list[str]) -> list[str]:
    """The ``names`` that are one of ``folders`` or below one of them."""
    return [name for name in names if any(name == f or name.startswith(f"{f}/") for f in folders)]


def commands(root: Path) -> dict[str, list[str]]:
    """ruff check, ruff format --check and mypy over the project's files, and the checks of
    the package's layers, by name."""
    files = tracked_python_files(root)
    ruff_targets = ["--force-exclude", *files] if files is not None else ["."]
    mypy_targets = under(files, mypy_folders(root)) if files is not None else []
    return {
        "ruff check": [str(TOOLS / "ruff"), "check", *ruff_targets],
        "ruff format": [str(TOOLS / "ruff"), "format", "--check", *ruff_targets],
        "mypy": [str(TOOLS / "mypy"), *mypy_targets],
        "lint-imports": [str(TOOLS / "lint-imports"), "--no-cache", "--no-logo"],
        "import circles": [sys.executable, str(root / "scripts" / "import_cycles.py")],
    }


def main() -> int:
    """Run every check (all of them, even after a failure); 1 if any failed."""
    checks = commands(ROOT)
    failed = [name for name, cmd in checks.items() if subprocess.run(cmd, cwd=ROOT).returncode]
    if failed:
        print(f"lint: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
