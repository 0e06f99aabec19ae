"""``kgdiff ingest wikidata``: a dump file → an immutable, published snapshot.

The main process decompresses and cuts the input into tasks (see
:mod:`kgdiff.ingest.dispatch` for how they reach the workers); worker processes
parse them and write part files into the staging folder; finalize sorts the parts
into the published tables; the snapshot folder appears by one atomic rename.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, replace
from datetime import date
from pathlib import Path

import msgspec

from kgdiff.errors import InputError, UsageError
from kgdiff.fetch.guard import refuse_unverified
from kgdiff.ingest.coverage import resolve_coverage
from kgdiff.ingest.detect import JSON_DUMP, XML_DUMP, detect_format, resolve_date
from kgdiff.ingest.dispatch import TaskRunner, worker_pool
from kgdiff.ingest.nothing_read import NoEntityError, refuse_without_entities
from kgdiff.ingest.progress import NullProgress, Progress
from kgdiff.ingest.sources import open_source
from kgdiff.ingest.staging_choice import AUTO, STAGING_CHOICES, auto_staging_codec, room_at
from kgdiff.ingest.tally import Tally
from kgdiff.ingest.tasks import ReaderState, make_tasks
from kgdiff.ingest.worker import Task
from kgdiff.readers.input_file import check_input_file
from kgdiff.readers.json_dump import DEFAULT_CHUNK_BYTES, DumpFraming
from kgdiff.readers.wikidata_xml import XmlStats
from kgdiff.rows.native import native_enabled
from kgdiff.store.coverage import write_coverage
from kgdiff.store.finalize import Finalized, finalize
from kgdiff.store.layout import StoreLayout, check_snapshot_name
from kgdiff.store.manifest import SUBSET, Manifest, SourceInfo
from kgdiff.store.publish import already_published, publish_snapshot, tool_versions, utc_now
from kgdiff.store.staging import PartMeta, Staging, StagingState

WIKIDATA_INPUT = "a Wikidata dump (.json, .json.gz, .json.bz2, .xml.bz2, ...) or entity file"
"""What ``kgdiff ingest wikidata`` reads, for the error when it is given a folder."""


@dataclass(frozen=True)
class IngestRequest:
    """Everything ``kgdiff ingest wikidata`` was asked to do."""

    path: Path
    snapshot: str | None = None
    date: str | None = None
    store: str | Path | None = None
    workers: int = 2
    limit: int | None = None
    max_rejects: int | None = None
    chunk_bytes: int = DEFAULT_CHUNK_BYTES
    bucket_bytes: int | None = None
    """Bytes of rows per finalize bucket; None: what the 1 GB sort budget holds."""
    staging_compression: str = AUTO
    """Compression of the staging parts: ``auto`` (``none`` if they fit in memory, else
    ``lz4``), ``none``, ``lz4`` or ``zstd`` (less disk); see :mod:`kgdiff.ingest.staging_choice`."""
    coverage: str | None = None
    """``full`` or ``subset`` (:mod:`kgdiff.store.coverage`); None: inferred from the input."""
    known_absent: tuple[str, ...] = ()
    """Ids a subset snapshot knows did not exist on its date (``ingest api``): covered too."""


@dataclass(frozen=True)
class IngestResult:
    """The published snapshot, and whether this run built it or found it already there."""

    manifest: Manifest
    directory: Path
    status: str


def source_info(path: Path, kind: str, compression: str, limit: int | None) -> SourceInfo:
    """The identity of an input file as a manifest records it (its sha256 comes later)."""
    stat = path.stat()
    return SourceInfo(
        path=str(path),
        size=stat.st_size,
        mtime_ns=stat.st_mtime_ns,
        compression=compression,
        format=kind,
        limit=limit,
    )


@dataclass(frozen=True)
class _Job:
    """One ingest run: what to read, where it goes, and what is already done."""

    staging: Staging
    request: IngestRequest
    kind: str
    day: date
    progress: Progress
    done: dict[int, PartMeta]
    coverage: str


def _parse_into(job: _Job) -> tuple[Tally, str, XmlStats]:
    """Run the workers over every unfinished task; return totals, the sha256 and XML counts."""
    staging, request, kind, progress, done = (
        job.staging,
        job.request,
        job.kind,
        job.progress,
        job.done,
    )
    tally = Tally(done, request.max_rejects, staging.dir)
    readers = ReaderState(DumpFraming(str(request.path)))
    with (
        open_source(request.path, threads=max(1, request.workers)) as source,
        worker_pool(request.workers) as pool,
    ):
        progress.begin(f"parsing {request.path.name}", source.size)
        payloads = make_tasks(kind, source, request.chunk_bytes, request.limit, job.day, readers)
        tasks = (
            Task(p, staging.parts, str(request.path), request.staging_compression)
            for p in payloads
            if p.seq not in done
        )
        runner = TaskRunner(pool, request.workers + 2, staging.dir / "slots")
        runner.run(tasks, tally, progress, lambda: source.raw.position)
    sha256 = source.sha256
    assert sha256 is not None  # set by open_source on a clean exit
    _check_unchanged(request.path, staging.state.source)
    if kind == JSON_DUMP:
        readers.framing.check(tally.layouts, complete=not request.limit)
    refuse_without_entities(
        request.path, kind, tally, staging.reject_files(), readers.framing.kind,
        readers.xml_stats, job.day.isoformat(),
    )  # fmt: skip
    return tally, sha256, readers.xml_stats


def _check_unchanged(path: Path, source: SourceInfo) -> None:
    """Refuse a file that changed while it was read (workers read plain files themselves)."""
    now = source_info(path, source.format, source.compression, source.limit)
    if not now.same_file(source):
        raise InputError(
            f"{path}: the file changed while it was ingested (size or modification time); "
            "run the ingest again once it is complete"
        )


def _input_stats(kind: str, stats: XmlStats) -> dict[str, int]:
    if kind != XML_DUMP:
        return {}
    return {f"xml_{name}": value for name, value in asdict(stats).items()}


@dataclass(frozen=True)
class _Built:
    """What the parse and finalize steps produced, for the manifest."""

    tally: Tally
    sha256: str
    finalized: Finalized
    input_stats: dict[str, int]
    timings: dict[str, float]


def _build(job: _Job) -> _Built:
    started = time.monotonic()
    tally, sha256, xml_stats = _parse_into(job)
    parsed = time.monotonic()
    job.progress.phase("sorting and writing tables")
    finalized = finalize(
        job.staging,
        threads=max(1, job.request.workers),
        bucket_bytes=job.request.bucket_bytes,
        progress=job.progress.advance,
    )
    counts = finalized.counts
    if job.coverage == SUBSET:
        counts["covered"] = write_coverage(job.staging.final, job.request.known_absent)
    timings = {
        "parse_seconds": round(parsed - started, 3),
        "finalize_seconds": round(time.monotonic() - parsed, 3),
    }
    stats = _input_stats(job.kind, xml_stats)
    return _Built(tally, sha256, finalized, stats, timings)


def _manifest(
    name: str,
    job: _Job,
    dump_day: date | None,
    source: SourceInfo,
    built: _Built,
    started: float,
) -> Manifest:
    request, day = job.request, job.day
    return Manifest(
        name=name,
        date=day.isoformat(),
        kind="wikidata",
        source=msgspec.structs.replace(source, sha256=built.sha256),
        dump_date=dump_day.isoformat() if dump_day else None,
        counts=built.finalized.counts,
        rejects=built.tally.rejects,
        rejects_file=built.finalized.rejects_file,
        **tool_versions(),
        created_at=utc_now(),
        elapsed_seconds=round(time.monotonic() - started, 3),
        workers=request.workers,
        chunk_bytes=request.chunk_bytes,
        input_stats=built.input_stats,
        timings=built.timings,
        row_builder=("native" if native_enabled() else "python")
        if source.format in (JSON_DUMP, XML_DUMP)
        else None,
        staging_compression=request.staging_compression,
        coverage=job.coverage,
        duplicates=built.finalized.duplicates,
    )


def ingest_wikidata(request: IngestRequest, progress: Progress | None = None) -> IngestResult:
    """Ingest one Wikidata input file into a published snapshot (see module docstring)."""
    progress = progress or NullProgress()
    started = time.monotonic()
    if request.staging_compression not in STAGING_CHOICES:
        raise UsageError(
            f"unknown staging compression {request.staging_compression!r}; "
            f"use one of {', '.join(STAGING_CHOICES)}"
        )
    layout = StoreLayout.resolve(request.store)
    request = replace(request, path=request.path.expanduser().resolve())
    check_input_file(request.path, WIKIDATA_INPUT)
    refuse_unverified(request.path)
    day, dump_day = resolve_date(request.path, request.date)
    name = check_snapshot_name(request.snapshot or f"wikidata-{day:%Y%m%d}")
    kind, compression = detect_format(request.path)
    source = source_info(request.path, kind, compression, request.limit)
    coverage = resolve_coverage(request.coverage, kind, request.limit)
    layout.ensure()
    existing = already_published(layout, name, source, coverage=coverage)
    if existing is not None:
        return IngestResult(existing, layout.snapshot_dir(name), "unchanged")
    if request.staging_compression == AUTO:
        codec = auto_staging_codec(source.size, compression, room_at(layout.root))
        request = replace(request, staging_compression=codec)
    staging = Staging(layout.staging(name), StagingState(source, request.chunk_bytes))
    done = staging.open()
    try:
        job = _Job(staging, request, kind, day, progress, done, coverage)
        built = _build(job)
        manifest = _manifest(name, job, dump_day, source, built, started)
        directory = publish_snapshot(layout, staging.final, manifest)
    except NoEntityError as exc:  # nothing to resume; the rejects, if any, are kept
        staging.close(remove=not exc.malformed)
        raise
    except BaseException:
        staging.close(remove=False)
        raise
    finally:
        progress.end()
    staging.close(remove=True)
    return IngestResult(manifest, directory, "ingested")
