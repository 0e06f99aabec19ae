"""The package's layers (docs/architecture.md): import-linter's contracts in pyproject.toml hold,
a wrong import breaks them, and no import circle hides anywhere (scripts/import_cycles.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from scripts.import_cycles import circle, import_graph, tangles

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
WRONG_IMPORTS = {
    "kgdiff/temporal/facts.py": "from kgdiff.query.labels import Labels",
    "kgdiff/readers/streams.py": "import duckdb",
    "kgdiff/plot/embed.py": "from kgdiff.export.relations.catalogue import shipped_catalogue",
    "kgdiff/store/layout.py": "import api.settings",
    "kgdiff/export/pools/sample.py": "from kgdiff.export.qa.config import qa_config",
    "kgdiff/export/core/seeded.py": "from kgdiff.export.records.options import UNKNOWN_OPTION",
}
"""One import against each contract: upwards (which closes a circle too), DuckDB in a reader,
the plot knowing the export, kgdiff knowing the REST service, one config knowing another, the
export's core knowing what is built on it."""


def lint_imports(folder: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` over the kgdiff and api packages in ``folder``, with its contracts."""
    env = {**os.environ, "PYTHONPATH": str(folder)}
    command = [str(LINT_IMPORTS), "--no-cache", "--no-logo"]
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)


def test_the_import_contracts_hold() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 7 kept, 0 broken." in done.stdout


def test_a_wrong_import_breaks_its_contract(tmp_path: Path) -> None:
    """A copy of the packages with one wrong import per contract: each contract is broken,
    naming the importing module and what it imports."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", "data", "static")
    for package in ("kgdiff", "api"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for name, line in WRONG_IMPORTS.items():
        with (tmp_path / name).open("a", encoding="utf-8") as module:
            module.write(f"\n{line}\n")
    done = lint_imports(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    # the query imports the temporal core, so the upward import closes a circle too
    assert "Contracts: 0 kept, 7 broken." in done.stdout
    assert "kgdiff.temporal is not allowed to import kgdiff.query" in done.stdout
    assert "kgdiff.temporal.facts -> kgdiff.query.labels" in done.stdout
    assert "kgdiff.readers.streams -> duckdb" in done.stdout
    assert "kgdiff.plot.embed -> kgdiff.export.relations.catalogue" in done.stdout
    assert "kgdiff.store.layout -> api.settings" in done.stdout
    assert "kgdiff.export.pools.sample -> kgdiff.export.qa.config" in done.stdout
    assert "kgdiff.export.core.seeded -> kgdiff.export.records.options" in done.stdout


def test_no_import_circle_anywhere_in_the_packages() -> None:
    graph = import_graph()
    assert "kgdiff.query.graph" in graph["kgdiff"]  # the package's own __init__ is a module
    assert [circle(group, graph) for group in tangles(graph)] == []


def test_a_circle_through_a_package_or_a_hidden_import_is_found(tmp_path: Path) -> None:
    """Imports inside a function, under ``if TYPE_CHECKING:`` and relative ones all count, and
    a package's ``__init__`` is a module of the circle like any other."""
    package = tmp_path / "pkg"
    package.mkdir()
    files = {
        "__init__.py": "VERSION = 1\n\ndef open():\n    from pkg.graph import Graph\n",
        "graph.py": "from pkg.answers import Answers\n\nclass Graph: ...\n",
        "answers.py": (
            "from typing import TYPE_CHECKING\n\nfrom . import low\n\n"
            "if TYPE_CHECKING:\n    from pkg.graph import Graph\n"
        ),
        "low.py": "from pkg import VERSION\n",
        "alone.py": "import pkg.low\nimport os\n",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path, ["pkg"])
    assert graph["pkg.answers"] == {"pkg.low", "pkg.graph"}
    assert graph["pkg.alone"] == {"pkg.low"}
    assert tangles(graph) == [["pkg", "pkg.answers", "pkg.graph", "pkg.low"]]
    assert circle(tangles(graph)[0], graph) == ["pkg", "pkg.graph", "pkg.answers", "pkg.low", "pkg"]


def test_the_circle_checker_runs_in_lint() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "import_cycles.py")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "import circles" in (ROOT / "scripts" / "lint.py").read_text(encoding="utf-8")
