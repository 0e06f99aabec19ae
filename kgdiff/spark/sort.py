"""The finalize step as Spark tasks: one task per bucket of each table.

The plan is the local finalize's (:func:`kgdiff.store.finalize.plan_tables`: subject ranges
from sampled entity ids, each bucket reading only the part files that overlap it), and each
task runs the same :func:`kgdiff.store.finalize.write_bucket`, so the published files are
those the local ingest writes. Executors read the parts and write the tables through the
store's path: the store must be on a filesystem every node mounts (docs/spark.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kgdiff.store.buckets import Bucket
from kgdiff.store.finalize import (
    DEFAULT_MEMORY_LIMIT_MB,
    Finalized,
    merge_rejects,
    plan_tables,
    write_bucket,
)
from kgdiff.store.publish import fsync_dir
from kgdiff.store.staging import Staging

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

SortJob = tuple[str, str, Bucket]
"""A table, the Parquet file to write, and the bucket of rows that goes into it."""


def _run_job(job: SortJob) -> tuple[str, int]:
    table, target, bucket = job
    return table, write_bucket(table, bucket, Path(target))


def sort_jobs(staging: Staging, out: Path, memory_limit_mb: int) -> list[SortJob]:
    """Every bucket of every table, largest first (so the last tasks are short ones)."""
    # One sort per task: a task holds the memory of one bucket's sort.
    plans = plan_tables(staging, threads=1, memory_limit_mb=memory_limit_mb)
    jobs: list[SortJob] = []
    for table, buckets in plans.items():
        (out / table).mkdir()
        for index, bucket in enumerate(buckets):
            jobs.append((table, str(out / table / f"part-{index:05d}.parquet"), bucket))
    return sorted(jobs, key=lambda job: -job[2].size)


def spark_finalize(
    spark: SparkSession, staging: Staging, memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB
) -> Finalized:
    """Write the sorted tables into a fresh ``final`` folder; return row counts, the rejects
    file and the duplicates left out (as :func:`kgdiff.store.finalize.finalize`)."""
    out = staging.fresh_final()
    jobs = sort_jobs(staging, out, memory_limit_mb)
    context = spark.sparkContext
    context.setJobDescription("kgdiff: sort and write the tables")
    results = context.parallelize(jobs, max(1, len(jobs))).map(_run_job).collect()
    counts = {table: 0 for table, _, _ in jobs}
    for table, rows in results:
        counts[table] += rows
    for table in counts:
        fsync_dir(out / table)
    rejected = merge_rejects(staging, out)
    return Finalized(counts, rejected.file, rejected.duplicates)
