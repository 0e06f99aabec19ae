"""One step of :mod:`bench.curve_bench`, in its own process: a classification, the staleness
curve in one pass, the curve by a classification per month, or the knowledge updates.

Usage::

    .venv/bin/python -m bench.curve_once classify --store DIR --mode valid [--cutoff D]
    .venv/bin/python -m bench.curve_once curve --store DIR --mode valid
    .venv/bin/python -m bench.curve_once months --store DIR --mode valid
    .venv/bin/python -m bench.curve_once updates --store DIR --cutoff D [--threads N] [--whole]

Each step runs as kgdiff runs it (the store's catalog, DuckDB's defaults, builds in parts):
``classify`` makes the classification build for (first snapshot, the cutoff, latest
snapshot), by default at the middle month of the curve; ``curve`` the staleness curve
(:func:`kgdiff.temporal.staleness.staleness_curve`, one pass in record and valid time);
``months`` the same counts by one classification build per month
(:func:`kgdiff.temporal.staleness_months.months_classified`: what the curve cost before);
``updates`` the knowledge updates after the cutoff (``kg.updates``: valid time, current =
the latest snapshot, part by part; ``--whole``: the query over every group at once, as before)
with DuckDB's ``threads`` set to N (default: its own, every core).
The caller clears the store's builds first. It prints one line of JSON: the step's wall and
CPU seconds (this process: DuckDB's threads included) and what it found (groups per level,
per month for the curves; the updates' count and a digest of their rows).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from datetime import date
from pathlib import Path
from typing import Any

import kgdiff
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.builds import classification
from kgdiff.temporal.staleness import month_cutoffs, staleness_curve
from kgdiff.temporal.staleness_months import level_counts, months_classified
from kgdiff.temporal.updates import UpdatesQuery, find_updates


def span(layout: StoreLayout) -> tuple[date, list[date], date]:
    """The curve's dates: the first snapshot's, the months between, the latest one's."""
    manifests = list_snapshots(layout)
    init, current = date.fromisoformat(manifests[0].date), date.fromisoformat(manifests[-1].date)
    return init, month_cutoffs(init, current), current


def run_classify(layout: StoreLayout, args: argparse.Namespace) -> dict[str, Any]:
    init, months, current = span(layout)
    cutoff = date.fromisoformat(args.cutoff) if args.cutoff else months[len(months) // 2]
    build = classification(layout, init, cutoff, current, args.mode, catalog=False)
    return {"cutoff": cutoff.isoformat(), "levels": level_counts(build.path)}


def run_curve(layout: StoreLayout, args: argparse.Namespace) -> dict[str, Any]:
    frame = staleness_curve(layout, args.mode)
    months: dict[str, dict[str, int]] = {}
    for cutoff, level, groups in frame.select("cutoff", "level", "groups").rows():
        if groups:
            months.setdefault(cutoff.isoformat(), {})[level] = groups
    return {"months": months}


def run_months(layout: StoreLayout, args: argparse.Namespace) -> dict[str, Any]:
    counts = months_classified(layout, span(layout), args.mode)
    return {"months": {cutoff.isoformat(): levels for cutoff, levels in counts.items()}}


def run_updates(layout: StoreLayout, args: argparse.Namespace) -> dict[str, Any]:
    kg = kgdiff.open(layout.root)
    if args.threads:
        with kg.connection() as connection:  # a global setting: every cursor's
            connection.execute(f"SET threads = {int(args.threads)}")
    cutoff = date.fromisoformat(args.cutoff)
    if args.whole:  # the query over every group at once (before it ran in parts)
        query = UpdatesQuery(cutoff, span(layout)[2])
        with kg.connection() as connection:
            rows = find_updates(connection, query).fetchall()
    else:
        rows = kg.updates(cutoff).rows()
    digest = hashlib.sha256(repr(sorted(map(repr, rows))).encode()).hexdigest()[:16]
    return {"updates": len(rows), "digest": digest}


STEPS = {"classify": run_classify, "curve": run_curve, "months": run_months}
STEPS["updates"] = run_updates


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the step, print one line of JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.curve_once")
    parser.add_argument("step", choices=sorted(STEPS))
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--mode", choices=("record", "valid", "both"), default="valid")
    parser.add_argument("--cutoff", default=None, help="classify, updates: the cutoff")
    parser.add_argument("--threads", type=int, default=0, help="updates: DuckDB's threads")
    parser.add_argument("--whole", action="store_true", help="updates: in one query, no parts")
    args = parser.parse_args(argv)
    layout = StoreLayout(args.store.resolve())
    start, cpu = time.perf_counter(), time.process_time()
    found = STEPS[args.step](layout, args)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({"seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2), **found}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
