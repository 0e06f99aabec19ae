"""One classification run on a store's catalog: the child process of :mod:`bench.classify_bench`.

Usage::

    .venv/bin/python -m bench.classify_once --store DIR --mode record --init 2022-03-01 \\
        --cutoff 2022-09-01 --current 2023-01-01 --out RESULT.parquet \\
        [--memory-limit 4GB] [--threads 2] [--sql VARIANT.sql] [--profile PROFILE.json] \\
        [--set NAME=VALUE ...]

Opens ``DIR/kg.duckdb`` read-only, sets the memory limit and threads and classifies as a
build does (:mod:`kgdiff.temporal.parts`: the planned parts through the catalog's
``classify`` macro, one file per part in the folder RESULT without its suffix); with
``--sql`` it runs that variant query over the same parts instead (it gets the parameters
of ``sql/classify/classify.sql`` that it uses: ``$init`` … ``$mode``, ``$part``, ``$lo``,
``$hi``). It prints one line of JSON: wall and CPU seconds (all threads), the groups per
level and, with ``--profile``, DuckDB's peak buffer memory and spill and the slowest
operators (of the last part). A variant's header lines ``-- bench-set: NAME=VALUE`` are
applied like ``--set`` (settings the variant needs).
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

import duckdb

from kgdiff.query.classified import GroupChoice
from kgdiff.sqlfiles import quote, render
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.dates import DEFAULT_MAX_GAP
from kgdiff.temporal.parts import classify_in_parts, plan_parts, set_for_parts

TOP_OPERATORS = 14


def connect(
    store: Path, memory_limit: str, threads: int, spill: Path, settings: list[str]
) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the store's catalog with the benchmark's settings.

    ``settings`` are extra ``NAME=VALUE`` DuckDB settings (experiments, e.g.
    ``disabled_optimizers=build_side_probe_side``).
    """
    con = open_catalog(StoreLayout(store.resolve()))
    con.execute(f"SET memory_limit = {quote(memory_limit)}")
    con.execute(f"SET threads = {threads}")
    con.execute(f"SET temp_directory = {quote(str(spill))}")
    con.execute("SET enable_progress_bar = false")
    for setting in settings:
        name, _, value = setting.partition("=")
        con.execute(f"SET {name.strip()} = {quote(value.strip())}")
    return con


def variant_settings(sql: Path | None) -> list[str]:
    """The ``-- bench-set: NAME=VALUE`` lines of a variant query."""
    if sql is None:
        return []
    lines = sql.read_text(encoding="utf-8").splitlines()
    return [line.split(":", 1)[1].strip() for line in lines if line.startswith("-- bench-set:")]


def variant_statement(sql: Path, out: Path) -> str:
    """A COPY of the variant query to ``out``."""
    query = sql.read_text(encoding="utf-8").strip().rstrip(";")
    return f"COPY (\n{query}\n) TO {quote(str(out))} (FORMAT parquet, COMPRESSION zstd)"


def run_build(
    con: duckdb.DuckDBPyConnection, args: argparse.Namespace, values: dict[str, object]
) -> str:
    """Classify exactly as a build does (planned parts through the catalog's macro) or, with
    ``--sql``, run the variant over the same parts, into the folder RESULT minus its suffix;
    return the glob of the part files."""
    layout = StoreLayout(args.store.resolve())
    days = [date.fromisoformat(day) for day in (args.init, args.cutoff, args.current)]
    set_for_parts(con)
    parts = plan_parts(con, layout, list_snapshots(layout), days, args.mode)
    folder = args.out.with_suffix("")
    shutil.rmtree(folder, ignore_errors=True)
    if args.sql is None:
        classify_in_parts(con, values, parts, folder)
        return str(folder / "*.parquet")
    query = args.sql.read_text(encoding="utf-8")
    folder.mkdir(parents=True)
    for index, part in enumerate(parts):
        # a variant binds what the catalog macro defaults (as_of, the date checks' values)
        defaults = {"as_of": None, "max_gap": DEFAULT_MAX_GAP, "allow_gap": False}
        given = values | part.values() | defaults
        bound = {k: v for k, v in given.items() if f"${k}" in query}
        con.execute(variant_statement(args.sql, folder / f"part-{index:05d}.parquet"), bound)
    return str(folder / "*.parquet")


def _walk(node: dict[str, Any], found: list[tuple[float, str]]) -> None:
    """Collect (seconds, description) of every operator of a profile tree."""
    info = json.dumps(node.get("extra_info", {}), ensure_ascii=False)
    rows = node.get("intermediate_rows", node.get("operator_cardinality", 0))
    timing = float(node.get("timing", node.get("operator_timing", 0.0)))
    label = node.get("type", node.get("operator_type", "?"))
    found.append((timing, f"{timing:7.2f}s {label} rows={rows} {info[:220]}"))
    for child in node.get("children", []):
        _walk(child, found)


def summarise_profile(path: Path) -> dict[str, object]:
    """Peak memory, spill and the slowest operators of a DuckDB JSON profile."""
    data = json.loads(path.read_text())
    found: list[tuple[float, str]] = []
    roots = data.get("operator", data.get("children", []))
    for node in roots if isinstance(roots, list) else [roots]:
        _walk(node, found)
    found.sort(key=lambda item: -item[0])
    system = data.get("system", {})
    return {
        "system": {
            "cpu_seconds": round(float(data.get("query", {}).get("cpu_time", 0.0)), 1),
            "peak_buffer_mb": round(system.get("peak_buffer_memory", 0) / 2**20),
            "peak_spill_mb": round(system.get("peak_temp_dir_size", 0) / 2**20),
        },
        "top": [line for _, line in found[:TOP_OPERATORS]],
    }


def level_counts(con: duckdb.DuckDBPyConnection, built: str) -> dict[str, int]:
    """The groups per level of the build's files (as ``kgdiff classify`` counts them; a
    variant from before the change nature counts its plain levels)."""
    try:
        rows = con.execute(render("classify/level_counts", build=built), GroupChoice().values())
    except duckdb.BinderException:
        plain = "SELECT level, count(*) FROM read_parquet(?) GROUP BY level ORDER BY level"
        rows = con.execute(plain, [built])
    return {str(level): int(n) for level, n in rows.fetchall()}


def run(args: argparse.Namespace) -> dict[str, object]:
    """Classify once; return the figures to print."""
    spill = Path(tempfile.mkdtemp(prefix="spill-", dir=args.out.parent))
    settings = [*variant_settings(args.sql), *args.set]
    con = connect(args.store, args.memory_limit, args.threads, spill, settings)
    values: dict[str, object] = {
        "init": date.fromisoformat(args.init),
        "cutoff": date.fromisoformat(args.cutoff),
        "current": date.fromisoformat(args.current),
        "mode": args.mode,
    }
    try:
        if args.profile:
            con.execute("PRAGMA enable_profiling = 'json'")
            con.execute(f"PRAGMA profiling_output = {quote(str(args.profile))}")
        start, cpu = time.perf_counter(), time.process_time()
        built = run_build(con, args, values)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        if args.profile:
            con.execute("PRAGMA disable_profiling")
        levels = level_counts(con, built)
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)
    result: dict[str, object] = {
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu, 2),
        "levels": levels,
    }
    if args.profile:
        result["profile"] = summarise_profile(args.profile)
    return result


def main(argv: list[str] | None = None) -> int:
    """Parse the options, classify, print one line of JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.classify_once")
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--mode", choices=("record", "valid", "both"), required=True)
    parser.add_argument("--init", required=True)
    parser.add_argument("--cutoff", required=True)
    parser.add_argument("--current", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--memory-limit", default="4GB")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--sql", type=Path, default=None, help="variant query instead of classify")
    parser.add_argument("--profile", type=Path, default=None, help="write a JSON profile here")
    parser.add_argument("--set", action="append", default=[], help="extra DuckDB NAME=VALUE")
    print(json.dumps(run(parser.parse_args(argv))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
