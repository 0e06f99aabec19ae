"""Read back and export classification builds (JSON lines or Parquet)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from kgdiff.sqlfiles import render
from kgdiff.temporal.writers import copy_format, published


def level_counts(build: Path, pids: list[str]) -> list[tuple[str, int]]:
    """Groups per level in a build, optionally only for some properties."""
    query = render("classify/level_counts", build=str(build))
    rows = duckdb.execute(query, {"pids": pids}).fetchall()
    return [(str(level), int(count)) for level, count in rows]


def export_classification(build: Path, out: Path, pids: list[str]) -> int:
    """Write the groups of a build to ``out`` (atomically); return how many."""
    fmt = copy_format(out)
    with published(out) as tmp:
        query = render("classify/export", build=str(build), out=str(tmp), format=fmt)
        written = duckdb.execute(query, {"pids": pids}).fetchone()  # COPY answers its row count
    return int(written[0]) if written else 0
