"""Framing of Wikidata JSON dumps: split a decompressed stream into line-aligned chunks.

A dump is a JSON array written one entity per line: ``[``, then ``{...},`` lines,
the last entity without the comma, then ``]``. JSON-lines files (no brackets)
are accepted too. Chunks are cut at fixed uncompressed offsets (then extended to
the next newline), so the same input always gives the same chunks: an
interrupted ingest can skip the chunks it already finished.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from kgdiff.errors import InputError

DEFAULT_CHUNK_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Chunk:
    """Whole lines of the decompressed dump, with where they start."""

    seq: int
    offset: int
    first_line: int
    data: bytes


def _read_exactly(stream: BinaryIO, size: int) -> bytes:
    parts: list[bytes] = []
    missing = size
    while missing > 0:
        block = stream.read(missing)
        if not block:
            break
        parts.append(block)
        missing -= len(block)
    return b"".join(parts)


class DumpFraming:
    """Checks the array framing around the entity lines as chunks go by.

    Entity lines start with ``{``, so a line starting with ``[`` after the first one,
    or anything but blank lines after the closing ``]``, means two dumps were
    joined or garbage was appended.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.kind: str | None = None
        self.closed_at: int | None = None

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

    def see_chunk(self, chunk: Chunk) -> None:
        """Check one chunk (whole lines) for misplaced brackets and data after the end."""
        data = chunk.data
        if self.closed_at is not None and data.strip():
            raise self._fail(chunk.offset, "unexpected data after the closing ']'")
        opening = data.find(b"\n[")
        if opening >= 0:
            raise self._fail(chunk.offset + opening + 1, "a second '[' (two dumps joined?)")
        closing = 0 if data.startswith(b"]") else data.find(b"\n]") + 1 or -1
        if closing >= 0:
            if self.kind != "array":
                raise self._fail(chunk.offset + closing, "a ']' in a JSON-lines file")
            self.closed_at = chunk.offset + closing
            rest = data[closing + 1 :]
            if rest.strip():
                raise self._fail(chunk.offset + closing, "unexpected data after the closing ']'")

    def see_end(self, end_offset: int) -> None:
        """At end of stream: an array dump must have ended with ``]``."""
        if self.kind == "array" and self.closed_at is None:
            raise self._fail(
                end_offset, "the dump ends without its closing ']' (truncated download or copy?)"
            )


def split_chunks(
    stream: BinaryIO, source: str, chunk_bytes: int = DEFAULT_CHUNK_BYTES
) -> Iterator[Chunk]:
    """Yield line-aligned chunks of a decompressed dump stream, checking its framing."""
    framing = DumpFraming(source)
    carry = b""
    offset = first_line = seq = 0
    while block := _read_exactly(stream, chunk_bytes):
        data = carry + block
        if framing.kind is None:
            framing.see_start(data)
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            carry = data
            continue
        chunk, carry = Chunk(seq, offset, first_line, data[:cut]), data[cut:]
        framing.see_chunk(chunk)
        yield chunk
        seq += 1
        offset += cut
        first_line += chunk.data.count(b"\n")
    if carry.strip():
        chunk = Chunk(seq, offset, first_line, carry)
        framing.see_chunk(chunk)
        yield chunk
    elif framing.kind is None:
        raise InputError(f"{source}: the file holds no data; expected a Wikidata JSON dump")
    framing.see_end(offset + len(carry))


def iter_entity_lines(chunk: Chunk) -> Iterator[tuple[int, int, bytes]]:
    """Yield ``(line number, byte offset, entity JSON)`` for the entity lines of a chunk.

    Line numbers are 1-based like an editor's. The array brackets, blank lines
    and the comma after each entity are dropped.
    """
    line_no = chunk.first_line
    pos = chunk.offset
    for line in chunk.data.split(b"\n"):
        line_no += 1
        start = pos
        pos += len(line) + 1
        text = line.strip()
        if text.endswith(b","):
            text = text[:-1].rstrip()
        if not text or text == b"[" or text == b"]":
            continue
        yield line_no, start, text
