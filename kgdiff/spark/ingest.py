"""``kgdiff spark ingest wikidata``: a JSON dump → a published snapshot, parsed by Spark tasks.

Spark's text source splits the file (``.bz2`` and plain ``.json`` by byte ranges, ``.gz``
as one split); each task parses its lines with the local ingest's worker function into
part folders in the store's staging area (:mod:`kgdiff.spark.partitions`); the driver puts
them in file order (:mod:`kgdiff.spark.renumber`) and checks the dump's framing; Spark
tasks sort the buckets of the local finalize's plan (:mod:`kgdiff.spark.sort`); the
snapshot is published by the local ingest's rename and catalog rebuild.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kgdiff.errors import InputError, UsageError
from kgdiff.fetch.guard import refuse_unverified
from kgdiff.ingest.coverage import resolve_coverage
from kgdiff.ingest.detect import JSON_DUMP, SNIFF_BYTES, detect_format, resolve_date
from kgdiff.ingest.nothing_read import NoEntityError, refuse_without_entities
from kgdiff.ingest.pipeline import IngestResult, source_info
from kgdiff.ingest.sources import open_source
from kgdiff.ingest.tally import Tally
from kgdiff.readers.input_file import check_input_file
from kgdiff.readers.json_dump import DEFAULT_CHUNK_BYTES, DumpFraming
from kgdiff.readers.wikidata_xml import XmlStats
from kgdiff.spark.partitions import (
    RECORD_DDL,
    PartRecord,
    TaskRecord,
    decode_records,
    split_parser,
)
from kgdiff.spark.publish import (
    SnapshotPlan,
    SparkBuilt,
    check_complete,
    hash_in_background,
    publish_spark_snapshot,
)
from kgdiff.spark.renumber import renumber_parts
from kgdiff.spark.session import spark_session
from kgdiff.spark.sort import spark_finalize
from kgdiff.store.layout import StoreLayout, check_snapshot_name
from kgdiff.store.publish import already_published
from kgdiff.store.staging import Staging, StagingState

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

SPARK_CODECS = {"none", "gzip", "bzip2"}
"""Compressions Spark's text source reads without native Hadoop libraries."""
STAGING_CODEC = "lz4"
LOCATE_MAX_BYTES = 4 << 30
"""Largest input decompressed again by the driver to find where a failed read broke."""


@dataclass(frozen=True)
class SparkIngestRequest:
    """Everything ``kgdiff spark ingest wikidata`` was asked to do."""

    path: Path
    snapshot: str | None = None
    date: str | None = None
    store: str | Path | None = None
    master: str | None = None
    coverage: str | None = None
    chunk_bytes: int = DEFAULT_CHUNK_BYTES
    max_rejects: int | None = None
    split_bytes: int | None = None
    """Largest split of the input a task reads (Spark's ``maxPartitionBytes``); None:
    Spark's default (128 MiB, or less to give every core a split)."""


def _parse(spark: SparkSession, request: SparkIngestRequest, spool: Path) -> list[TaskRecord]:
    """Run the parse job; every split's part folders land in ``spool``."""
    from pyspark.sql import functions

    setting = "spark.sql.files.maxPartitionBytes"
    before = spark.conf.get(setting)
    if request.split_bytes:
        spark.conf.set(setting, str(request.split_bytes))
    spool.mkdir(parents=True, exist_ok=True)
    lines = spark.read.text(str(request.path)).select(
        functions.col("value"), functions.input_file_block_start().alias("block")
    )
    parse = split_parser(str(spool), str(request.path), request.chunk_bytes, STAGING_CODEC)
    spark.sparkContext.setJobDescription(f"kgdiff: parse {request.path.name}")
    records = lines.mapInArrow(parse, RECORD_DDL)
    try:
        rows = records.collect()
    except Exception as exc:  # a Py4J or Spark error: the reason is in its text
        _locate_damage(request.path)
        raise InputError(f"{request.path}: {_reason(exc)}; fetch the file again") from exc
    finally:
        if before is None:
            spark.conf.unset(setting)
        else:
            spark.conf.set(setting, before)
    return decode_records([row["record"] for row in rows])


def _locate_damage(path: Path) -> None:
    """Raise the local reader's error, which names the offset, if it finds the file damaged.

    Hadoop's decompressors do not say where a stream broke; decompressing the file once
    more here does, for files small enough to read again in minutes."""
    if path.stat().st_size > LOCATE_MAX_BYTES:
        return
    with open_source(path, threads=1, whole_hash=False) as source:
        while source.read(1 << 24):
            pass


def _reason(exc: Exception) -> str:
    """The innermost cause of a failed Spark job, in one line."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    causes = [line for line in lines if line.startswith("Caused by:")]
    chosen = causes[-1] if causes else (lines[0] if lines else type(exc).__name__)
    return f"the Spark job failed reading it: {chosen[:500]}"


def _framing(path: Path, tally: Tally, size: int) -> DumpFraming:
    """The checks of the local ingest: one '[' first and one ']' last, nothing after."""
    framing = DumpFraming(str(path))
    with open_source(path, threads=1, whole_hash=False) as source:
        framing.see_start(source.read(SNIFF_BYTES))
    framing.end_offset = size
    framing.check(tally.layouts, complete=True)
    return framing


def _check_input(path: Path) -> str:
    """The compression of a JSON dump Spark can read; raise for anything else."""
    kind, compression = detect_format(path)
    if kind != JSON_DUMP:
        raise UsageError(
            f"{path}: a {kind}; the Spark ingest reads Wikidata JSON dumps only "
            "(use 'kgdiff ingest wikidata' for XML dumps and entity files)"
        )
    if compression not in SPARK_CODECS:
        raise UsageError(
            f"{path}: {compression} compression; Spark reads .json, .json.gz and .json.bz2 "
            "(recompress, or use 'kgdiff ingest wikidata')"
        )
    check_complete(path, compression)
    return compression


def _build(
    spark: SparkSession, request: SparkIngestRequest, staging: Staging
) -> tuple[SparkBuilt, Tally]:
    started = time.monotonic()
    spool = staging.dir / "spark-spool"
    shutil.rmtree(spool, ignore_errors=True)
    shutil.rmtree(staging.parts, ignore_errors=True)  # no resume: the splits are Spark's
    staging.parts.mkdir()
    records = _parse(spark, request, spool)
    parsed = time.monotonic()
    metas, size = renumber_parts(spool, staging, records, str(request.path))
    tally = Tally(metas, request.max_rejects, staging.dir)
    framing = _framing(request.path, tally, size)
    refuse_without_entities(
        request.path, JSON_DUMP, tally, staging.reject_files(), framing.kind, XmlStats(), ""
    )
    renumbered = time.monotonic()
    finalized = spark_finalize(spark, staging)
    builders = {r.builder for r in records if isinstance(r, PartRecord)}
    timings = {
        "parse_seconds": round(parsed - started, 3),
        "renumber_seconds": round(renumbered - parsed, 3),
        "finalize_seconds": round(time.monotonic() - renumbered, 3),
    }
    builder = builders.pop() if len(builders) == 1 else "mixed"
    built = SparkBuilt(
        finalized.counts, finalized.rejects_file, timings, builder, request.chunk_bytes,
        finalized.duplicates,
    )  # fmt: skip
    return built, tally


def spark_ingest(request: SparkIngestRequest, spark: SparkSession | None = None) -> IngestResult:
    """Ingest one Wikidata JSON dump on Spark into a published snapshot (module docstring)."""
    started = time.monotonic()
    layout = StoreLayout.resolve(request.store)
    path = request.path.expanduser().resolve()
    check_input_file(path, "a Wikidata JSON dump (.json, .json.gz, .json.bz2)")
    refuse_unverified(path)
    day, dump_day = resolve_date(path, request.date)
    name = check_snapshot_name(request.snapshot or f"wikidata-{day:%Y%m%d}")
    compression = _check_input(path)
    source = source_info(path, JSON_DUMP, compression, None)
    coverage = resolve_coverage(request.coverage, JSON_DUMP, None)
    layout.ensure()
    existing = already_published(layout, name, source, coverage=coverage)
    if existing is not None:
        return IngestResult(existing, layout.snapshot_dir(name), "unchanged")
    request = replace(request, path=path)
    plan = SnapshotPlan(name, day, dump_day, source, coverage)
    staging = Staging(layout.staging(name), StagingState(source, request.chunk_bytes))
    staging.open()
    sha256 = hash_in_background(path)
    try:
        session_started = time.monotonic()
        spark = spark or spark_session(request.master)
        session_seconds = time.monotonic() - session_started
        built, tally = _build(spark, request, staging)
        built.timings["session_seconds"] = round(session_seconds, 3)
        directory, manifest = publish_spark_snapshot(
            layout, staging, plan, built, tally, spark, sha256.result(), started
        )
    except NoEntityError as exc:  # nothing to resume; the rejects, if any, are kept
        staging.close(remove=not exc.malformed)
        raise
    except BaseException:
        staging.close(remove=False)
        raise
    staging.close(remove=True)
    return IngestResult(manifest, directory, "ingested")
