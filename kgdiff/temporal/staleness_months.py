"""The staleness curve's counts by one classification per month: mode 'both' (whose
levels compare the two views' change kinds, which the one-pass curve of
:mod:`kgdiff.temporal.curve_pass` does not follow), and the reference the one-pass counts
are tested against.

Each month's counts are those of the classification build for (init, the month's first
day, current), made by :func:`~kgdiff.temporal.builds.classification` like any other and
kept in the store; the catalog is rebuilt once at the end for the builds' views.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path

from kgdiff.sqlfiles import render
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.layout import StoreLayout, duckdb_glob
from kgdiff.store.optimizers import connect
from kgdiff.temporal.builds import Build, classification, lacks_view
from kgdiff.temporal.curve_pass import MonthCounts

MonthClassified = Callable[[date], None]
"""Hears of each month classified, by its cutoff."""


def months_classified(
    layout: StoreLayout,
    days: tuple[date, Sequence[date], date],
    mode: str,
    on_month: MonthClassified | None = None,
) -> MonthCounts:
    """Groups per level at every month of ``days`` (init, the months, current) in ``mode``,
    each month from its own classification build."""
    init, months, current = days
    counts: MonthCounts = {}
    made: list[Build] = []
    try:
        for cutoff in months:
            build = classification(layout, init, cutoff, current, mode, catalog=False)
            counts[cutoff] = level_counts(build.path)
            # a reused build whose view a killed run never made gets it with the new ones
            made += [] if build.reused and not lacks_view(layout, build.params) else [build]
            if on_month is not None:
                on_month(cutoff)
    finally:  # the builds' missing views, in one rebuild (one per build cost more than them)
        if made:
            with store_lock(layout):
                rebuild_catalog(layout)
    return counts


def level_counts(build: Path) -> dict[str, int]:
    """Groups per level of a classification build."""
    query = render("classify/level_counts", build=duckdb_glob(build))
    with connect() as connection:
        params = {"pids": [], "levels": [], "subjects": [], "substantive": False}
        rows = connection.execute(query, params).fetchall()
    return {str(level): int(groups) for level, groups in rows}
