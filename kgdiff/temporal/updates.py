"""AntiLeakBench knowledge updates (sql/updates/updates.sql), a subset of evolved/replaced.

The SQL calls the ``classify`` table macro, which the catalog defines; on another
connection :func:`kgdiff.temporal.classify.define_classify_macro` defines it (the tests do).
"""

from __future__ import annotations

from datetime import date

import duckdb

from kgdiff.errors import UsageError
from kgdiff.sqlfiles import as_table_macro, load_sql

UPDATES_PARAMS = ["cutoff", "current"]


def catalog_macro() -> str:
    """``updates(cutoff, current)`` for the catalog (after ``classify``)."""
    return as_table_macro("updates/updates", "updates", UPDATES_PARAMS)


def check_window(cutoff: date, current: date) -> None:
    """Raise :class:`UsageError` unless cutoff < current."""
    if not cutoff < current:
        raise UsageError(f"dates must satisfy cutoff < current (got {cutoff}, {current})")


def knowledge_updates(
    connection: duckdb.DuckDBPyConnection, cutoff: date, current: date
) -> duckdb.DuckDBPyRelation:
    """The query as a relation; one row per (subject, pid, new object).

    Columns: subject, pid, new_object, old_objects, new_statement_id, new_start_lo,
    new_start_hi, old_statement_ids, old_end_hi, snapshot.
    """
    check_window(cutoff, current)
    parameters = {"cutoff": cutoff, "current": current}
    return connection.sql(load_sql("updates/updates"), params=parameters)
