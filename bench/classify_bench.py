"""Classification benchmark: every mode on 3 × 5 M and 3 × 20 M statements, side by side.

Run with ``.venv/bin/python -m bench.classify_bench [--data DIR]``. It generates (once,
cached in ``--data``, default ``/work/bench-data/classify``) two synthetic stores with
:mod:`bench.classify_gen` (3 snapshots of 5 M and of 20 M statements), rebuilds their
catalogs (so the ``classify`` macro is the current ``sql/classify/classify.sql``), then
for each size and mode materialises the classification exactly as a build does
(``sql/classify/classify_build.sql``: the catalog's ``classify`` macro copied to Parquet)
in a child process with DuckDB's ``memory_limit`` at 4 GB and 2 threads, measured with
:func:`bench.rss.run_measured` (wall time of the statement, peak RSS of the process).

It prints one table (size, mode, seconds, groups, groups/s, peak RSS, groups per level),
the 20M/5M time ratio per mode, PASS/FAIL against the targets (≤ 60 s per mode at 3 × 20 M,
ratio ≤ 4.5, peak RSS within the memory limit, no out-of-memory error) and a JSON summary.

``--sql FILE`` (repeatable) also runs an alternative classification query (same
``$init``/``$cutoff``/``$current``/``$mode`` parameters, reading the catalog's views) on
the same stores, so rewrites are compared in the same run; ``--no-build`` runs only those.
``--profile`` writes DuckDB's JSON profile next to each result and prints the slowest
operators; ``--set NAME=VALUE`` applies a DuckDB setting to every run (e.g.
``disabled_optimizers=build_side_probe_side``). A variant runs over the same parts as the
build (see :mod:`bench.classify_once`).

Dates: init a third of the way from the first snapshot to the second, cutoff a third of the
way from the second-to-last to the last, current the last snapshot's date, so every level
occurs in both modes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from bench.rss import Measured, run_measured
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots, refresh_catalog

SIZES = {"3x5M": 5_000_000, "3x20M": 20_000_000}
SNAPSHOTS = 3
MODES = ("record", "valid")
LEVELS = ("stable", "evolved", "uncharted", "recent", "retracted", "ambiguous")
MEMORY_LIMIT = "4GB"
MEMORY_LIMIT_BYTES = 4_000_000_000  # DuckDB reads "4GB" as 4 * 1000^3 bytes
THREADS = 2
TARGET_SECONDS = 60.0
TARGET_RATIO = 4.5
CHECKS = ("seconds_ok", "ratio_ok", "memory_ok")
BUILD = "build"
"""Label of the real build path (the catalog's classify macro)."""


@dataclass(frozen=True)
class Dates:
    """The three classification dates."""

    init: date
    cutoff: date
    current: date


@dataclass
class Run:
    """One measured classification."""

    size: str
    mode: str
    variant: str
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_rss: int = 0
    levels: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    profile: dict[str, object] = field(default_factory=dict)

    @property
    def groups(self) -> int:
        """Groups classified (all levels)."""
        return sum(self.levels.values())

    @property
    def within_memory(self) -> bool:
        """Finished, and the peak RSS stayed within DuckDB's memory limit."""
        return self.error is None and self.peak_rss <= MEMORY_LIMIT_BYTES


def ensure_store(data: Path, label: str, statements: int, extra: list[str]) -> Path:
    """Generate (or reuse) the store ``data/label``; return its path."""
    store = data / label
    cmd = [
        sys.executable,
        "-m",
        "bench.classify_gen",
        "--statements",
        str(statements),
        "--snapshots",
        str(SNAPSHOTS),
        "--out",
        str(store),
        *extra,
    ]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    refresh_catalog(StoreLayout(store.resolve()))
    return store


def choose_dates(store: Path) -> Dates:
    """init in (D0, D1), cutoff in (D[-2], D[-1]), current = D[-1]."""
    days = [date.fromisoformat(m.date) for m in list_snapshots(StoreLayout(store.resolve()))]
    if len(days) < 3:
        raise SystemExit(f"{store} needs at least 3 snapshots (has {len(days)})")
    init = days[0] + (days[1] - days[0]) / 3
    cutoff = days[-2] + (days[-1] - days[-2]) / 3
    return Dates(init, cutoff, days[-1])


def measure(
    store: Path,
    size: str,
    mode: str,
    dates: Dates,
    sql: Path | None,
    options: argparse.Namespace,
) -> Run:
    """Classify once in a child process; return its figures."""
    variant = sql.stem if sql else BUILD
    out = store.parent / "results" / f"{size}-{mode}-{variant}.parquet"
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "bench.classify_once",
        "--store",
        str(store),
        "--mode",
        mode,
        "--init",
        dates.init.isoformat(),
        "--cutoff",
        dates.cutoff.isoformat(),
        "--current",
        dates.current.isoformat(),
        "--out",
        str(out),
        "--memory-limit",
        MEMORY_LIMIT,
        "--threads",
        str(THREADS),
    ]
    if sql:
        cmd += ["--sql", str(sql)]
    if options.profile:
        cmd += ["--profile", str(out.with_suffix(".profile.json"))]
    for setting in options.set:
        cmd += ["--set", setting]
    return _as_run(run_measured(cmd), size, mode, variant)


def _as_run(measured: Measured, size: str, mode: str, variant: str) -> Run:
    """A :class:`Run` from the child's output (its JSON line, or the error it died of)."""
    run = Run(size, mode, variant, peak_rss=measured.peak_rss_bytes)
    lines = measured.stdout.strip().splitlines()
    if measured.returncode != 0 or not lines:
        run.error = _error_line(measured.stderr)
        run.seconds = measured.seconds
        return run
    result = json.loads(lines[-1])
    run.seconds = result["seconds"]
    run.cpu_seconds = result["cpu_seconds"]
    run.levels = result["levels"]
    run.profile = result.get("profile", {})
    return run


def _error_line(stderr: str) -> str:
    """The line of a child's traceback that says what went wrong."""
    lines = stderr.strip().splitlines() or ["failed"]
    errors = [line for line in lines if "Error" in line or "Exception" in line]
    return (errors[-1] if errors else lines[-1]).strip()[:160]


def print_table(runs: list[Run]) -> None:
    """The side-by-side table (s: wall seconds, cpu s: CPU seconds of all threads)."""
    width = max([len("variant"), *(len(r.variant) for r in runs)])
    head = f"{'size':6} {'mode':6} {'variant':{width}} {'s':>7} {'cpu s':>7} {'groups':>10}"
    head += f" {'groups/s':>9} {'peak RSS':>9} " + " ".join(f"{lv[:9]:>9}" for lv in LEVELS)
    print(head)
    for r in runs:
        line = f"{r.size:6} {r.mode:6} {r.variant:{width}} {r.seconds:7.1f}"
        if r.error:
            print(f"{line} FAILED: {r.error}")
            continue
        line += f" {r.cpu_seconds:7.1f} {r.groups:>10} {r.groups / r.seconds:>9.0f}"
        line += f" {r.peak_rss / 2**20:>7.0f}MB"
        print(line + " " + " ".join(f"{r.levels.get(level, 0):>9}" for level in LEVELS))


def verdicts(runs: list[Run]) -> list[dict[str, object]]:
    """PASS/FAIL per (variant, mode) against the targets."""
    small, big = list(SIZES)
    index = {(r.size, r.mode, r.variant): r for r in runs}
    results = []
    for variant in dict.fromkeys(r.variant for r in runs):
        for mode in dict.fromkeys(r.mode for r in runs):
            a, b = index.get((small, mode, variant)), index.get((big, mode, variant))
            if a is None or b is None:
                continue
            ok = a.error is None and b.error is None
            ratio = b.seconds / a.seconds if ok and a.seconds else None
            cpu_ratio = b.cpu_seconds / a.cpu_seconds if ok and a.cpu_seconds else None
            results.append(
                {
                    "variant": variant,
                    "mode": mode,
                    "seconds_big": round(b.seconds, 1),
                    "failed": b.error,
                    "ratio": round(ratio, 2) if ratio is not None else None,
                    "cpu_ratio": round(cpu_ratio, 2) if cpu_ratio is not None else None,
                    "peak_rss_mb_big": round(b.peak_rss / 2**20),
                    "seconds_ok": b.error is None and b.seconds <= TARGET_SECONDS,
                    "ratio_ok": ratio is not None and ratio <= TARGET_RATIO,
                    "memory_ok": a.within_memory and b.within_memory,
                }
            )
    return results


def print_verdicts(results: list[dict[str, object]]) -> None:
    """One line per (variant, mode): time at 3x20M, ratio, memory, PASS/FAIL."""
    small, big = list(SIZES)
    width = max([0, *(len(str(v["variant"])) for v in results)])
    for v in results:
        mark = {key: "PASS" if v[key] else "FAIL" for key in CHECKS}
        took = "failed after" if v["failed"] else "in"
        ratio = f"{v['ratio']}x (cpu {v['cpu_ratio']}x)" if v["ratio"] is not None else "n/a"
        print(
            f"{v['variant']:{width}} {v['mode']:6} {big} {took} {v['seconds_big']} s "
            f"(≤ {TARGET_SECONDS:.0f}) {mark['seconds_ok']}   "
            f"{big}/{small} {ratio} (≤ {TARGET_RATIO}) {mark['ratio_ok']}   "
            f"peak RSS {v['peak_rss_mb_big']} MB (≤ {MEMORY_LIMIT}) {mark['memory_ok']}"
        )


def print_profiles(runs: list[Run]) -> None:
    """The slowest operators of every profiled run."""
    for r in runs:
        if not r.profile:
            continue
        print(f"-- {r.size} {r.mode} {r.variant}: {json.dumps(r.profile['system'])}")
        for line in r.profile["top"]:  # type: ignore[attr-defined]
            print(f"   {line}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/work/bench-data/classify"))
    parser.add_argument("--sizes", default=",".join(SIZES), help="subset of 3x5M,3x20M")
    parser.add_argument("--modes", default=",".join(MODES), help="record,valid (or both)")
    parser.add_argument("--sql", type=Path, action="append", default=[], help="variant query")
    parser.add_argument("--no-build", action="store_true", help="only the --sql variants")
    parser.add_argument("--profile", action="store_true", help="DuckDB JSON profile per run")
    parser.add_argument("--set", action="append", default=[], help="DuckDB NAME=VALUE, all runs")
    parser.add_argument("--seed", type=int, default=42)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Generate the stores if needed, run every measurement, print the table and verdicts."""
    args = parse_args(argv)
    sizes = [s for s in args.sizes.split(",") if s]
    unknown = set(sizes) - set(SIZES)
    if unknown:
        raise SystemExit(f"unknown sizes {sorted(unknown)}; choose from {', '.join(SIZES)}")
    variants: list[Path | None] = [] if args.no_build else [None]
    variants += [path.resolve() for path in args.sql]
    runs = []
    for size in sizes:
        store = ensure_store(args.data, size, SIZES[size], ["--seed", str(args.seed)])
        dates = choose_dates(store)
        print(f"{size}: {store} init {dates.init} cutoff {dates.cutoff} current {dates.current}")
        for mode in args.modes.split(","):
            for sql in variants:
                runs.append(measure(store, size, mode, dates, sql, args))
    print_table(runs)
    results = verdicts(runs)
    print_verdicts(results)
    print_profiles(runs)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
