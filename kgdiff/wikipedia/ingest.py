"""``kgdiff ingest wikipedia``: a MediaWiki XML dump → an immutable Wikipedia snapshot.

One pass over the (decompressed) dump writes every revision's metadata and lead to
``revisions`` and, per page, the revision in force at the end of the snapshot's date
(with its whole plain text) to ``pages``, both in the dump's order; the snapshot folder
appears by one atomic rename, as for Wikidata snapshots.
"""

from __future__ import annotations

import re
import shutil
import time
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime
from datetime import time as day_time
from pathlib import Path

import msgspec

from kgdiff.errors import InputError, StoreError
from kgdiff.fetch.guard import refuse_unverified
from kgdiff.ingest.detect import resolve_date
from kgdiff.ingest.progress import NullProgress, Progress
from kgdiff.ingest.sources import open_source
from kgdiff.readers.input_file import check_input_file
from kgdiff.readers.mediawiki_xml import MediaWikiStats, iter_revisions
from kgdiff.readers.xml_stream import XmlDumpError
from kgdiff.store.layout import StoreLayout, check_snapshot_name
from kgdiff.store.manifest import Manifest, SourceInfo
from kgdiff.store.publish import already_published, publish_snapshot, tool_versions, utc_now
from kgdiff.store.staging import lock_path, lock_staging
from kgdiff.wikipedia.rows import LeadMemo, RowBuffer
from kgdiff.wikipedia.select import SelectionStats, pages_in_force
from kgdiff.wikipedia.sites import resolve_wiki
from kgdiff.wikipedia.writer import REVISION_BATCH, TableWriter

SNIFF_BYTES = 64 * 1024
_HEADER_FIELD = re.compile(r"<(dbname|base)>\s*([^<\s]+)\s*</\1>")


@dataclass(frozen=True)
class WikipediaRequest:
    """What ``kgdiff ingest wikipedia`` was asked to do."""

    path: Path
    snapshot: str | None = None
    date: str | None = None
    wiki: str | None = None
    store: str | Path | None = None


@dataclass(frozen=True)
class WikipediaResult:
    """The published (or already present) snapshot."""

    manifest: Manifest
    directory: Path
    status: str  # "ingested" or "unchanged"


def sniff_site(path: Path) -> tuple[str | None, str | None]:
    """``(dbname, base)`` from the header of a dump (any compression, UTF-8 or UTF-16)."""
    with open_source(path, threads=1, whole_hash=False) as source:
        head = source.read(SNIFF_BYTES)
    encoding = "utf-16" if head[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8"
    text = head[: len(head) & ~1].decode(encoding, errors="ignore")
    found = {match[1]: match[2] for match in _HEADER_FIELD.finditer(text[:20000])}
    return found.get("dbname"), found.get("base")


def ingest_wikipedia(
    request: WikipediaRequest, progress: Progress | None = None
) -> WikipediaResult:
    """Ingest one MediaWiki XML dump into a published Wikipedia snapshot."""
    progress = progress or NullProgress()
    started = time.monotonic()
    layout = StoreLayout.resolve(request.store)
    request = replace(request, path=request.path.expanduser().resolve())
    check_input_file(request.path, "a MediaWiki XML dump (.xml, .xml.bz2, .xml.gz, ...)")
    refuse_unverified(request.path)
    day, dump_day = resolve_date(request.path, request.date)
    wiki = resolve_wiki(request.wiki, *sniff_site(request.path), str(request.path))
    name = check_snapshot_name(request.snapshot or f"{wiki}-{day:%Y%m%d}")
    if layout.snapshot_dir(name).exists():
        raise StoreError(f"{name!r} already names a Wikidata snapshot; choose another --snapshot")
    stat = request.path.stat()
    source = SourceInfo(str(request.path), stat.st_size, stat.st_mtime_ns, format="mediawiki-xml")
    layout.ensure()
    target = layout.wikipedia_snapshot_dir(name)
    existing = already_published(layout, name, source, target)
    if existing is not None:
        return WikipediaResult(existing, target, "unchanged")
    staging = layout.staging(name)
    lock = lock_staging(staging)  # held while it runs: kgdiff store check leaves it alone
    try:
        shutil.rmtree(staging, ignore_errors=True)  # a killed earlier run: nothing is reused
        staging.mkdir(parents=True)
        job = _Job(request, name, day, dump_day, wiki, source, staging, started)
        manifest = _build(job, progress)
        directory = publish_snapshot(layout, staging / "final", manifest, target)
    finally:
        progress.end()
        shutil.rmtree(staging, ignore_errors=True)
        lock_path(staging).unlink(missing_ok=True)
        lock.close()
    return WikipediaResult(manifest, directory, "ingested")


@dataclass
class _Read:
    sha256: str
    compression: str
    reader: MediaWikiStats
    selection: SelectionStats
    counts: dict[str, int]


def _read_dump(path: Path, wiki: str, until: datetime, out: Path, progress: Progress) -> _Read:
    """Write ``out/pages.parquet`` and ``out/revisions.parquet`` in the dump's order (page by
    page, revisions in order: what lookups by page want; sorting whole page texts would cost
    memory and time for nothing)."""
    out.mkdir()
    reader, selection = MediaWikiStats(), SelectionStats()
    leads = LeadMemo()
    pages = RowBuffer(wiki, with_text=True, leads=leads)
    revisions = RowBuffer(wiki, with_text=False, leads=leads)
    with (
        open_source(path) as source,
        TableWriter(out / "pages.parquet", pages) as page_writer,
        TableWriter(out / "revisions.parquet", revisions, REVISION_BATCH) as revision_writer,
    ):
        progress.begin(f"reading {path.name}", source.size)
        stream = iter_revisions(source, reader)
        try:
            for page in pages_in_force(stream, until, selection, revision_writer.add):
                page_writer.add(page)
                if selection.pages % 256 == 0:
                    progress.update(source.raw.position, selection.pages, selection.revisions)
        except XmlDumpError as exc:
            raise InputError(f"{path}: {exc}; the dump is damaged, fetch it again") from exc
        progress.update(source.raw.position, selection.pages, selection.revisions)
        compression = source.method
    assert source.sha256 is not None
    counts = {"pages": page_writer.rows, "revisions": revision_writer.rows}
    return _Read(source.sha256, compression, reader, selection, counts)


@dataclass(frozen=True)
class _Job:
    request: WikipediaRequest
    name: str
    day: date
    dump_day: date | None
    wiki: str
    source: SourceInfo
    staging: Path
    started: float


def _build(job: _Job, progress: Progress) -> Manifest:
    until = datetime.combine(job.day, day_time(23, 59, 59))
    read = _read_dump(job.request.path, job.wiki, until, job.staging / "final", progress)
    _refuse_without_revisions(job.request.path, read.reader)
    parsed = time.monotonic()
    stats = {**asdict(read.selection), **_reader_counts(read.reader)}
    source = msgspec.structs.replace(job.source, sha256=read.sha256, compression=read.compression)
    return Manifest(
        name=job.name,
        date=job.day.isoformat(),
        kind="wikipedia",
        source=source,
        dump_date=job.dump_day.isoformat() if job.dump_day else None,
        counts=read.counts,
        rejects=0,
        rejects_file=None,
        **tool_versions(),
        created_at=utc_now(),
        elapsed_seconds=round(time.monotonic() - job.started, 3),
        workers=1,
        chunk_bytes=0,
        input_stats=stats,
        timings={"parse_seconds": round(parsed - job.started, 3)},
        wiki=job.wiki,
    )


def _refuse_without_revisions(path: Path, stats: MediaWikiStats) -> None:
    """A dump without a single revision makes an empty snapshot: refused, saying so."""
    if stats.revisions:
        return
    seen = f"{stats.pages:,} pages without a revision" if stats.pages else "no page"
    raise InputError(f"{path} holds no page revision ({seen}); nothing was published")


def _reader_counts(stats: MediaWikiStats) -> dict[str, int]:
    return {
        "deleted_users": stats.deleted_users,
        "deleted_comments": stats.deleted_comments,
        "deleted_texts": stats.deleted_texts,
    }
