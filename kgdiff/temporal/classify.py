"""Classify every (subject, pid) group for a knowledge cutoff (sql/classify/classify.sql).

The SQL reads the views ``snapshots`` and ``statements`` of the connection it is
given: the store's catalog, or any connection that defines them (the tests do).
"""

from __future__ import annotations

from datetime import date

import duckdb

from kgdiff.errors import UsageError
from kgdiff.sqlfiles import load_sql

MODES = ("record", "valid", "both")


def check_dates(init: date, cutoff: date, current: date) -> None:
    """Raise :class:`UsageError` unless init < cutoff < current."""
    if not init < cutoff < current:
        raise UsageError(
            f"dates must satisfy init < cutoff < current (got {init}, {cutoff}, {current})"
        )


def classify(
    connection: duckdb.DuckDBPyConnection, init: date, cutoff: date, current: date, mode: str
) -> duckdb.DuckDBPyConnection:
    """Run the classification; the returned cursor yields one row per reported group.

    Columns: subject, pid, level, change_kind, changed_after_cutoff, latest, outdated,
    all_answers, ambiguous_reason.
    """
    check_dates(init, cutoff, current)
    if mode not in MODES:
        raise UsageError(f"--mode {mode!r} is not one of {', '.join(MODES)}")
    parameters = {"init": init, "cutoff": cutoff, "current": current, "mode": mode}
    return connection.execute(load_sql("classify/classify"), parameters)
