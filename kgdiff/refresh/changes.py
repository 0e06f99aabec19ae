"""What a refresh changes in its base: the delta's ``changes`` (and ``coverage``) table, the
summary, and the counts of the whole refreshed snapshot.

An id the delta holds rows for is ``redirected`` (its revision is a redirect: a merge),
``changed`` (the base holds it) or ``added``; an id a deletion removes is ``deleted`` when
the base holds it (a deletion of an id the base does not hold changes nothing and is only
counted). The base is read through the catalog, so a base that is itself a delta reads whole.

Of the base, a refresh reads the entities it touches (one row each, with their counts of
statements and sitelinks) and the subject column of the labels and the qualifiers, to count
the rows its delta replaces there: never the rows themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.refresh.select import Selection
from kgdiff.rows.schema import PUBLISHED_SCHEMAS
from kgdiff.sqlfiles import load_sql, render
from kgdiff.store.bucket_sort import write_rows
from kgdiff.store.buckets import KEY_COLUMNS
from kgdiff.store.coverage import COVERAGE_SCHEMA, COVERAGE_TABLE
from kgdiff.store.delta import CHANGES_SCHEMA, CHANGES_TABLE
from kgdiff.store.layout import TABLES
from kgdiff.store.manifest import SUBSET, Manifest

PART = "part-00000.parquet"
COVERED = "covered"


@dataclass(frozen=True)
class Changes:
    """The ids the delta lists, by id, with what happened to each; the summary; and the rows
    of the base's entities, statements and sitelinks tables that belong to them."""

    table: pa.Table
    summary: dict[str, int]
    replaced: dict[str, int]


def classify_changes(
    connection: duckdb.DuckDBPyConnection, base: str, selection: Selection
) -> Changes:
    """The change of every id the refresh touches (``connection``: the store's catalog)."""
    kept_ids = selection.kept["qid"].to_pylist()
    redirects = selection.kept["redirect_to"].to_pylist()
    touched = pa.table({"qid": pa.array(sorted({*kept_ids, *selection.deleted}), pa.string())})
    connection.register("touched", touched)
    try:
        rows = connection.execute(load_sql("refresh/base_entities"), {"base": base}).fetchall()
    finally:
        connection.unregister("touched")
    held = {qid for qid, _, _ in rows}
    replaced = {
        "entities": len(rows),
        "statements": sum(statements or 0 for _, statements, _ in rows),
        "sitelinks": sum(sitelinks or 0 for _, _, sitelinks in rows),
    }
    change = {
        qid: "redirected" if target else "changed" if qid in held else "added"
        for qid, target in zip(kept_ids, redirects, strict=True)
    }
    unknown = 0
    for qid in selection.deleted:
        if qid in held:
            change[qid] = "deleted"
        else:
            unknown += 1
    ids = sorted(change)
    table = pa.table([ids, [change[qid] for qid in ids]], schema=CHANGES_SCHEMA)
    summary = {kind: 0 for kind in ("changed", "added", "redirected", "deleted")}
    for kind in change.values():
        summary[kind] += 1
    summary["deletions_of_unknown_ids"] = unknown
    return Changes(table, summary, replaced)


def write_change_tables(final: Path, changes: Changes, coverage: str) -> dict[str, int]:
    """Write the ``changes`` table (and, for a subset base, the ``coverage`` of the ids it
    touches) into the delta's folder; their rows."""
    (final / CHANGES_TABLE).mkdir(exist_ok=True)
    pq.write_table(changes.table, final / CHANGES_TABLE / PART, compression="zstd")
    written = {CHANGES_TABLE: changes.table.num_rows}
    if coverage == SUBSET:
        (final / COVERAGE_TABLE).mkdir(exist_ok=True)
        ids = pa.table([changes.table["qid"]], schema=COVERAGE_SCHEMA)
        pq.write_table(ids, final / COVERAGE_TABLE / PART, compression="zstd")
        written[COVERED] = ids.num_rows
    return written


def fill_empty_tables(final: Path) -> None:
    """Give each table without rows one empty part file (the views' globs need a file)."""
    for table in TABLES:
        folder = final / table
        folder.mkdir(exist_ok=True)
        if not any(folder.glob("part-*.parquet")):
            write_rows(table, PUBLISHED_SCHEMAS[table].empty_table(), folder / PART)


def whole_counts(
    connection: duckdb.DuckDBPyConnection,
    base: Manifest,
    changes: Changes,
    stored: dict[str, int],
) -> dict[str, int]:
    """The rows of each table of the refreshed snapshot read whole: the base's, less those
    of the ids the delta lists, plus the delta's own."""
    scanned = {table: KEY_COLUMNS[table] for table in TABLES if table not in changes.replaced}
    if base.coverage == SUBSET:
        scanned[COVERAGE_TABLE] = "qid"
    replaced = dict(changes.replaced)
    connection.register("touched", changes.table.select(["qid"]))
    try:
        for table, key in scanned.items():
            sql = render("refresh/base_rows", table=table, key=key)
            ((rows,),) = connection.execute(sql, {"base": base.name}).fetchall()
            replaced[COVERED if table == COVERAGE_TABLE else table] = rows
    finally:
        connection.unregister("touched")
    names = [*TABLES, *([COVERED] if base.coverage == SUBSET else [])]
    return {name: base.counts.get(name, 0) - replaced[name] + stored.get(name, 0) for name in names}
