"""The Spark ingest's manifest and publishing: the local ingest's, with Spark's figures."""

from __future__ import annotations

import hashlib
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from kgdiff.errors import InputError
from kgdiff.ingest.bz2tail import bz2_ends_cleanly
from kgdiff.ingest.tally import Tally
from kgdiff.store.coverage import write_coverage
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import SUBSET, Manifest, SourceInfo
from kgdiff.store.publish import publish_snapshot, tool_versions, utc_now
from kgdiff.store.staging import Staging

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


@dataclass(frozen=True)
class SparkBuilt:
    """What the Spark jobs produced, for the manifest."""

    counts: dict[str, int]
    rejects_file: str | None
    timings: dict[str, float]
    row_builder: str
    chunk_bytes: int
    duplicates: int = 0


@dataclass(frozen=True)
class SnapshotPlan:
    """The snapshot being built: its name, dates, source file and coverage."""

    name: str
    day: date
    dump_day: date | None
    source: SourceInfo
    coverage: str


def check_complete(path: Path, compression: str) -> None:
    """Refuse a ``.bz2`` file cut short: Hadoop's bzip2 reader ends quietly at the last
    whole block of a truncated file, so the end-of-stream marker is checked here."""
    if compression == "bzip2" and not bz2_ends_cleanly(path):
        size = path.stat().st_size
        raise InputError(
            f"{path}: offset {size}: the bzip2 stream ends without its end-of-stream marker "
            "(truncated download or copy?); fetch the file again"
        )


def _sha256(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def hash_in_background(path: Path) -> Future[str]:
    """The file's sha256, computed by a driver thread while the Spark jobs run."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgdiff-sha256")
    future = pool.submit(_sha256, path)
    pool.shutdown(wait=False)
    return future


def publish_spark_snapshot(
    layout: StoreLayout,
    staging: Staging,
    plan: SnapshotPlan,
    built: SparkBuilt,
    tally: Tally,
    spark: SparkSession,
    sha256: str,
    started: float,
) -> tuple[Path, Manifest]:
    """Write the coverage table (subset snapshots) and the manifest, then publish by the
    local ingest's rename and catalog rebuild; the snapshot's folder and manifest."""
    counts = dict(built.counts)
    if plan.coverage == SUBSET:
        counts["covered"] = write_coverage(staging.final)
    versions = tool_versions()
    manifest = Manifest(
        name=plan.name,
        date=plan.day.isoformat(),
        kind="wikidata",
        source=msgspec.structs.replace(plan.source, sha256=sha256),
        dump_date=plan.dump_day.isoformat() if plan.dump_day else None,
        counts=counts,
        rejects=tally.rejects,
        rejects_file=built.rejects_file,
        tool_version=versions["tool_version"],
        duckdb_version=versions["duckdb_version"],
        python_version=versions["python_version"],
        created_at=utc_now(),
        elapsed_seconds=round(time.monotonic() - started, 3),
        workers=spark.sparkContext.defaultParallelism,
        chunk_bytes=built.chunk_bytes,
        timings=built.timings,
        row_builder=built.row_builder,
        staging_compression="lz4",
        coverage=plan.coverage,
        duplicates=built.duplicates,
    )
    return publish_snapshot(layout, staging.final, manifest), manifest
