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
    """Checks the array framing around the entity lines as chunks go by."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.kind: str | None = None
        self.closed_at: int | None = None

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

    def see_end(self, tail: bytes, end_offset: int) -> None:
        """At end of stream: an array dump must end with ``]`` and nothing after it."""
        if self.kind != "array":
            return
        lines = tail.rstrip().split(b"\n")
        if lines[-1].strip() == b"]":
            return
        if any(line.strip() == b"]" for line in lines):
            raise InputError(
                f"{self.source}: offset {end_offset}: unexpected data after the closing ']' "
                "(trailing garbage or two files joined?); fetch the file again"
            )
        raise InputError(
            f"{self.source}: offset {end_offset}: the dump ends without its closing ']' "
            "(truncated download or copy?); fetch the file again"
        )


def split_chunks(
    stream: BinaryIO, source: str, chunk_bytes: int = DEFAULT_CHUNK_BYTES
) -> Iterator[Chunk]:
    """Yield line-aligned chunks of a decompressed dump stream."""
    framing = DumpFraming(source)
    carry = b""
    offset = first_line = seq = 0
    last_data = b""
    while True:
        block = _read_exactly(stream, chunk_bytes)
        data = carry + block
        if not block:
            break
        if framing.kind is None:
            framing.see_start(data)
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            carry = data
            continue
        chunk, carry = data[:cut], data[cut:]
        yield Chunk(seq, offset, first_line, chunk)
        last_data = chunk[-4096:]
        seq += 1
        offset += len(chunk)
        first_line += chunk.count(b"\n")
    if carry.strip():
        yield Chunk(seq, offset, first_line, carry)
        last_data = carry[-4096:]
    elif framing.kind is None:
        raise InputError(f"{source}: the file holds no data; expected a Wikidata JSON dump")
    framing.see_end(last_data, offset + len(carry))


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
