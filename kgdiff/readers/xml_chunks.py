"""Cut a decompressed MediaWiki XML dump into chunks that parse workers read on their own.

Chunk ``n`` holds the bytes from where chunk ``n - 1`` ended up to the last ``<page>`` in
the block ``[n * chunk_bytes, (n + 1) * chunk_bytes)`` past it (or the stream's end), so
the same input always gives the same chunks and an interrupted run skips the finished ones.
A page longer than a block (a history dump's page of many revisions) is cut before its last
``<revision>`` in the block instead: the chunk *ends inside* the page, and the next one
*continues* it. A revision is never cut (the block grows to hold a longer one).

Each chunk becomes a document of its own with its :class:`XmlFrame`: the dump's header (its
``<mediawiki>`` start tag and ``<siteinfo>``: the bytes before its first ``<page>``), the
head of the page it continues (``<page>``, ``<title>``, ``<ns>``, ``<id>``, ...), and the
end tags it lacks. A worker parses it with the dump reader
(:func:`kgdiff.readers.wikidata_xml.iter_entity_pages`); the parts of a page read apart are
put together by their fates (:data:`kgdiff.readers.wikidata_xml.PAGE_FATES`).

``<page>`` and ``<revision>`` are found as bytes: inside a ``<text>`` the dump writes ``<``
as ``&lt;``, so neither appears there. The caller checks the stream is UTF-8 (or ASCII):
in UTF-16 the tags are other bytes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kgdiff.readers.chunking import fill_from, room_for
from kgdiff.readers.streams import ReadIntoStream

PAGE = b"<page>"
REVISION = b"<revision>"
PAGE_END = b"</page>\n"
DUMP_END = b"</mediawiki>\n"


@dataclass(frozen=True, slots=True)
class XmlSpan:
    """Where one chunk is in the decompressed stream, and how it lies against the pages."""

    seq: int
    offset: int
    length: int
    pages_before: int
    """How many pages began before the chunk (its first page's number, less one)."""
    continues: bool = False
    """The chunk begins inside a page begun before it."""
    ends_inside: bool = False
    """The chunk ends inside a page that goes on in the next one."""
    last: bool = False


@dataclass(frozen=True, slots=True)
class XmlFrame:
    """What goes before and after a chunk's bytes to make a document of them."""

    prefix: bytes = b""
    suffix: bytes = b""


@dataclass
class _Cut:
    """The planner's state between chunks."""

    header: bytes | None = None
    """The dump's bytes before its first ``<page>`` (None until it is found)."""
    page_head: bytes = b""
    """The head of the page the next chunk continues."""
    continues: bool = False
    pages: int = 0
    seq: int = 0
    offset: int = 0


def _first_page(buffer: bytearray, end: int, cut: _Cut) -> int:
    """Where the chunk's first page begins (-1: none in it yet); finds the header."""
    if cut.continues:
        return -1
    if cut.header is None:
        start = buffer.find(PAGE, 0, end)
        if start >= 0:
            cut.header = bytes(buffer[:start])
        return start
    return len(cut.header) if cut.seq == 0 else 0  # the first chunk begins with the header


def _cut_point(buffer: bytearray, end: int, cut: _Cut) -> tuple[int, bool]:
    """Where to end the chunk in ``buffer[:end]`` and whether that is inside a page;
    (0, False) when the buffer holds no place to cut yet."""
    first = _first_page(buffer, end, cut)
    at = buffer.rfind(PAGE, max(first, 0) + 1, end) if first >= 0 or cut.continues else -1
    if at > 0:
        return at, False
    if first < 0 and not cut.continues:
        return 0, False  # still in the header
    opened = 0 if cut.continues else buffer.find(REVISION, first, end)
    at = buffer.rfind(REVISION, opened + 1, end) if opened >= 0 else -1
    if at <= 0:
        return 0, False  # one revision longer than the block: read on
    if not cut.continues:
        cut.page_head = bytes(buffer[first:opened])
    return at, True


def _frame(span: XmlSpan, cut: _Cut, head: bytes) -> XmlFrame:
    prefix = (cut.header or b"") if span.seq else b""
    if span.continues:
        prefix += head
    suffix = (PAGE_END if span.ends_inside else b"") + (b"" if span.last else DUMP_END)
    return XmlFrame(prefix, suffix)


def _span(cut: _Cut, length: int, ends_inside: bool, last: bool) -> XmlSpan:
    return XmlSpan(cut.seq, cut.offset, length, cut.pages, cut.continues, ends_inside, last)


def plan_xml_chunks(
    stream: ReadIntoStream, chunk_bytes: int
) -> Iterator[tuple[XmlSpan, XmlFrame, memoryview]]:
    """Yield each chunk's span, frame and a view of its bytes (valid until the next one)."""
    buffer = bytearray(chunk_bytes)
    cut = _Cut()
    carry = 0
    while True:
        buffer = room_for(buffer, carry, carry + chunk_bytes)
        end = carry + fill_from(stream, memoryview(buffer)[carry : carry + chunk_bytes])
        if end == carry:
            break
        ended = end < carry + chunk_bytes  # the stream's end: the rest is the last chunk
        at, inside = (0, False) if ended else _cut_point(buffer, end, cut)
        if at == 0:
            carry = end
            continue
        head = cut.page_head
        span = _span(cut, at, inside, last=False)
        yield span, _frame(span, cut, head), memoryview(buffer)[:at]
        cut.pages += buffer.count(PAGE, 0, at)
        cut.seq, cut.offset, cut.continues = cut.seq + 1, cut.offset + at, inside
        buffer[: end - at] = buffer[at:end]
        carry = end - at
    if carry or cut.seq == 0:
        span = _span(cut, carry, ends_inside=False, last=True)
        yield span, _frame(span, cut, cut.page_head), memoryview(buffer)[:carry]
