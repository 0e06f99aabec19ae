"""The staleness curve: how a store's groups split into levels as the knowledge cutoff moves
month by month, from the first snapshot (init) to the latest (current).

Each month's counts are those of the classification for (first snapshot, the month's first
day, latest snapshot). In record and valid time they are counted in one pass over the
statements for all the months (:mod:`kgdiff.temporal.curve_pass`: about the cost of one
classification); in mode 'both' each month is classified
(:mod:`kgdiff.temporal.staleness_months`). The curve is written once per store state to
``STORE/builds/staleness/<key>.parquet`` (the key hashes the snapshots, the mode, the rules
and the kgdiff version) and read back after that.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from datetime import date
from pathlib import Path

import msgspec
import polars as pl

from kgdiff.store.layout import CLASSIFY_RULES, StoreLayout
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.classify import check_mode
from kgdiff.temporal.curve_pass import PASS_MODES, MonthCounts, next_month, store_curve_counts
from kgdiff.temporal.levels import LEVELS
from kgdiff.temporal.staleness_months import months_classified
from kgdiff.version import __version__

CURVE_LAYOUT = 2
"""The curve file's columns and how it is counted (part of the key: a curve of another layout
is made again). 2: one pass in record and valid time; record time's months no longer share
the classification of the first month that reads the same snapshots, which missed the
qualifiers that change between those months."""
SCHEMA = {
    "cutoff": pl.Date,
    "level": pl.String,
    "groups": pl.Int64,
    "total": pl.Int64,
    "covered": pl.Int64,
}
MonthDone = Callable[[date, int, int], None]
"""Hears of each month counted: its cutoff, how many months are done, how many in all."""


def month_cutoffs(init: date, current: date) -> list[date]:
    """The first day of every month strictly after ``init`` and strictly before ``current``
    (the cutoffs a classification between them accepts)."""
    day = next_month(init)
    months = []
    while day < current:
        months.append(day)
        day = next_month(day)
    return months


def staleness_curve(
    layout: StoreLayout, mode: str = "record", on_month: MonthDone | None = None
) -> pl.DataFrame:
    """One row per (month's cutoff, level), every level of :data:`LEVELS` in order (zeros
    included): ``groups`` of that level, ``total`` groups and ``covered`` groups (those not
    ``not_covered``) at that cutoff. Empty when no month lies between the first and the
    latest snapshot. Made once per store state and mode, then read from the store."""
    check_mode(mode)
    manifests = list_snapshots(layout)
    if len(manifests) < 2:
        return pl.DataFrame(schema=SCHEMA)
    path = curve_path(layout, mode)
    if path.is_file():
        return pl.read_parquet(path)
    init, current = date.fromisoformat(manifests[0].date), date.fromisoformat(manifests[-1].date)
    months = month_cutoffs(init, current)
    counts = _counts(layout, (init, months, current), mode, on_month)
    rows = [row for cutoff in months for row in _month_rows(cutoff, counts[cutoff])]
    frame = pl.DataFrame(rows, schema=SCHEMA, orient="row")
    _publish(frame, path)
    return frame


def _counts(
    layout: StoreLayout,
    days: tuple[date, list[date], date],
    mode: str,
    on_month: MonthDone | None,
) -> MonthCounts:
    """Each month's groups per level: in one pass in record and valid time, else by a
    classification per month; ``on_month`` hears of each month as it is counted."""
    months, done = days[1], 0

    def counted(cutoffs: list[date]) -> None:
        nonlocal done
        for cutoff in cutoffs:
            done += 1
            if on_month is not None:
                on_month(cutoff, done, len(months))

    if mode in PASS_MODES:
        return store_curve_counts(layout, days, mode, counted)
    return months_classified(layout, days, mode, lambda cutoff: counted([cutoff]))


def curve_path(layout: StoreLayout, mode: str) -> Path:
    """Where the curve of the store's current snapshots in ``mode`` is (or will be) kept."""
    snapshots = [(m.name, m.date, m.source.sha256, m.coverage) for m in list_snapshots(layout)]
    params = [snapshots, mode, CLASSIFY_RULES, CURVE_LAYOUT, __version__]
    key = hashlib.sha256(msgspec.json.encode(params)).hexdigest()[:16]
    return layout.root / "builds" / "staleness" / f"{key}.parquet"


def _month_rows(cutoff: date, counts: dict[str, int]) -> list[tuple[date, str, int, int, int]]:
    total = sum(counts.values())
    covered = total - counts.get("not_covered", 0)
    return [(cutoff, level, counts.get(level, 0), total, covered) for level in LEVELS]


def _publish(frame: pl.DataFrame, path: Path) -> None:
    """Write the curve whole, then rename it into place (readers never see half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    frame.write_parquet(partial)
    partial.replace(path)
