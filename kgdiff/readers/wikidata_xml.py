"""Wikibase entities out of MediaWiki XML dumps (export schema 0.3–0.11, any namespace URI).

One :class:`EntityPage` per entity page: its revision with the latest timestamp at or before
``as_of`` (all revisions when None), so page, history and daily incremental dumps read alike.
An entity page has a Wikibase ``<model>``; without ``<model>`` (older dumps), an entity title
in its namespace (``Q1`` in 0, ``Property:P1`` in 120, ``Lexeme:L1`` in 146) and JSON text.
Deleted or suppressed texts are skipped, so an earlier visible revision stands in for them.
Revisions are cleared once read, pages once finished (with earlier siblings): memory stays flat."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import orjson
from lxml import etree

from kgdiff.readers.legacy import JsonDict, to_canonical
from kgdiff.readers.streams import ByteStream
from kgdiff.readers.xml_stream import (
    XmlDumpError,
    children,
    drop,
    required_number,
    syntax_error,
    text_of,
)
from kgdiff.readers.xml_texts import CUT_ATTRIBUTE, TextCutter, unescape

_MODEL_OF_NS = {0: "wikibase-item", 120: "wikibase-property", 146: "wikibase-lexeme"}
ENTITY_MODELS = frozenset([*_MODEL_OF_NS.values(), "wikibase-mediainfo"])
_TITLE_PREFIX_OF_NS = {0: "Q", 120: "Property:P", 146: "Lexeme:L"}
_NS_OF_PREFIX = {"Property": 120, "Lexeme": 146}
_TAGS = ("{*}page", "{*}revision")


class EntityJsonError(ValueError):
    """The text of an entity revision is not a JSON object."""


ENTITY_PAGE = "entity_pages"
PAGE_FATES = (ENTITY_PAGE, "skipped_deleted", "skipped_after_cutoff", "skipped_non_entity")
"""What becomes of a page, by precedence: the parts of one page read apart (a page cut into
chunks, :mod:`kgdiff.readers.xml_chunks`) make it an entity page if any part has a visible
revision, else a deleted one if any has an entity revision at or before the cutoff, ..."""


@dataclass(frozen=True, slots=True)
class EntityPage:
    """One entity page with the text (UTF-8 JSON) of its selected revision.

    ``byte_offset``: start of the parser's 32 KiB read that held the ``<page>`` tag, counted
    from the stream position at hand-over; the tag lies within 5 bytes before to 32 KiB after."""

    title: str
    ns: int
    page_id: int
    revision_id: int
    timestamp: str
    model: str
    text: bytes
    byte_offset: int


@dataclass(slots=True)
class XmlStats:
    """Counts of one read: ``pages`` = entity_pages + the ``skipped_*`` counts; ``deleted_texts``
    counts entity revisions (at or before the cutoff) with a deleted, suppressed or empty text."""

    pages: int = 0
    revisions: int = 0
    entity_pages: int = 0
    skipped_non_entity: int = 0
    skipped_deleted: int = 0
    skipped_after_cutoff: int = 0
    deleted_texts: int = 0
    revisions_after_cutoff: int = 0


@dataclass(frozen=True, slots=True)
class _Text:
    """A revision's text: as the file has it (``escaped``) or as the parser decoded it."""

    data: bytes
    escaped: bool

    def decoded(self) -> bytes:
        return unescape(self.data) if self.escaped else self.data


@dataclass(slots=True)
class _Page:
    offset: int
    title: str = ""
    ns: int = -1
    page_id: int = 0
    entity_seen: bool = False
    before_cutoff: bool = False
    best: tuple[int, str, str, _Text] | None = None
    """Revision id, time, model and text of the revision kept so far."""


def iter_entity_pages(
    stream: ByteStream,
    *,
    as_of: datetime | None = None,
    stats: XmlStats | None = None,
    fates: list[str] | None = None,
) -> Iterator[EntityPage]:
    """Yield one :class:`EntityPage` per entity page of a decompressed XML dump stream.

    ``as_of`` selects the latest revision at or before it (a naive datetime is taken as UTC).
    ``stats``, when given, is updated as pages are read; ``fates`` gets the fate of every
    page in order (one of :data:`PAGE_FATES`). Raises :class:`XmlDumpError`."""
    stats = XmlStats() if stats is None else stats
    cutoff = _cutoff(as_of)
    reader = TextCutter(stream)
    events = etree.iterparse(reader, events=("start", "end"), tag=_TAGS, huge_tree=True)
    page: _Page | None = None
    try:
        for event, elem in events:
            if elem.tag.endswith("revision"):
                if event == "end" and page is not None:
                    _read_revision(page, elem, cutoff, stats, reader)
                    drop(elem, keep_header=True)
            elif event == "start":
                page = _Page(offset=reader.chunk_start)
            elif page is not None:
                entity = _finish_page(page, stats, fates)
                drop(elem, keep_header=False)
                page = None
                if entity is not None:
                    yield entity
    except etree.XMLSyntaxError as exc:
        raise syntax_error(exc, reader.consumed) from exc
    except EOFError as exc:
        raise XmlDumpError(f"XML stream truncated at byte {reader.consumed}: {exc}") from exc


def decode_entity_text(text: bytes) -> JsonDict:
    """Parse an entity revision text into canonical JSON (legacy text is converted).

    Raises :class:`EntityJsonError` for malformed JSON or a non-object, and
    :class:`~kgdiff.readers.legacy.LegacyFormatError` for an object that is no entity."""
    try:
        doc = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise EntityJsonError(f"malformed entity JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise EntityJsonError(f"entity JSON must be an object, not {type(doc).__name__}")
    return to_canonical(doc)


def _cutoff(as_of: datetime | None) -> str | None:
    if as_of is None:
        return None
    # Dump timestamps are all "YYYY-MM-DDTHH:MM:SSZ" in UTC, so strings compare as times.
    return as_of.replace(tzinfo=as_of.tzinfo or UTC).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _read_header(page: _Page, page_elem: etree._Element) -> None:
    fields = children(page_elem)
    page.title = text_of(fields.get("title"))
    page.page_id = required_number(fields.get("id"), "<page><id>", page_elem)
    if "ns" in fields:
        page.ns = required_number(fields["ns"], "<ns>", page_elem)
    else:
        # Export schemas before 0.6 have no <ns>: the title prefix tells it.
        prefix, colon, _ = page.title.partition(":")
        page.ns = _NS_OF_PREFIX.get(prefix, 0) if colon else 0


def _text(elem: etree._Element | None, cutter: TextCutter) -> _Text | None:
    """A revision's ``<text>`` (None: missing, deleted or empty)."""
    if elem is None:
        return None
    content = cutter.take(elem.get(CUT_ATTRIBUTE))
    if elem.get("deleted") is not None:
        return None
    if content is not None:
        return _Text(content, escaped=True) if content else None
    return _Text(elem.text.encode(), escaped=False) if elem.text else None  # not cut


def _read_revision(
    page: _Page, rev: etree._Element, cutoff: str | None, stats: XmlStats, cutter: TextCutter
) -> None:
    stats.revisions += 1
    if page.ns < 0 and (parent := rev.getparent()) is not None:
        _read_header(page, parent)
    fields = children(rev)
    model, timestamp = text_of(fields.get("model")), text_of(fields.get("timestamp"))
    text = _text(fields.get("text"), cutter)
    if not _is_entity(page, model, text):
        return
    page.entity_seen = True
    if not timestamp:
        raise XmlDumpError(f"revision without <timestamp> at line {rev.sourceline}")
    if cutoff is not None and timestamp > cutoff:
        stats.revisions_after_cutoff += 1
        return
    page.before_cutoff = True
    if text is None:
        stats.deleted_texts += 1
    elif page.best is None or timestamp >= page.best[1]:
        revision_id = required_number(fields.get("id"), "<revision><id>", rev)
        page.best = (revision_id, timestamp, model or _MODEL_OF_NS[page.ns], text)


def _is_entity(page: _Page, model: str, text: _Text | None) -> bool:
    if model:
        return model in ENTITY_MODELS
    prefix = _TITLE_PREFIX_OF_NS.get(page.ns)
    number = page.title[len(prefix) :] if prefix and page.title.startswith(prefix) else ""
    if not (number.isascii() and number.isdigit()):
        return False
    return text is None or text.data.lstrip().startswith(b"{")


def page_fate(page: _Page) -> str:
    """What becomes of a page read whole: the stats field it counts in."""
    if page.best is not None:
        return ENTITY_PAGE
    if not page.entity_seen:
        return "skipped_non_entity"
    return "skipped_deleted" if page.before_cutoff else "skipped_after_cutoff"


def _finish_page(page: _Page, stats: XmlStats, fates: list[str] | None) -> EntityPage | None:
    stats.pages += 1
    fate = page_fate(page)
    setattr(stats, fate, getattr(stats, fate) + 1)
    if fates is not None:
        fates.append(fate)
    if page.best is None:
        return None
    revision_id, timestamp, model, text = page.best
    return EntityPage(
        page.title,
        page.ns,
        page.page_id,
        revision_id,
        timestamp,
        model,
        text.decoded(),
        page.offset,
    )
