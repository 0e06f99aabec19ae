"""Read back and export classification builds (JSON lines or Parquet).

When the store has evidence (``kgdiff evidence``), exports carry the ``supported`` columns
(:mod:`kgdiff.evidence.supported`), as the catalog's ``classified_*`` views do.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from kgdiff.evidence.supported import (
    SupportedSummary,
    evidence_snapshots,
    evidence_wiki,
    summarise_supported,
    supported_select,
    supported_view,
)
from kgdiff.sqlfiles import load_sql, render
from kgdiff.store.layout import StoreLayout, duckdb_glob
from kgdiff.store.store_root import open_catalog, store_relative
from kgdiff.temporal.builds import Build
from kgdiff.temporal.writers import copy_format, published


def level_counts(build: Path, pids: list[str]) -> list[tuple[str, int]]:
    """Groups per level in a build, optionally only for some properties."""
    query = render("classify/level_counts", build=duckdb_glob(build))
    rows = duckdb.execute(query, {"pids": pids}).fetchall()
    return [(str(level), int(count)) for level, count in rows]


@contextmanager
def export_source(layout: StoreLayout, build: Build) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection whose temporary view ``export_source`` holds the build's groups (and
    their evidence columns when the store has evidence)."""
    wiki = evidence_wiki(layout)
    if wiki is None:
        connection = duckdb.connect()
        view = render("classify/export_source", files=duckdb_glob(build.path))
    else:
        connection = open_catalog(layout)
        p = build.params
        relative = store_relative(layout, build.path)
        built = evidence_snapshots(layout)
        select = supported_select(relative, p.init, p.cutoff, p.current, wiki, built)
        view = supported_view("export_source", select, temporary=True)
    try:
        connection.execute(view)
        yield connection
    finally:
        connection.close()


def supported_counts(layout: StoreLayout, build: Build, pids: list[str]) -> SupportedSummary | None:
    """Groups per level and ``supported`` value, and why the unknown ones are unknown;
    None when the store has no evidence."""
    if evidence_wiki(layout) is None:
        return None
    with export_source(layout, build) as connection:
        rows = connection.execute(load_sql("evidence/supported_counts"), {"pids": pids})
        return summarise_supported(rows.fetchall())


def export_classification(layout: StoreLayout, build: Build, out: Path, pids: list[str]) -> int:
    """Write the groups of a build to ``out`` (atomically); return how many."""
    fmt = copy_format(out)
    with published(out) as tmp, export_source(layout, build) as connection:
        query = render("classify/export", out=str(tmp), format=fmt)
        written = connection.execute(query, {"pids": pids}).fetchone()  # COPY answers its count
    return int(written[0]) if written else 0
