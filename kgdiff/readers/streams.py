"""What readers need of an input: a ``read`` that returns bytes, or a ``readinto``."""

from __future__ import annotations

from typing import Protocol


class ByteStream(Protocol):
    """A readable binary stream (a file, a decompressor, a pipe)."""

    def read(self, size: int = ..., /) -> bytes: ...


class ReadIntoStream(Protocol):
    """A binary stream that can fill a caller's buffer (no new bytes object per read)."""

    def readinto(self, buffer: memoryview, /) -> int: ...


class BufferedStream(ByteStream, ReadIntoStream, Protocol):
    """A stream that offers both ``read`` and ``readinto`` (any ``io`` buffered reader)."""
