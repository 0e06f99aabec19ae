"""SQL audits of a classification build: each returns the rows that break a rule."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kgdiff.resources import sql_names
from kgdiff.sqlfiles import render
from kgdiff.store.layout import duckdb_glob
from kgdiff.store.optimizers import connect


@dataclass(frozen=True)
class AuditResult:
    """One audit and the rows that violate it (first few kept)."""

    name: str
    violations: int
    examples: list[tuple[object, ...]]


def audit_names() -> list[str]:
    """Every audit in ``sql/audits/``."""
    return sql_names("audits")


def run_audits(build: Path, examples: int = 3) -> list[AuditResult]:
    """Run every audit against a classification build."""
    results = []
    with connect() as connection:
        for name in audit_names():
            rows = connection.execute(render(f"audits/{name}", build=duckdb_glob(build))).fetchall()
            results.append(AuditResult(name, len(rows), rows[:examples]))
    return results
