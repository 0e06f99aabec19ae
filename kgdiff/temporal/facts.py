"""The object sets of every (subject, pid) group at one date (sql/facts/facts_at.sql).

The SQL calls the ``date_reads`` and ``classify`` table macros (the catalog defines them; on
another connection :func:`kgdiff.temporal.classify.define_classify_macro` does), so a fact at
a date means exactly what the classification compares. A date the snapshots cannot answer is
refused unless the gap is allowed (:mod:`kgdiff.temporal.dates`).
"""

from __future__ import annotations

from datetime import date

import duckdb
import pyarrow as pa

from kgdiff.sqlfiles import as_table_macro, load_sql, run_arrow
from kgdiff.temporal.classify import check_mode
from kgdiff.temporal.dates import (
    DEFAULT_MAX_GAP,
    GAP_HINT,
    DateRead,
    GapPolicy,
    check_answerable,
    latest_snapshot,
)

OPTIONAL_PARAMS = {
    "mode": "'record'",
    "max_gap": str(DEFAULT_MAX_GAP),
    "allow_gap": "false",
    "part": "'all'",
    "lo": "''",
    "hi": "''",
}
WHOLE = {"part": "all", "lo": "", "hi": ""}
"""The subjects of :func:`facts_at` by default: every one."""


def catalog_macro() -> str:
    """``facts_at(day, mode := 'record', max_gap := 31, allow_gap := false, part := 'all',
    lo := '', hi := '')`` for the catalog (after ``classify``)."""
    params = ["day", *OPTIONAL_PARAMS]
    return as_table_macro("facts/facts_at", "facts_at", params, OPTIONAL_PARAMS)


def check_day(
    connection: duckdb.DuckDBPyConnection,
    day: date,
    mode: str,
    gap: GapPolicy,
    hint: str = GAP_HINT,
) -> list[DateRead]:
    """The reads of ``day`` (valid time reads the latest snapshot); a usage error naming the
    snapshots, ending with ``hint``, when the day is beyond the data and ``gap`` does not
    allow it."""
    check_mode(mode)
    latest = latest_snapshot(connection)
    as_of = latest[1] if latest is not None else None
    return check_answerable(connection, {"day": day}, mode, gap, as_of=as_of, hint=hint)


def facts_at(
    connection: duckdb.DuckDBPyConnection,
    day: date,
    mode: str = "record",
    gap: GapPolicy | None = None,
    part: dict[str, str] | None = None,
    checked: list[DateRead] | None = None,
) -> duckdb.DuckDBPyRelation:
    """The groups with facts at ``day`` (of the subjects ``part`` chooses: every one by
    default, see sql/facts/facts_at.sql), as a relation; ``checked``: the day's reads, when
    the caller has checked it already (:func:`check_day`).

    Columns: subject, pid, objects, best, unknown, unknown_reason, snapshot (the one that
    answered), gap_days (the day minus that snapshot's date).
    """
    params = _facts_params(connection, day, mode, gap, part, checked)
    return connection.sql(load_sql("facts/facts_at"), params=params)


def part_facts_at(
    connection: duckdb.DuckDBPyConnection,
    day: date,
    part: dict[str, str],
    mode: str = "record",
    gap: GapPolicy | None = None,
    checked: list[DateRead] | None = None,
) -> pa.Table:
    """:func:`facts_at` of a small ``part`` (a subject's range, the merged groups of a few
    subjects: :func:`subject_parts`) as an Arrow table. A point lookup: the query is bound
    once, where a relation's is bound as it is made and again as it runs (a quarter of the
    lookup's time on the demo's store)."""
    params = _facts_params(connection, day, mode, gap, part, checked)
    return run_arrow(connection, "facts/facts_at", params)


def _facts_params(
    connection: duckdb.DuckDBPyConnection,
    day: date,
    mode: str,
    gap: GapPolicy | None,
    part: dict[str, str] | None,
    checked: list[DateRead] | None,
) -> dict[str, object]:
    """The parameters of sql/facts/facts_at.sql, once ``day`` is checked (unless ``checked``)."""
    gap = gap or GapPolicy()
    if checked is None:
        check_day(connection, day, mode, gap)
    values = {"day": day, "mode": mode, "max_gap": gap.max_gap, "allow_gap": True}
    return {**values, **(part or WHOLE)}


def subject_parts(
    connection: duckdb.DuckDBPyConnection, subjects: list[str]
) -> list[dict[str, str]]:
    """The parts that hold the groups of ``subjects`` and little else: each subject's own
    range, and for the subjects a redirect names (whose groups a merge may gather), the
    part of merged groups too (the parts are disjoint, so each group comes once)."""
    asked = list(dict.fromkeys(subjects))
    rows = connection.execute(load_sql("facts/redirect_named"), {"ids": asked}).fetchall()
    parts = [{"part": "range", "lo": s, "hi": s + "\x01"} for s in asked]
    return parts + ([{"part": "merged", "lo": "", "hi": ""}] if rows else [])
