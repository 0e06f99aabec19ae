"""A zstd decompressing reader that notices truncation.

``zstandard``'s ``stream_reader`` ends quietly when the input stops in the middle
of a frame, which would turn a truncated download into a silently shorter
snapshot. This reader decompresses frame by frame and raises ``EOFError`` when
the input ends inside one; data after a frame that is not another frame raises
``zstandard.ZstdError``.
"""

from __future__ import annotations

import io

import zstandard

from kgdiff.readers.streams import ByteStream

READ_BLOCK = 1 << 20


class ZstdStream(io.RawIOBase):
    """Decompressed bytes of every zstd frame of ``raw``, in order."""

    def __init__(self, raw: ByteStream) -> None:
        self._raw = raw
        self._context = zstandard.ZstdDecompressor()
        self._frame = self._context.decompressobj()
        self._pending = b""
        self._pos = 0
        self._in_frame = False

    def readable(self) -> bool:
        return True

    def _feed(self, data: bytes) -> None:
        out = []
        while data:
            self._in_frame = True
            out.append(self._frame.decompress(data))
            if not self._frame.eof:
                break
            data = self._frame.unused_data
            self._frame = self._context.decompressobj()
            self._in_frame = False
        self._pending, self._pos = b"".join(out), 0

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while self._pos >= len(self._pending):
            block = self._raw.read(READ_BLOCK)
            if not block:
                if self._in_frame:
                    raise EOFError("the zstd stream ends inside a frame")
                return 0
            self._feed(block)
        count = min(len(buffer), len(self._pending) - self._pos)
        buffer[:count] = memoryview(self._pending)[self._pos : self._pos + count]
        self._pos += count
        return count
