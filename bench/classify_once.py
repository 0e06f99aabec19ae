"""One classification run on a store's catalog: the child process of :mod:`bench.classify_bench`.

Usage::

    .venv/bin/python -m bench.classify_once --store DIR --mode record --init 2022-03-01 \\
        --cutoff 2022-09-01 --current 2023-01-01 --out RESULT.parquet \\
        [--memory-limit 4GB] [--threads 2] [--sql VARIANT.sql] [--profile PROFILE.json] \\
        [--set NAME=VALUE ...] [--chunks K]

Opens ``DIR/kg.duckdb`` read-only, sets the memory limit and threads, runs
``sql/classify/classify_build.sql`` (or ``COPY (<VARIANT.sql>) TO RESULT.parquet``) and
prints one line of JSON: the statement's wall and CPU seconds (all threads), the groups
per level and, with
``--profile``, DuckDB's peak buffer memory and spill and the slowest operators.

A variant that uses ``$lo`` and ``$hi`` classifies one range of subjects (as strings,
``lo <= subject < hi``); with ``--chunks K`` it is run for K consecutive ranges (cut at
row-group boundaries of the latest snapshot's statements file, which is sorted by
subject) into part files that are then concatenated, in order, into RESULT.parquet.
The seconds include the concatenation. A variant's header lines
``-- bench-set: NAME=VALUE`` are applied like ``--set`` (settings the variant needs).
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

import duckdb

from kgdiff.sqlfiles import quote, render
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots

TOP_OPERATORS = 14


def connect(
    store: Path, memory_limit: str, threads: int, spill: Path, settings: list[str]
) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the store's catalog with the benchmark's settings.

    ``settings`` are extra ``NAME=VALUE`` DuckDB settings (experiments, e.g.
    ``disabled_optimizers=build_side_probe_side``).
    """
    con = duckdb.connect(str(StoreLayout(store.resolve()).catalog), read_only=True)
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


def statement(sql: Path | None, out: Path) -> str:
    """The build statement, or a COPY of the variant query to ``out``."""
    if sql is None:
        return render("classify/classify_build", out=str(out))
    query = sql.read_text(encoding="utf-8").strip().rstrip(";")
    return f"COPY (\n{query}\n) TO {quote(str(out))} (FORMAT parquet, COMPRESSION zstd)"


def subject_bounds(con: duckdb.DuckDBPyConnection, store: Path, chunks: int) -> list[str]:
    """K + 1 subject bounds: row-group minima of the latest snapshot's statements file."""
    layout = StoreLayout(store.resolve())
    latest = list_snapshots(layout)[-1].name
    path = layout.snapshot_dir(latest) / "statements.parquet"
    rows = con.execute(
        "SELECT stats_min_value FROM parquet_metadata(?) "
        "WHERE path_in_schema = 'subject' ORDER BY row_group_id",
        [str(path)],
    ).fetchall()
    minima = [str(row[0]) for row in rows]
    inner = [minima[len(minima) * i // chunks] for i in range(1, chunks)]
    return ["", *sorted(set(inner)), "\U0010ffff"]


def run_chunked(
    con: duckdb.DuckDBPyConnection, args: argparse.Namespace, values: dict[str, object]
) -> None:
    """Classify subject range after subject range, then concatenate the parts in order."""
    query = args.sql.read_text(encoding="utf-8").strip().rstrip(";")
    bounds = subject_bounds(con, args.store, args.chunks)
    parts = args.out.parent / f".{args.out.stem}-parts"
    shutil.rmtree(parts, ignore_errors=True)
    parts.mkdir()
    try:
        for index, (lo, hi) in enumerate(itertools.pairwise(bounds)):
            part = quote(str(parts / f"part-{index:04d}.parquet"))
            copy = f"COPY (\n{query}\n) TO {part} (FORMAT parquet, COMPRESSION zstd)"
            con.execute(copy, {**values, "lo": lo, "hi": hi})
        pattern = quote(str(parts / "part-*.parquet"))
        con.execute(
            f"COPY (SELECT * FROM read_parquet({pattern})) TO {quote(str(args.out))} "
            "(FORMAT parquet, COMPRESSION zstd)"
        )
    finally:
        shutil.rmtree(parts, ignore_errors=True)


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
        if args.sql is not None and "$lo" in args.sql.read_text(encoding="utf-8"):
            run_chunked(con, args, values)
        else:
            con.execute(statement(args.sql, args.out), values)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        if args.profile:
            con.execute("PRAGMA disable_profiling")
        rows = con.execute(render("classify/level_counts", build=str(args.out)), {"pids": []})
        levels = {str(level): int(n) for level, n in rows.fetchall()}
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
    parser.add_argument("--chunks", type=int, default=8, help="subject ranges ($lo/$hi variants)")
    print(json.dumps(run(parser.parse_args(argv))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
