"""Chunks of a MediaWiki XML dump parsed by the workers, and what their part folders record.

The main process only cuts the decompressed dump into chunks at page boundaries
(:func:`kgdiff.readers.xml_chunks.plan_xml_chunks`, a ``find`` per chunk); each worker makes
a document of its chunk, reads its pages with the dump reader (the revision in force at the
end of the day, as a serial read chooses it), builds the rows of their entities and writes,
beside them, :class:`XmlPages`: the revision id and time of each entity page kept, and the
reader's counts. A page's number (its rows' ``source_line``) is its place among the dump's
pages, counted by the main process, so it does not depend on which worker read it.

A page cut into several chunks (longer than one) is read in parts; each part with a visible
revision at or before the date gives its entity (the refresh keeps the latest), and the
parts' fates are joined into the page's (:func:`joined_stats`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from datetime import date, datetime, time
from pathlib import Path

import msgspec

from kgdiff.errors import InputError
from kgdiff.ingest.parse import ChunkResult, EntityTexts, parse_entity_texts
from kgdiff.ingest.sources import SourceStream
from kgdiff.readers.chunking import ChunkSpan, ChunkView, FileChunk
from kgdiff.readers.wikidata_xml import (
    PAGE_FATES,
    XmlStats,
    decode_entity_text,
    iter_entity_pages,
)
from kgdiff.readers.xml_chunks import XmlFrame, XmlSpan, plan_xml_chunks
from kgdiff.readers.xml_stream import XmlDumpError

XML_PAGES_FILE = "xml_pages.json"


@dataclass(frozen=True, slots=True)
class XmlChunk:
    """A task: one chunk of an XML dump, where its bytes are, and what frames them."""

    where: FileChunk | ChunkView
    """The dump itself (uncompressed) or, once staged, a slot file; a :class:`ChunkView`
    until then (see :mod:`kgdiff.ingest.slots`)."""
    span: XmlSpan
    frame: XmlFrame
    as_of: datetime
    source: str

    @property
    def seq(self) -> int:
        """The chunk's sequence number."""
        return self.span.seq


class XmlPages(msgspec.Struct, frozen=True):
    """What a part folder records of its XML chunk besides the rows."""

    revisions: list[tuple[int, int, str]]
    """``(page number, revision id, time)`` of each entity page's kept revision."""
    stats: dict[str, int]
    """The reader's counts (:class:`XmlStats`), leaving out the pages the chunk has a part
    of only (their fates are below)."""
    first_fate: str | None = None
    """The fate of the part of the page the chunk continues, if it continues one."""
    last_fate: str | None = None
    """The fate of the part of the page that goes on in the next chunk, if one does."""
    one_page: bool = False
    """The chunk holds a part of one page only (its first page is its last)."""


def xml_chunk_tasks(source: SourceStream, chunk_bytes: int, day: date) -> Iterator[XmlChunk]:
    """The chunks of an XML dump in UTF-8, each with the revision cutoff (end of ``day``)."""
    as_of = datetime.combine(day, time(23, 59, 59))
    path = str(source.path)
    for span, frame, view in plan_xml_chunks(source, chunk_bytes):
        place = ChunkSpan(span.seq, span.offset, span.pages_before, span.length)
        where = FileChunk(path, place) if source.method == "none" else ChunkView(place, view)
        yield XmlChunk(where, span, frame, as_of, path)


class _Framed:
    """The bytes of a chunk between its frame's prefix and suffix, read as one stream."""

    def __init__(self, pieces: Iterable[bytes | bytearray | memoryview]) -> None:
        self._pieces = [memoryview(piece) for piece in pieces]
        self._at = 0

    def read(self, size: int = -1) -> bytes:
        while self._pieces and len(self._pieces[0]) <= self._at:
            self._pieces.pop(0)
            self._at = 0
        if not self._pieces:
            return b""
        piece = self._pieces[0]
        end = len(piece) if size < 0 else min(len(piece), self._at + size)
        data = bytes(piece[self._at : end])
        self._at = end
        return data


def parse_xml_chunk(chunk: XmlChunk, buffer: bytearray) -> tuple[ChunkResult, XmlPages]:
    """The rows of the chunk's entity pages, and what its part folder records of them."""
    if isinstance(chunk.where, ChunkView):
        raise TypeError("a ChunkView must be staged into a slot file before it is sent")
    data = chunk.where.load(buffer).data
    span, frame = chunk.span, chunk.frame
    stats, fates = XmlStats(), list[str]()
    items: list[tuple[int, int, bytes]] = []
    revisions: list[tuple[int, int, str]] = []
    first = span.pages_before + (0 if span.continues else 1)
    framed = _Framed([frame.prefix, data, frame.suffix])
    try:
        for page in iter_entity_pages(framed, as_of=chunk.as_of, stats=stats, fates=fates):
            record = first + stats.pages - 1
            offset = span.offset + max(0, page.byte_offset - len(frame.prefix))
            items.append((record, offset, page.text))
            revisions.append((record, page.revision_id, page.timestamp))
    except XmlDumpError as exc:
        raise InputError(
            f"{chunk.source}: the XML from decompressed offset {span.offset} "
            f"({span.length:,} bytes): {exc}; the file is damaged, fetch it again"
        ) from exc
    result = parse_entity_texts(EntityTexts(span.seq, span.offset, items), decode_entity_text)
    return result, chunk_fates(span, stats, fates, revisions)


def chunk_fates(
    span: XmlSpan, stats: XmlStats, fates: list[str], revisions: list[tuple[int, int, str]]
) -> XmlPages:
    """Take the pages the chunk holds a part of only out of ``stats``; keep their fates."""
    first = fates[0] if span.continues and fates else None
    last = fates[-1] if span.ends_inside and fates else None
    one_page = len(fates) == 1
    for fate in [first, None if one_page and first is not None else last]:
        if fate is not None:
            stats.pages -= 1
            setattr(stats, fate, getattr(stats, fate) - 1)
    return XmlPages(revisions, asdict(stats), first, last, one_page)


def _earlier(fate: str | None, other: str) -> str:
    """Of two parts' fates, the page's (:data:`PAGE_FATES` precedence)."""
    if fate is None:
        return other
    return min(fate, other, key=PAGE_FATES.index)


def joined_stats(parts: Iterable[XmlPages]) -> XmlStats:
    """The reader's counts of a whole dump from its chunks' (given in order)."""
    stats = XmlStats()
    counts = asdict(stats)
    pending: str | None = None
    for part in parts:
        for name in counts:
            counts[name] += part.stats.get(name, 0)
        if part.first_fate is not None:
            pending = _earlier(pending, part.first_fate)
            if part.one_page and part.last_fate is not None:
                continue  # the page goes on into the next chunk
            _close(counts, pending)
            pending = None
        if part.last_fate is not None:
            pending = part.last_fate
    if pending is not None:
        _close(counts, pending)
    return XmlStats(**{f.name: counts[f.name] for f in fields(XmlStats)})


def _close(counts: dict[str, int], fate: str) -> None:
    counts["pages"] += 1
    counts[fate] += 1


def read_xml_pages(part: Path) -> XmlPages | None:
    """What the part folder ``part`` records of its XML chunk (None: not an XML chunk's)."""
    path = part / XML_PAGES_FILE
    if not path.is_file():
        return None
    return msgspec.json.decode(path.read_bytes(), type=XmlPages)
