"""Spark (``local[2]``) against the local paths: the ingest of the 1 GB bench dump, and the
classification of the 3 × 5 M store.

    python -m bench.spark_bench --dump DIR/wikidata-20240101-all.json.bz2 \
        --store /work/perf-store --work /tmp/spark-bench [--skip-ingest] [--skip-classify]

The dump comes from ``python -m bench.gendump --size-mb 1024`` (bench/README.md). The store is
never written: its snapshot folders are hard-linked into two fresh stores under ``--work`` (one
for DuckDB's build, one for Spark's). Prints wall seconds of each side, their ratio, and where
Spark's time goes: the JVM's start, reading (decompressing) the lines alone, the parse job,
renumbering the parts, the sort + Parquet write tasks; for the classification the start, the
views, and the run with the Parquet write (since its steps read more than once are checkpointed
as they are planned, planning and running no longer come apart: kgdiff/spark/stages.py).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import time
from datetime import date
from pathlib import Path
from typing import Any

from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.spark.classify import spark_classification
from kgdiff.spark.ingest import SparkIngestRequest, spark_ingest
from kgdiff.spark.session import spark_session
from kgdiff.spark.views import register_reads, register_store_views
from kgdiff.store.catalog import rebuild_catalog
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.builds import classification
from kgdiff.temporal.classify import role_days
from kgdiff.temporal.dates import GapPolicy, check_answerable

MASTER = "local[2]"
SPARK_SETTINGS = {"spark.driver.memory": "12g", "spark.sql.shuffle.partitions": "16"}


def _fresh(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def bench_ingest(spark: Any, dump: Path, work: Path) -> dict[str, Any]:
    """Local ingest (2 workers) and Spark ingest of ``dump``; Spark's time by step."""
    started = time.monotonic()
    local = ingest_wikidata(IngestRequest(path=dump, store=_fresh(work / "ingest-local")))
    local_seconds = time.monotonic() - started
    started = time.monotonic()
    lines = spark.read.text(str(dump)).count()
    read_seconds = time.monotonic() - started
    started = time.monotonic()
    remote = spark_ingest(SparkIngestRequest(path=dump, store=_fresh(work / "ingest-spark")), spark)
    spark_seconds = time.monotonic() - started
    assert remote.manifest.counts == local.manifest.counts, "the two snapshots differ"
    return {
        "dump": str(dump),
        "size_bytes": dump.stat().st_size,
        "lines": lines,
        "local_seconds": round(local_seconds, 1),
        "local_timings": local.manifest.timings,
        "spark_seconds": round(spark_seconds, 1),
        "spark_timings": remote.manifest.timings,
        "spark_read_lines_only_seconds": round(read_seconds, 1),
        "spark_over_local": round(spark_seconds / local_seconds, 2),
        "counts": remote.manifest.counts,
    }


def linked_store(source: Path, target: Path) -> StoreLayout:
    """A new store whose snapshot folders are hard links of ``source``'s (no build)."""
    _fresh(target)
    subprocess.run(["cp", "-al", str(source / "snapshots"), str(target / "snapshots")], check=True)
    layout = StoreLayout.resolve(target)
    layout.ensure()
    rebuild_catalog(layout)
    return layout


def bench_dates(layout: StoreLayout) -> tuple[date, date, date]:
    """As bench/classify_bench.py: init a third into the first gap, cutoff a third into the
    last, current the last snapshot's date."""
    days = sorted(date.fromisoformat(m.date) for m in list_snapshots(layout))
    return days[0] + (days[1] - days[0]) / 3, days[-2] + (days[-1] - days[-2]) / 3, days[-1]


def bench_classify(spark: Any, store: Path, work: Path, mode: str) -> dict[str, Any]:
    """DuckDB's build and Spark's build of the same classification; Spark's time by step."""
    duck = linked_store(store, work / "classify-duckdb")
    days = bench_dates(duck)
    started = time.monotonic()
    expected = classification(duck, *days, mode)
    duck_seconds = time.monotonic() - started
    layout = linked_store(store, work / "classify-spark")
    started = time.monotonic()
    with open_catalog(layout) as connection:
        reads = check_answerable(connection, role_days(*days), mode, GapPolicy(), as_of=days[2])
    register_store_views(spark, layout, list_snapshots(layout))
    register_reads(spark, reads)
    views_seconds = time.monotonic() - started
    started = time.monotonic()
    built = spark_classification(spark, layout, days, mode)
    spark_seconds = time.monotonic() - started
    with open_catalog(duck) as connection:
        query = "SELECT count(*) FROM read_parquet(?)"
        rows = [
            connection.execute(query, [str(p.path)]).fetchall()[0][0] for p in (expected, built)
        ]
    assert rows[0] == rows[1], f"DuckDB {rows[0]} groups, Spark {rows[1]}"
    return {
        "store": str(store),
        "mode": mode,
        "dates": [day.isoformat() for day in days],
        "groups": rows[0],
        "duckdb_seconds": round(duck_seconds, 1),
        "spark_seconds": round(spark_seconds, 1),
        "spark_views_seconds": round(views_seconds, 1),
        "spark_over_duckdb": round(spark_seconds / duck_seconds, 2),
    }


def main() -> None:
    """Run the benchmarks asked for and print their figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=Path)
    parser.add_argument("--store", type=Path, default=Path("/work/perf-store"))
    parser.add_argument("--work", type=Path, default=Path("/tmp/spark-bench"))
    parser.add_argument("--mode", default="record")
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--skip-classify", action="store_true")
    args = parser.parse_args()
    started = time.monotonic()
    spark = spark_session(MASTER, SPARK_SETTINGS)
    results: dict[str, Any] = {"jvm_start_seconds": round(time.monotonic() - started, 1)}
    if not args.skip_ingest:
        results["ingest"] = bench_ingest(spark, args.dump.resolve(), args.work)
        print(json.dumps(results, indent=2), flush=True)
    if not args.skip_classify:
        results["classify"] = bench_classify(spark, args.store.resolve(), args.work, args.mode)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
