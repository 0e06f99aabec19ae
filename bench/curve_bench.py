"""The staleness curve and the knowledge updates as the store grows, side by side in one run.

Usage::

    .venv/bin/python -m bench.curve_bench --store /work/bench-data/curve/s5 \\
        --store /work/bench-data/curve/s20 [--steps classify,curve,months,updates] \\
        [--modes record,valid] [--out results.json]

For each store (made by :mod:`bench.classify_gen`), each step runs in its own process
(:mod:`bench.curve_once`), measured by :func:`bench.rss.run_measured` (wall seconds, CPU
seconds and peak RSS of the process tree), after the store's classification builds and
curves are removed (so nothing is reused):

- ``classify``: one classification build at the curve's middle month, per mode: the unit;
- ``curve``: the staleness curve in one pass, per mode;
- ``months``: the same counts by one classification per month (what the valid-time curve
  cost before), per mode: its counts must equal the curve's at every month;
- ``updates``: the knowledge updates after the middle month, in one query (as before) and part
  by part (``kg.updates``), each with DuckDB on one thread and on its default (every core):
  the same rows (a digest of them) every way.

It prints one table (per store and step: seconds, CPU seconds, peak RSS, and the curve's
cost in classifications), the growth exponent of each step's time between the smallest and
the largest store (log of the time ratio over log of the statements ratio), the checks, and
writes every figure as JSON to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench.curve_once import span
from bench.rss import run_measured
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots

STEPS = ("classify", "curve", "months", "updates")
MODES = ("record", "valid")
UPDATE_RUNS: list[tuple[str, list[str]]] = [
    ("whole, threads=1", ["--whole", "--threads", "1"]),
    ("whole", ["--whole"]),
    ("parts, threads=1", ["--threads", "1"]),
    ("parts", []),
]
"""The runs of ``updates``: in one query (as before) and part by part, each on one DuckDB
thread and on its default (every core)."""


@dataclass(frozen=True)
class Run:
    """One step on one store, as measured."""

    store: str
    statements: int
    step: str
    mode: str
    seconds: float
    cpu_seconds: float
    peak_rss_mb: int
    found: dict[str, Any]


def statements_of(store: Path) -> int:
    """The statements of every snapshot of the store."""
    return sum(m.counts.get("statements", 0) for m in list_snapshots(StoreLayout(store)))


def clear_builds(store: Path) -> None:
    """Remove the store's classification builds and curves, and their views."""
    layout = StoreLayout(store)
    for kind in ("classify", "staleness"):
        shutil.rmtree(layout.root / "builds" / kind, ignore_errors=True)
    with store_lock(layout):
        rebuild_catalog(layout)


def measure(store: Path, step: str, mode: str, extra: list[str]) -> Run:
    """Run one step in a child process on a store without builds."""
    clear_builds(store)
    command = [sys.executable, "-m", "bench.curve_once", step, "--store", str(store)]
    measured = run_measured([*command, "--mode", mode, *extra])
    if measured.returncode != 0:
        raise SystemExit(f"{step} {mode} on {store} failed: {measured.stderr[-2000:]}")
    found = json.loads(measured.stdout.strip().splitlines()[-1])
    return Run(
        store.name,
        statements_of(store),
        step,
        mode,
        round(measured.seconds, 1),
        round(measured.cpu_seconds, 1),
        measured.peak_rss_bytes // 2**20,
        found,
    )


def middle_month(store: Path) -> str:
    """The curve's middle month (the cutoff of ``classify`` and ``updates``)."""
    months = span(StoreLayout(store))[1]
    return months[len(months) // 2].isoformat()


def runs_of(store: Path, steps: list[str], modes: list[str]) -> list[Run]:
    """Every step asked for on one store, in order."""
    cutoff = middle_month(store)
    runs = []
    for step in [s for s in STEPS if s in steps]:
        if step == "updates":
            for label, options in UPDATE_RUNS:
                run = measure(store, step, "valid", ["--cutoff", cutoff, *options])
                runs.append(Run(**(asdict(run) | {"mode": label})))
            continue
        for mode in modes:
            extra = ["--cutoff", cutoff] if step == "classify" else []
            runs.append(measure(store, step, mode, extra))
    return runs


def table(runs: list[Run]) -> list[str]:
    """One line per run; the curves also in units of one classification (CPU and wall)."""
    unit = {(r.store, r.mode): r for r in runs if r.step == "classify"}
    lines = [
        "| store | statements | step | mode | s | CPU s | peak RSS MB | × classify (CPU / wall) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        base = unit.get((r.store, r.mode))
        times = ""
        if base is not None and r.step in ("curve", "months"):
            times = f"{r.cpu_seconds / base.cpu_seconds:.2f} / {r.seconds / base.seconds:.2f}"
        lines.append(
            f"| {r.store} | {r.statements:,} | {r.step} | {r.mode} | {r.seconds} |"
            f" {r.cpu_seconds} | {r.peak_rss_mb:,} | {times} |"
        )
    return lines


def exponents(runs: list[Run]) -> list[str]:
    """Per (step, mode): the exponent of wall and CPU time from the smallest store to the
    largest (time ∝ statements ** exponent)."""
    lines = []
    for step, mode in dict.fromkeys((r.step, r.mode) for r in runs):
        mine = sorted(
            (r for r in runs if (r.step, r.mode) == (step, mode)), key=lambda r: r.statements
        )
        if len(mine) < 2 or mine[0].statements == mine[-1].statements:
            continue
        small, large = mine[0], mine[-1]
        growth = math.log(large.statements / small.statements)
        wall = math.log(large.seconds / small.seconds) / growth
        cpu = math.log(large.cpu_seconds / small.cpu_seconds) / growth
        lines.append(f"{step} {mode}: exponent {wall:.2f} (wall), {cpu:.2f} (CPU)")
    return lines


def checks(runs: list[Run]) -> list[str]:
    """The curve equals the classification per month; updates give the same rows."""
    lines = []
    curves = {(r.store, r.mode): r.found["months"] for r in runs if r.step == "curve"}
    for r in runs:
        if r.step == "months" and (r.store, r.mode) in curves:
            same = curves[(r.store, r.mode)] == r.found["months"]
            lines.append(f"{r.store} {r.mode}: curve equals a classification per month: {same}")
    for store in dict.fromkeys(r.store for r in runs):
        digests = {r.found["digest"] for r in runs if r.store == store and r.step == "updates"}
        if digests:
            lines.append(f"{store} updates: the same rows every way: {len(digests) == 1}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the steps on every store and print the table, the exponents and the checks."""
    parser = argparse.ArgumentParser(prog="python -m bench.curve_bench")
    parser.add_argument("--store", type=Path, action="append", required=True)
    parser.add_argument("--steps", default=",".join(STEPS))
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    stores = sorted((s.resolve() for s in args.store), key=statements_of)
    steps, modes = args.steps.split(","), args.modes.split(",")
    runs = [run for store in stores for run in runs_of(store, steps, modes)]
    for line in [*table(runs), "", *exponents(runs), "", *checks(runs)]:
        print(line, flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps([asdict(r) for r in runs], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
