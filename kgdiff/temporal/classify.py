"""Classify every (subject, pid) group for a knowledge cutoff (sql/classify/classify.sql).

The SQL reads the views ``snapshots``, ``statements`` and ``entities`` of the
connection it is given: the store's catalog, or any connection that defines them
(the tests do). The catalog also exposes it as the table macro ``classify``.
"""

from __future__ import annotations

from datetime import date

import duckdb

from kgdiff.errors import UsageError
from kgdiff.sqlfiles import as_table_macro, load_sql
from kgdiff.temporal.dates import DEFAULT_MAX_GAP, GapPolicy, date_reads_macro
from kgdiff.temporal.window import Window, check_order, check_window

MODES = ("record", "valid", "both")
OPTIONAL_PARAMS = {
    "mode": "'record'",
    "part": "'all'",
    "lo": "''",
    "hi": "''",
    "as_of": "NULL",
    "max_gap": str(DEFAULT_MAX_GAP),
    "allow_gap": "false",
}
"""Optional macro parameters: which part of the groups to classify (default: all of them),
the latest snapshot date to read (default: ``current``) and how far past the data the dates
may go (:mod:`kgdiff.temporal.dates`)."""
WHOLE: dict[str, object] = {"part": "all", "lo": "", "hi": "", "as_of": None}
"""Bind values of the optional parameters for a classification of every group."""


def check_dates(init: date, cutoff: date, current: date) -> None:
    """Raise :class:`UsageError` unless init < cutoff < current (without the store: the faces
    check with :func:`~kgdiff.temporal.window.check_window`, which names the snapshots)."""
    check_order(Window(role_days(init, cutoff, current)))


def check_mode(mode: str) -> None:
    """Raise :class:`UsageError` unless ``mode`` is one of :data:`MODES`."""
    if mode not in MODES:
        raise UsageError(f"--mode {mode!r} is not one of {', '.join(MODES)}")


RULE_MACROS: dict[str, list[str]] = {
    "merge_targets": ["merges_as_of"],
    "part_statements": ["part_kind", "part_lo", "part_hi", "merged_relation"],
    "created": [
        "created_mode", "created_as_of", "part_kind", "part_lo", "part_hi", "merged_relation",
        "resolved_relation",
    ],
    "implied": ["part_kind", "part_lo", "part_hi", "merged_relation", "reads_relation"],
    "covered": [
        "part_kind", "part_lo", "part_hi", "merged_relation", "resolved_relation",
        "subset_relation",
    ],
}  # fmt: skip
"""The rules classify.sql shares with sql/staleness/curve.sql: the table macro
``kgdiff_<name>(params)`` of ``sql/classify/<name>.sql`` each, after those it calls."""


def rule_macros() -> list[str]:
    """``CREATE MACRO`` statements of :data:`RULE_MACROS`, in order."""
    return [
        as_table_macro(f"classify/{name}", f"kgdiff_{name}", params)
        for name, params in RULE_MACROS.items()
    ]


def classify_macro() -> str:
    """``CREATE MACRO classify(init, cutoff, current, mode := 'record', part := 'all', lo, hi,
    as_of, max_gap := 31, allow_gap := false)``."""
    params = ["init", "cutoff", "current", *OPTIONAL_PARAMS]
    return as_table_macro("classify/classify", "classify", params, OPTIONAL_PARAMS)


def define_classify_macro(connection: duckdb.DuckDBPyConnection) -> None:
    """Define the ``entity_redirects`` view and the ``date_reads``, rule and ``classify``
    macros on a connection that has the store's views but not the catalog."""
    connection.execute(load_sql("catalog/entity_redirects_view"))
    connection.execute(date_reads_macro())
    for macro in rule_macros():
        connection.execute(macro)
    connection.execute(classify_macro())


def classify(
    connection: duckdb.DuckDBPyConnection,
    init: date,
    cutoff: date,
    current: date,
    mode: str,
    gap: GapPolicy | None = None,
) -> duckdb.DuckDBPyConnection:
    """Run the classification; the returned cursor yields one row per reported group.

    The connection needs the ``date_reads`` macro (the catalog has it; else
    :func:`define_classify_macro`). Dates the snapshots cannot answer are a usage error
    unless ``gap`` allows them (:mod:`kgdiff.temporal.dates`).
    Columns: subject, pid, level, change_kind, changed_after_cutoff, latest, outdated,
    all_answers, ambiguous_reason, record_level, valid_level, backfilled, not_covered_in,
    init_snapshot, cutoff_snapshot, current_snapshot, init_gap_days, cutoff_gap_days,
    current_gap_days.
    """
    gap = gap or GapPolicy()
    check_mode(mode)
    check_window(connection, Window(role_days(init, cutoff, current)), mode, gap)
    parameters = {"init": init, "cutoff": cutoff, "current": current, "mode": mode, **WHOLE}
    parameters |= {"max_gap": gap.max_gap, "allow_gap": True}  # checked just above
    return connection.execute(load_sql("classify/classify"), parameters)


def role_days(init: date, cutoff: date, current: date) -> dict[str, date]:
    """The three dates of a classification by role, in order."""
    return {"init": init, "cutoff": cutoff, "current": current}
