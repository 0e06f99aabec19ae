"""Framing of Wikidata JSON dumps: the entity lines of a chunk, and the brackets around them.

A dump is a JSON array written one entity per line: ``[``, then ``{...},`` lines,
the last entity without the comma, then ``]``. JSON-lines files (no brackets)
are accepted too. :mod:`kgdiff.readers.chunking` cuts a stream into chunks.

The framing (one ``[`` first, one ``]`` last, nothing after it) is checked from
what the workers saw while splitting their chunk into lines, so the main
process never scans the data for brackets.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from kgdiff.errors import InputError

DEFAULT_CHUNK_BYTES = 32 * 1024 * 1024
ChunkBytes = bytes | bytearray
"""A chunk's bytes: a ``bytearray`` when a worker reads chunks into one reused buffer."""
WHITESPACE = frozenset(b" \t\n\r\x0b\x0c")
COMMA = ord(",")
BRACKETS = frozenset(b"[]")


@dataclass(frozen=True, slots=True)
class Chunk:
    """Whole lines of the decompressed dump, with where they start."""

    seq: int
    offset: int
    first_line: int
    data: ChunkBytes


@dataclass(slots=True)
class LineLayout:
    """Where a chunk's bracket lines and its other non-blank lines are (byte offsets)."""

    brackets: list[tuple[int, str]] = field(default_factory=list)
    first_content: int | None = None
    last_content: int | None = None


class DumpFraming:
    """The framing of a whole dump, decided from its first bytes and the chunks' layouts."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.kind: str | None = None
        self.end_offset = 0

    def _fail(self, offset: int, what: str) -> InputError:
        return InputError(f"{self.source}: offset {offset}: {what}; fetch the file again")

    def see_start(self, data: bytes) -> None:
        """Decide from the first bytes whether this is an array dump or JSON lines."""
        head = data.lstrip()[:1]
        if head == b"[":
            self.kind = "array"
        elif head == b"{":
            self.kind = "lines"
        elif head:
            raise InputError(
                f"{self.source}: offset 0: not a Wikidata JSON dump (starts with {head!r}, "
                "expected '[' or '{')"
            )

    def check(self, layouts: list[LineLayout], complete: bool = True) -> None:
        """Raise :class:`InputError` unless the brackets frame the entity lines exactly once.

        ``complete`` is False when ``--limit`` stopped the read early (no end to check).
        """
        brackets = sorted(b for layout in layouts for b in layout.brackets)
        firsts = [x.first_content for x in layouts if x.first_content is not None]
        lasts = [x.last_content for x in layouts if x.last_content is not None]
        first, last = min(firsts, default=None), max(lasts, default=None)
        opening = [offset for offset, char in brackets if char == "["]
        closing = [offset for offset, char in brackets if char == "]"]
        if self.kind == "lines" and brackets:
            raise self._fail(brackets[0][0], f"a '{brackets[0][1]}' line in a JSON-lines file")
        if len(opening) > 1 or (opening and first is not None and opening[0] > first):
            extra = opening[1] if len(opening) > 1 else opening[0]
            raise self._fail(extra, "a second '[' (two dumps joined?)")
        if len(closing) > 1:
            raise self._fail(closing[1], "a second ']' (two dumps joined?)")
        if closing and last is not None and last > closing[0]:
            raise self._fail(last, "unexpected data after the closing ']'")
        if self.kind == "array" and not closing and complete:
            raise self._fail(
                self.end_offset,
                "the dump ends without its closing ']' (truncated download or copy?)",
            )


def iter_entity_spans(
    chunk: Chunk, layout: LineLayout | None = None
) -> Iterator[tuple[int, int, int, int]]:
    """Yield ``(line number, byte offset, start, end)`` for the entity lines of a chunk.

    ``chunk.data[start:end]`` is the entity's JSON; the byte offset is its line's
    offset in the whole stream. Line numbers are 1-based like an editor's. The
    array brackets, blank lines and the comma after each entity are dropped;
    ``layout`` records where they were.
    """
    layout = layout if layout is not None else LineLayout()
    data = chunk.data
    line_no = chunk.first_line
    pos = 0
    size = len(data)
    while pos < size:
        newline = data.find(b"\n", pos)
        line_end = size if newline < 0 else newline
        line_no += 1
        start, end = _strip(data, pos, line_end)
        if end > start and data[end - 1] == COMMA:
            end = _strip(data, start, end - 1)[1]
        line_start, pos = pos, line_end + 1
        if end == start:
            continue
        if end - start == 1 and data[start] in BRACKETS:
            layout.brackets.append((chunk.offset + line_start, chr(data[start])))
            continue
        if layout.first_content is None:
            layout.first_content = chunk.offset + line_start
        layout.last_content = chunk.offset + line_start
        yield line_no, chunk.offset + line_start, start, end


def _strip(data: ChunkBytes, start: int, end: int) -> tuple[int, int]:
    """Narrow ``[start, end)`` past the ASCII whitespace that ``bytes.strip()`` removes."""
    while start < end and data[start] in WHITESPACE:
        start += 1
    while end > start and data[end - 1] in WHITESPACE:
        end -= 1
    return start, end


def iter_entity_lines(
    chunk: Chunk, layout: LineLayout | None = None
) -> Iterator[tuple[int, int, bytes]]:
    """Yield ``(line number, byte offset, entity JSON)`` for the entity lines of a chunk
    (see :func:`iter_entity_spans`)."""
    data = chunk.data
    for line_no, offset, start, end in iter_entity_spans(chunk, layout):
        yield line_no, offset, bytes(data[start:end])
