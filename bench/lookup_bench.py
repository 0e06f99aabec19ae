"""The lookup copy at several store sizes: its size beside the Parquet it is made of, and
the time, CPU and peak memory its build takes, with the exponents of their growth.

Run with ``.venv/bin/python -m bench.lookup_bench --store SMALL --store LARGE`` (stores of
``bench.classify_gen``, e.g. 3 × 2.5 M and 3 × 5 M statements). For each store, smallest
first, it removes the store's lookup copies, then runs ``kgdiff snapshots lookup`` in a
process of its own (``--checkout DIR``: the kgdiff of that source tree, e.g. a worktree of
an older commit), measured by bench/rss.py without PSS (reading a process's
``smaps_rollup`` stalls one that maps and spills as much as DuckDB does), and prints one
JSON line: wall and CPU seconds, peak RSS of the process tree, the copy's bytes, the
Parquet bytes of the tables it is made of (statements, qualifiers, entities, labels,
coverage; sitelinks are not read) and their ratio, and the seconds of each table from the
build's own lines. Last, per pair of consecutive stores, the exponent of each figure's
growth in the statements (1: linear).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import shutil
from pathlib import Path

from bench.rss import run_measured
from bench.serve_load import checkout_env, checkout_python
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots

COPIED = ("statements", "qualifiers", "entities", "labels", "coverage")
"""The snapshots' tables the lookup copy is made of."""
TABLE_LINE = re.compile(r"lookup copy: (\w+), ([\d,]+) rows in ([\d.]+) s")


def parquet_bytes(store: Path) -> dict[str, int]:
    """Bytes of each copied table's files, over every snapshot."""
    root = StoreLayout.resolve(store).root / "snapshots"
    return {
        table: sum(f.stat().st_size for f in root.glob(f"*/{table}/*") if f.is_file())
        for table in COPIED
    }


def measure(store: Path, checkout: Path | None) -> dict[str, object]:
    """Build the lookup copy of ``store`` afresh; what it took."""
    layout = StoreLayout.resolve(store)
    shutil.rmtree(layout.root / "builds" / "lookup", ignore_errors=True)
    command = [checkout_python(checkout), "-m", "kgdiff", "snapshots", "lookup"]
    command += ["--store", str(store)]
    measured = run_measured(command, env=checkout_env(checkout), cwd=checkout, pss=False)
    if measured.returncode != 0:
        raise SystemExit(f"the lookup copy of {store} was not made: {measured.stderr}")
    copies = [
        p for p in (layout.root / "builds" / "lookup").glob("*.duckdb") if ".facts-" not in p.name
    ]
    parquet = parquet_bytes(store)
    statements = sum(m.counts.get("statements", 0) for m in list_snapshots(layout))
    copy_bytes = sum(p.stat().st_size for p in copies)
    tables = {m[1]: float(m[3]) for m in TABLE_LINE.finditer(measured.stdout)}
    return {
        "store": str(store),
        "statements": statements,
        "seconds": round(measured.seconds, 1),
        "cpu_seconds": round(measured.cpu_seconds, 1),
        "peak_rss_mb": round(measured.peak_rss_bytes / 1e6),
        "copy_mb": round(copy_bytes / 1e6, 1),
        "parquet_mb": round(sum(parquet.values()) / 1e6, 1),
        "ratio": round(copy_bytes / max(1, sum(parquet.values())), 3),
        "parquet_mb_by_table": {t: round(b / 1e6, 1) for t, b in parquet.items()},
        "table_seconds": tables,
    }


def exponent(small: dict[str, object], large: dict[str, object], key: str) -> float:
    """How ``key`` grew with the statements between two runs: log(ratio) / log(ratio)."""
    size = float(large["statements"]) / float(small["statements"])  # type: ignore[arg-type]
    grown = float(large[key]) / float(small[key])  # type: ignore[arg-type]
    return math.log(grown) / math.log(size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, action="append", required=True)
    parser.add_argument("--checkout", type=Path, help="run the kgdiff of this source tree")
    args = parser.parse_args()
    runs = [measure(store, args.checkout) for store in args.store]
    for run in runs:
        print(json.dumps(run))
    for small, large in itertools.pairwise(runs):
        figures = ("seconds", "cpu_seconds", "copy_mb", "peak_rss_mb")
        grown = ", ".join(f"{key} {exponent(small, large, key):.2f}" for key in figures)
        print(f"exponents {small['statements']:,} -> {large['statements']:,} statements: {grown}")


if __name__ == "__main__":
    main()
