"""Parse each change file with the ingest's own readers, workers and row builders.

Each input gets its own staging folder, ``.staging/NAME/inputs/NNN`` (an ingest's staging:
finished chunks survive an interruption and are skipped by the next run). An XML dump gives,
per entity page, the revision in force at the end of the refresh's date, as an ingest
reads it; its revision id and time are kept beside the rows (``revisions.parquet``), so that
the latest revision across every input can be chosen (:mod:`kgdiff.refresh.select`). A JSON
dump or entity file carries ``lastrevid`` and ``modified`` in its rows. ``done.json`` marks
an input read whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.errors import InputError
from kgdiff.ingest.detect import JSON_DUMP, XML_DUMP, detect_format
from kgdiff.ingest.dispatch import TaskRunner
from kgdiff.ingest.progress import Progress
from kgdiff.ingest.sources import open_source
from kgdiff.ingest.staging_choice import auto_staging_codec, room_at
from kgdiff.ingest.tally import Tally
from kgdiff.ingest.tasks import ReaderState, make_tasks
from kgdiff.ingest.worker import Payload, Task
from kgdiff.ingest.xml_chunk_parse import (
    XmlPages,
    joined_stats,
    read_xml_pages,
    xml_chunk_tasks,
)
from kgdiff.readers.json_dump import DumpFraming
from kgdiff.readers.wikidata_xml import EntityPage
from kgdiff.readers.xml_texts import HEAD_BYTES, utf8_document
from kgdiff.store.manifest import SourceInfo
from kgdiff.store.staging import PartMeta, Staging, StagingState

DONE_FILE = "done.json"
REVISIONS_FILE = "revisions.parquet"
REVISIONS_SCHEMA = pa.schema(
    [("record", pa.int64()), ("revision_id", pa.int64()), ("timestamp", pa.string())]
)


class InputDone(msgspec.Struct, frozen=True):
    """One change file read whole: its identity (with its SHA-256), kind and counts."""

    source: SourceInfo
    entities: int
    rejects: int
    stats: dict[str, int] = {}


@dataclass(frozen=True)
class ParsedInput:
    """A change file parsed into its staging folder."""

    index: int
    folder: Path
    done: InputDone

    @property
    def staging(self) -> Staging:
        """The input's staging folder (to read its parts; not locked)."""
        return Staging(self.folder, StagingState(self.done.source, 0))

    @property
    def revisions(self) -> Path | None:
        """The revision ids and times of an XML input's pages, by record, when the main
        process read it (else each part folder records its own: :func:`chunk_pages`)."""
        path = self.folder / REVISIONS_FILE
        return path if path.is_file() else None


@dataclass(frozen=True)
class ParseSettings:
    """How every input is parsed."""

    day: date
    chunk_bytes: int
    workers: int
    max_rejects: int | None
    store_root: Path


class _Revisions:
    """The revision of each XML page handed to the workers, by record number."""

    def __init__(self) -> None:
        self.records: list[int] = []
        self.ids: list[int] = []
        self.times: list[str] = []

    def add(self, record: int, page: EntityPage) -> None:
        self.records.append(record)
        self.ids.append(page.revision_id)
        self.times.append(page.timestamp)

    def write(self, path: Path) -> None:
        table = pa.table([self.records, self.ids, self.times], schema=REVISIONS_SCHEMA)
        pq.write_table(table, path)


def _source_info(path: Path, kind: str, compression: str) -> SourceInfo:
    stat = path.stat()
    return SourceInfo(str(path), stat.st_size, stat.st_mtime_ns, None, compression, kind)


def _finished(folder: Path, source: SourceInfo) -> InputDone | None:
    """The record of an input read whole by an earlier run, if the file is still the same."""
    try:
        done = msgspec.json.decode((folder / DONE_FILE).read_bytes(), type=InputDone)
    except (OSError, msgspec.DecodeError):
        return None
    return done if done.source.same_file(source) else None


def parse_input(
    index: int,
    path: Path,
    folder: Path,
    settings: ParseSettings,
    pool: ProcessPoolExecutor,
    progress: Progress,
    rejects_before: int,
) -> ParsedInput:
    """Parse the change file ``path`` into ``folder`` (resuming an interrupted run)."""
    kind, compression = detect_format(path)
    source = _source_info(path, kind, compression)
    done = _finished(folder, source)
    if done is not None:
        return ParsedInput(index, folder, done)
    staging = Staging(folder, StagingState(source, settings.chunk_bytes))
    finished = staging.open()
    try:
        done = _parse(staging, path, kind, settings, pool, progress, rejects_before, finished)
        (folder / DONE_FILE).write_bytes(msgspec.json.encode(done))
    finally:
        staging.close(remove=False)
    return ParsedInput(index, folder, done)


def _parse(
    staging: Staging,
    path: Path,
    kind: str,
    settings: ParseSettings,
    pool: ProcessPoolExecutor,
    progress: Progress,
    rejects_before: int,
    finished: dict[int, PartMeta],
) -> InputDone:
    source = staging.state.source
    limit = None if settings.max_rejects is None else max(0, settings.max_rejects - rejects_before)
    tally = Tally(finished, limit, staging.dir)
    codec = auto_staging_codec(source.size, source.compression, room_at(settings.store_root))
    readers = ReaderState(DumpFraming(str(path)))
    chunked = _in_chunks(path, kind)
    revisions = _Revisions() if kind == XML_DUMP and not chunked else None
    seen: Callable[[int, EntityPage], None] | None = revisions.add if revisions else None
    with open_source(path, threads=max(1, settings.workers)) as stream:
        progress.begin(f"parsing {path.name}", stream.size)
        payloads: Iterator[Payload] = (
            xml_chunk_tasks(stream, settings.chunk_bytes, settings.day)
            if chunked
            else make_tasks(kind, stream, settings.chunk_bytes, None, settings.day, readers, seen)
        )
        tasks = (
            Task(payload, staging.parts, str(path), codec)
            for payload in payloads
            if payload.seq not in finished
        )
        runner = TaskRunner(pool, settings.workers + 2, staging.dir / "slots")
        runner.run(tasks, tally, progress, lambda: stream.raw.position)
    _check_unchanged(path, source)
    if kind == JSON_DUMP:
        readers.framing.check(tally.layouts, complete=True)
    if revisions is not None:
        revisions.write(staging.dir / REVISIONS_FILE)
    if chunked:
        readers.xml_stats = joined_stats(pages for pages, _ in chunk_pages(staging))
    stats = asdict(readers.xml_stats) if kind == XML_DUMP else {}
    hashed = msgspec.structs.replace(source, sha256=stream.sha256)
    return InputDone(
        hashed, tally.entities, tally.rejects, {f"xml_{k}": v for k, v in stats.items()}
    )


def _in_chunks(path: Path, kind: str) -> bool:
    """Whether the workers read the input's XML themselves, in chunks: an XML dump in UTF-8
    (:mod:`kgdiff.ingest.xml_chunk_parse`); else the main process reads it."""
    if kind != XML_DUMP:
        return False
    with open_source(path, threads=1, whole_hash=False) as peek:
        return utf8_document(peek.read(HEAD_BYTES))


def chunk_pages(staging: Staging) -> Iterator[tuple[XmlPages, Path]]:
    """What each part folder of an XML input read in chunks records of its pages, with the
    folder, in chunk order."""
    for _, folder in staging.part_folders():
        pages = read_xml_pages(folder)
        if pages is not None:
            yield pages, folder


def _check_unchanged(path: Path, source: SourceInfo) -> None:
    """Refuse a file that changed while it was read."""
    stat = path.stat()
    if (stat.st_size, stat.st_mtime_ns) != (source.size, source.mtime_ns):
        raise InputError(
            f"{path}: the file changed while it was read (size or modification time); "
            "run the refresh again once it is complete"
        )
