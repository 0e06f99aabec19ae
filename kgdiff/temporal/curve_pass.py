"""The staleness curve's counts in one pass over the statements (sql/staleness/curve.sql).

A month's counts are those of the classification for (init, the month's first day,
current); the SQL judges every statement once for init, all the months and current (bit
masks of dates), so a curve costs about one classification, not one per month. It runs
part by part like a classification (:mod:`kgdiff.temporal.parts`), the parts' counts
adding up, and in windows of :data:`MONTHS_PER_RUN` months (its masks have 64 bits).
Mode 'both' is not computed this way (:mod:`kgdiff.temporal.staleness_months`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

import duckdb

from kgdiff.sqlfiles import load_sql
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.helper_macros import open_catalog_with_helpers
from kgdiff.temporal.parts import Part, classifying, plan_parts

MONTHS_PER_RUN = 61
"""Months one run of the SQL counts: init, the months and current take a bit each of 64."""
PASS_MODES = ("record", "valid")
MonthCounts = dict[date, dict[str, int]]
"""Groups per level (levels without groups left out) at each month's cutoff."""
RunDone = Callable[[list[date]], None]
"""Hears of the months a window counted, once all its parts are done."""


def next_month(day: date) -> date:
    """The first day of the month after ``day``'s."""
    return date(day.year + day.month // 12, day.month % 12 + 1, 1)


def check_months(init: date, months: Sequence[date], current: date) -> None:
    """Raise ``ValueError`` unless ``months`` are consecutive month starts strictly between
    ``init`` and ``current`` (what the SQL's masks assume)."""
    if not months:
        return
    expected = [months[0]]
    while len(expected) < len(months):
        expected.append(next_month(expected[-1]))
    if months[0].day != 1 or list(months) != expected or not init < months[0] < current:
        raise ValueError(f"not consecutive month starts between {init} and {current}: {months}")
    if not months[-1] < current:
        raise ValueError(f"the last month {months[-1]} is not before {current}")


def curve_counts(
    connection: duckdb.DuckDBPyConnection,
    days: tuple[date, Sequence[date], date],
    mode: str,
    parts: Sequence[Part],
    on_run: RunDone | None = None,
    months_per_run: int = MONTHS_PER_RUN,
) -> MonthCounts:
    """Groups per level at every month of ``days`` (init, the months, current), in
    ``mode`` ('record' or 'valid'), counted by one run of the SQL per window of
    ``months_per_run`` months and part. The connection needs the store's views and the
    ``date_reads`` macro (the catalog has them; else
    :func:`kgdiff.temporal.classify.define_classify_macro`)."""
    init, months, current = days
    if mode not in PASS_MODES:
        raise ValueError(f"the one-pass curve counts 'record' or 'valid', not {mode!r}")
    if not 1 <= months_per_run <= MONTHS_PER_RUN:
        raise ValueError(f"months_per_run must be 1..{MONTHS_PER_RUN}, not {months_per_run}")
    check_months(init, months, current)
    counts: MonthCounts = {month: {} for month in months}
    for start in range(0, len(months), months_per_run):
        window = list(months[start : start + months_per_run])
        for part in parts:
            _add_run(connection, (init, window, current), mode, part, counts)
        if on_run is not None:
            on_run(window)
    return counts


def store_curve_counts(
    layout: StoreLayout,
    days: tuple[date, Sequence[date], date],
    mode: str,
    on_run: RunDone | None = None,
) -> MonthCounts:
    """:func:`curve_counts` on the store's catalog, in the parts a classification reading
    the same snapshots would be cut into."""
    init, months, current = days
    # curve.sql calls the rule macros, which the catalog of an older kgdiff may lack
    with classifying(layout, open_catalog_with_helpers) as connection:
        every_day = [init, *months, current]
        parts = plan_parts(connection, layout, list_snapshots(layout), every_day, mode)
        return curve_counts(connection, days, mode, parts, on_run)


def _add_run(
    connection: duckdb.DuckDBPyConnection,
    days: tuple[date, list[date], date],
    mode: str,
    part: Part,
    counts: MonthCounts,
) -> None:
    init, window, current = days
    values = {
        "init": init,
        "current": current,
        "first_month": window[0],
        "months": len(window),
        "mode": mode,
        **part.values(),
    }
    rows = connection.execute(load_sql("staleness/curve"), values).fetchall()
    for position, level, groups in rows:
        month = counts[window[int(position) - 1]]
        month[str(level)] = month.get(str(level), 0) + int(groups)
