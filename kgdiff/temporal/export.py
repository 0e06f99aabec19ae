"""Read back and export classification builds (JSON lines or Parquet)."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from kgdiff.errors import UsageError
from kgdiff.sqlfiles import render

FORMATS = {".jsonl": "json", ".parquet": "parquet"}


def level_counts(build: Path, pids: list[str]) -> list[tuple[str, int]]:
    """Groups per level in a build, optionally only for some properties."""
    query = render("classify/level_counts", build=str(build))
    rows = duckdb.execute(query, {"pids": pids}).fetchall()
    return [(str(level), int(count)) for level, count in rows]


def export_classification(build: Path, out: Path, pids: list[str]) -> int:
    """Write the groups of a build to ``out`` (atomically); return how many."""
    fmt = FORMATS.get(out.suffix.lower())
    if fmt is None:
        raise UsageError(f"--out {out}: use a .jsonl or .parquet file name")
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    query = render("classify/export", build=str(build), out=str(tmp), format=fmt)
    written = duckdb.execute(query, {"pids": pids}).fetchone()  # COPY answers its row count
    tmp.replace(out)
    return int(written[0]) if written else 0
