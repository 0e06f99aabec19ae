"""The staleness curve: how a store's groups split into levels as the knowledge cutoff moves
month by month, from the first snapshot (init) to the latest (current).

Each month's counts are those of the classification for (first snapshot, the month's first
day, latest snapshot), made by :func:`~kgdiff.temporal.builds.classification` like any
other. In record time a cutoff's levels depend only on the snapshots its three dates read
(object sets and coverage), so months that read the same snapshots share one build; in valid
time every month is classified. The curve is written once per store state to
``STORE/builds/staleness/<key>.parquet`` (the key hashes the snapshots, the mode, the rules
and the kgdiff version) and read back after that.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from datetime import date
from pathlib import Path

import duckdb
import msgspec
import polars as pl

from kgdiff import __version__
from kgdiff.sqlfiles import render
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.layout import CLASSIFY_RULES, StoreLayout, duckdb_glob
from kgdiff.store.snapshots import list_snapshots
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.builds import classification, lacks_view
from kgdiff.temporal.classify import check_mode, role_days
from kgdiff.temporal.dates import GapPolicy, check_answerable
from kgdiff.temporal.levels import LEVELS

CURVE_LAYOUT = 1
"""The curve file's columns (part of the key: a curve of another layout is made again)."""
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
    day = date(init.year + init.month // 12, init.month % 12 + 1, 1)
    months = []
    while day < current:
        months.append(day)
        day = date(day.year + day.month // 12, day.month % 12 + 1, 1)
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
    counted: dict[tuple[str | None, ...], dict[str, int]] = {}
    rows, made = [], []
    try:
        for done, cutoff in enumerate(months, start=1):
            key = _reads_key(layout, (init, cutoff, current), mode)
            if key not in counted:
                build = classification(layout, init, cutoff, current, mode, catalog=False)
                counted[key] = _level_counts(build.path)
                # a reused build whose view a killed run never made gets it with the new ones
                made += [] if build.reused and not lacks_view(layout, build.params) else [build]
            rows += _month_rows(cutoff, counted[key])
            if on_month is not None:
                on_month(cutoff, done, len(months))
    finally:  # the builds' missing views, in one rebuild (one per build cost more than them)
        if made:
            with store_lock(layout):
                rebuild_catalog(layout)
    frame = pl.DataFrame(rows, schema=SCHEMA, orient="row")
    _publish(frame, path)
    return frame


def curve_path(layout: StoreLayout, mode: str) -> Path:
    """Where the curve of the store's current snapshots in ``mode`` is (or will be) kept."""
    snapshots = [(m.name, m.date, m.source.sha256, m.coverage) for m in list_snapshots(layout)]
    params = [snapshots, mode, CLASSIFY_RULES, CURVE_LAYOUT, __version__]
    key = hashlib.sha256(msgspec.json.encode(params)).hexdigest()[:16]
    return layout.root / "builds" / "staleness" / f"{key}.parquet"


def _reads_key(
    layout: StoreLayout, days: tuple[date, date, date], mode: str
) -> tuple[str | None, ...]:
    """What a month's counts depend on: in record time the snapshots its dates read; in
    valid time the cutoff itself (every month is classified)."""
    if mode != "record":
        return (days[1].isoformat(),)
    with open_catalog(layout) as connection:
        reads = check_answerable(connection, role_days(*days), mode, GapPolicy(), as_of=days[2])
    return tuple(read.snapshot for read in reads)


def _level_counts(build: Path) -> dict[str, int]:
    query = render("classify/level_counts", build=duckdb_glob(build))
    with duckdb.connect() as connection:
        rows = connection.execute(query, {"pids": [], "levels": [], "subjects": []}).fetchall()
    return {str(level): int(groups) for level, groups in rows}


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
