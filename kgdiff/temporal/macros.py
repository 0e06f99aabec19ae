"""The table macros the catalog defines, in the order they must be created."""

from __future__ import annotations

from kgdiff.sqlfiles import load_sql
from kgdiff.temporal import chains, facts, pools, timeline, updates
from kgdiff.temporal.classify import classify_macro
from kgdiff.temporal.dates import date_reads_macro

TIME_MACROS = (
    "floor_div", "month_days", "day_number", "time_parts", "year_span", "time_day", "time_lo",
    "time_hi",
)  # fmt: skip
"""The scalar macros of time value keys (``sql/timevalue/``), each after those it calls:
``kgdiff_time_lo(value)`` and ``kgdiff_time_hi(value)``, a value's first and last day as
64-bit day numbers (:mod:`kgdiff.timetext`), and their helpers."""


def time_macros() -> list[str]:
    """``CREATE MACRO`` statements of :data:`TIME_MACROS`, in order."""
    return [load_sql(f"timevalue/{name}") for name in TIME_MACROS]


def catalog_macros() -> list[str]:
    """``CREATE MACRO`` statements: the time value macros (which timeline uses), date_reads,
    classify (which uses it), timeline, then pools and chains (which use date_reads and the
    store's entity_labels), and updates and facts_at (which use classify)."""
    return [
        *time_macros(),
        date_reads_macro(),
        classify_macro(),
        timeline.catalog_macro(),
        pools.catalog_macro(),
        chains.catalog_macro(),
        updates.catalog_macro(),
        facts.catalog_macro(),
    ]
