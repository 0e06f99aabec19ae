"""Cut a decompressed JSON dump into line-aligned chunks at fixed offsets.

Chunk ``n`` holds the bytes from where chunk ``n - 1`` ended up to the last
newline in the block ``[n * chunk_bytes, (n + 1) * chunk_bytes)`` of the stream
(or the stream's end). So the same input always gives the same chunks, whatever
reads them, and an interrupted ingest can skip the chunks it already finished.

:func:`plan_chunks` reads into one reused buffer and yields where each chunk is;
:func:`split_chunks` also copies each chunk's bytes out, for callers that need them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kgdiff.errors import InputError
from kgdiff.readers.json_dump import DEFAULT_CHUNK_BYTES, Chunk, DumpFraming
from kgdiff.readers.streams import ReadIntoStream

SNIFF_BYTES = 4096
HOPS_BEFORE_CHECK = 256
LONG_LINE_BYTES = 1024


@dataclass(frozen=True, slots=True)
class ChunkSpan:
    """Where one chunk is in the decompressed stream."""

    seq: int
    offset: int
    first_line: int
    length: int


@dataclass(frozen=True, slots=True)
class ChunkView:
    """A planned chunk and a view of its bytes in the planner's buffer.

    Valid only until the planner is asked for the next chunk: whoever receives it
    must copy the bytes out (or write them somewhere) first. Never pickled.
    """

    span: ChunkSpan
    data: memoryview

    @property
    def seq(self) -> int:
        """The chunk's sequence number."""
        return self.span.seq


def fill_from(stream: ReadIntoStream, target: memoryview) -> int:
    """Read until ``target`` is full or the stream ends; return the bytes read."""
    filled = 0
    while filled < len(target):
        count = stream.readinto(target[filled:])
        if not count:
            break
        filled += count
    return filled


def count_lines(buffer: bytearray, end: int) -> int:
    """The number of newlines in ``buffer[:end]``.

    A dump line is a whole entity (~10 KB), so hopping from newline to newline with
    ``find`` (memchr) is ~6× faster than ``bytes.count``, which looks at every byte;
    once the lines turn out short, the rest is counted in bulk.
    """
    count, position = 0, buffer.find(b"\n", 0, end)
    while position >= 0:
        count += 1
        if count % HOPS_BEFORE_CHECK == 0 and position < count * LONG_LINE_BYTES:
            return count + buffer.count(b"\n", position + 1, end)
        position = buffer.find(b"\n", position + 1, end)
    return count


def room_for(buffer: bytearray, carry: int, needed: int) -> bytearray:
    """``buffer``, or a larger copy of its first ``carry`` bytes when ``needed`` won't fit.

    A new buffer rather than a resize: views of the old one may still be alive.
    """
    if len(buffer) >= needed:
        return buffer
    larger = bytearray(needed)
    larger[:carry] = buffer[:carry]
    return larger


def plan_chunks(
    stream: ReadIntoStream, framing: DumpFraming, chunk_bytes: int = DEFAULT_CHUNK_BYTES
) -> Iterator[tuple[ChunkSpan, memoryview]]:
    """Yield each chunk's span and a view of its bytes (valid until the next chunk)."""
    buffer = bytearray(chunk_bytes)
    carry = offset = first_line = seq = 0  # carry: bytes of an unfinished line at the start
    while True:
        buffer = room_for(buffer, carry, carry + chunk_bytes)
        end = carry + fill_from(stream, memoryview(buffer)[carry : carry + chunk_bytes])
        if end == carry:
            break
        if framing.kind is None:
            framing.see_start(bytes(buffer[: min(end, carry + SNIFF_BYTES)]))
        cut = buffer.rfind(b"\n", 0, end) + 1
        if cut == 0:
            carry = end
            continue
        yield ChunkSpan(seq, offset, first_line, cut), memoryview(buffer)[:cut]
        seq, offset = seq + 1, offset + cut
        first_line += count_lines(buffer, cut)
        buffer[: end - cut] = buffer[cut:end]
        carry = end - cut
    if buffer[:carry].strip():
        yield ChunkSpan(seq, offset, first_line, carry), memoryview(buffer)[:carry]
    elif framing.kind is None:
        source = framing.source
        raise InputError(f"{source}: the file holds no data; expected a Wikidata JSON dump")
    framing.end_offset = offset + carry


def split_chunks(
    stream: ReadIntoStream, framing: DumpFraming, chunk_bytes: int = DEFAULT_CHUNK_BYTES
) -> Iterator[Chunk]:
    """Yield the chunks of :func:`plan_chunks` with their bytes (one copy each)."""
    for span, data in plan_chunks(stream, framing, chunk_bytes):
        yield Chunk(span.seq, span.offset, span.first_line, bytes(data))


@dataclass(frozen=True, slots=True)
class FileChunk:
    """A chunk named by the file that holds its bytes: a worker reads it itself.

    The file is the uncompressed dump (the bytes are at ``span.offset``) or a slot
    file the main process wrote a decompressed chunk into (``at`` says where).
    Sending the position instead of the bytes spares the main process a pickle
    and a pipe write per chunk (most of its time with two workers).
    """

    path: str
    span: ChunkSpan
    at: int | None = None

    @property
    def seq(self) -> int:
        """The chunk's sequence number."""
        return self.span.seq

    def load(self, buffer: bytearray | None = None) -> Chunk:
        """Read the chunk's bytes from the file, into ``buffer`` (resized) when given.

        A worker passes the same buffer for every chunk: a fresh 32 MB ``bytes`` per
        chunk would be served by new ``mmap`` pages that the kernel zeroes each time.
        The chunk returned is only valid until the buffer's next use.
        """
        span = self.span
        start = span.offset if self.at is None else self.at
        data = _sized(buffer, span.length)
        with Path(self.path).open("rb", buffering=0) as handle:
            got = _pread_into(handle.fileno(), memoryview(data), start)
        if got != span.length:
            raise InputError(
                f"{self.path}: offset {start + got}: the file is shorter than "
                "when it was read (replaced during the ingest?); run the ingest again"
            )
        return Chunk(span.seq, span.offset, span.first_line, data)


def _sized(buffer: bytearray | None, length: int) -> bytearray:
    """``buffer`` resized to ``length`` bytes (a new one if none, or if it is in use)."""
    if buffer is None:
        return bytearray(length)
    try:
        # CPython keeps the allocation when a bytearray shrinks a little or regrows
        # within its capacity, so chunks of about the same size reuse the same pages.
        del buffer[length:]
        buffer.extend(bytes(length - len(buffer)))
    except BufferError:  # a view of the previous chunk is still alive somewhere
        return bytearray(length)
    return buffer


def _pread_into(fd: int, view: memoryview, offset: int) -> int:
    """Fill ``view`` from ``offset``; the bytes read (fewer only at the end of the file)."""
    got = 0
    with view:
        while got < len(view):
            # one read stops at 2 GiB on Linux; a chunk that large is rare but possible
            count = os.preadv(fd, [view[got:]], offset + got)
            if not count:
                break
            got += count
    return got
