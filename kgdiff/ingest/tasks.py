"""Cut a source into tasks for the parse workers, deterministically (so a rerun can skip)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time

import msgspec

from kgdiff.errors import InputError
from kgdiff.ingest.detect import ENTITY_DOC, JSON_DUMP, XML_DUMP
from kgdiff.ingest.parse import EntityTexts
from kgdiff.ingest.sources import SourceStream
from kgdiff.readers.chunking import ChunkView, FileChunk, plan_chunks, split_chunks
from kgdiff.readers.entity_docs import EntityDocError, iter_entity_documents
from kgdiff.readers.json_dump import Chunk, DumpFraming, iter_entity_lines
from kgdiff.readers.wikidata_xml import EntityPage, XmlStats, iter_entity_pages
from kgdiff.readers.xml_stream import XmlDumpError

MAX_DOCUMENT_BYTES = 1 << 30
PageSeen = Callable[[int, EntityPage], None]
"""Told of each entity page an XML task holds, with its record number (its rows'
``source_line``): ``kgdiff refresh`` keeps each page's revision id and time."""


@dataclass
class ReaderState:
    """What the readers learn while tasks are cut, needed once every task is done."""

    framing: DumpFraming
    xml_stats: XmlStats = field(default_factory=XmlStats)


def _limited(chunks: Iterator[Chunk], limit: int) -> Iterator[Chunk]:
    """Stop after ``limit`` entity lines, cutting the last chunk after the last one kept."""
    seen = 0
    for chunk in chunks:
        for _line, offset, text in iter_entity_lines(chunk):
            seen += 1
            if seen == limit:
                end = offset - chunk.offset + len(text)
                yield Chunk(chunk.seq, chunk.offset, chunk.first_line, chunk.data[:end] + b"\n")
                return
        yield chunk


def json_tasks(
    source: SourceStream, chunk_bytes: int, limit: int | None, framing: DumpFraming
) -> Iterator[Chunk | ChunkView | FileChunk]:
    """Line-aligned chunks of a JSON dump (``framing`` learns the dump's kind and end).

    Chunks of an uncompressed file go out as positions (the workers read them);
    decompressed ones as views of the planner's buffer (to be staged at once, see
    :mod:`kgdiff.ingest.slots`), and any cut short by ``limit`` with their bytes.
    """
    if limit:
        return _limited(split_chunks(source, framing, chunk_bytes), limit)
    chunks = plan_chunks(source, framing, chunk_bytes)
    if source.method == "none":
        path = str(source.path)
        return (FileChunk(path, span) for span, _data in chunks)
    return (ChunkView(span, data) for span, data in chunks)


def _as_of(day: date) -> datetime:
    return datetime.combine(day, time(23, 59, 59))


def xml_tasks(
    source: SourceStream,
    chunk_bytes: int,
    limit: int | None,
    day: date,
    stats: XmlStats,
    seen: PageSeen | None = None,
) -> Iterator[EntityTexts]:
    """Batches of entity texts from an XML dump (the revision in force at the end of ``day``)."""
    items: list[tuple[int, int, bytes]] = []
    size = seq = 0
    pages = iter_entity_pages(source, as_of=_as_of(day), stats=stats)
    try:
        for record, page in enumerate(pages, start=1):
            if seen is not None:
                seen(record, page)
            items.append((record, page.byte_offset, page.text))
            size += len(page.text)
            if size >= chunk_bytes:
                yield EntityTexts(seq, items[0][1], items)
                items, size, seq = [], 0, seq + 1
            if limit and record >= limit:
                break
    except XmlDumpError as exc:
        raise InputError(f"{source.path}: {exc}; fetch the file again") from exc
    if items:
        yield EntityTexts(seq, items[0][1], items)


def document_tasks(source: SourceStream, limit: int | None) -> Iterator[EntityTexts]:
    """The entities of a single JSON document (EntityData, wbgetentities, one entity)."""
    data = source.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise InputError(f"{source.path}: a single JSON document over 1 GiB; use a dump instead")
    try:
        docs = list(iter_entity_documents(data))
    except EntityDocError as exc:
        raise InputError(f"{source.path}: offset 0: {exc}") from exc
    items = [(i, 0, msgspec.json.encode(doc)) for i, doc in enumerate(docs, start=1)]
    if limit:
        items = items[:limit]
    yield EntityTexts(0, 0, items)


def make_tasks(
    kind: str,
    source: SourceStream,
    chunk_bytes: int,
    limit: int | None,
    day: date,
    readers: ReaderState,
    seen: PageSeen | None = None,
) -> Iterator[Chunk | ChunkView | FileChunk | EntityTexts]:
    """The task stream for an input of the given kind (``seen``: told of each XML page)."""
    if kind == JSON_DUMP:
        return json_tasks(source, chunk_bytes, limit, readers.framing)
    if kind == XML_DUMP:
        return xml_tasks(source, chunk_bytes, limit, day, readers.xml_stats, seen)
    if kind == ENTITY_DOC:
        return document_tasks(source, limit)
    raise InputError(f"{source.path}: unsupported input kind {kind!r}")
