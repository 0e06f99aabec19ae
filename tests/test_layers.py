"""The package layers: the temporal core imports neither the evidence nor the export."""

from __future__ import annotations

import ast
from pathlib import Path

import kgdiff

PACKAGE = Path(kgdiff.__file__).parent
FORBIDDEN = ("kgdiff.evidence", "kgdiff.export")


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at any depth (TYPE_CHECKING blocks included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_the_temporal_core_imports_neither_evidence_nor_export() -> None:
    files = sorted((PACKAGE / "temporal").glob("*.py"))
    assert files
    wrong = {
        f"{path.name}: {name}"
        for path in files
        for name in imported_modules(path)
        if name.startswith(FORBIDDEN)
    }
    assert not wrong


def test_the_classification_export_with_evidence_lives_in_the_export_package() -> None:
    modules = imported_modules(PACKAGE / "export" / "classified.py")
    assert "kgdiff.evidence.supported" in modules
