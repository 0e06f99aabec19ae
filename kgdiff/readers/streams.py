"""The one thing readers need of an input: a ``read`` that returns bytes."""

from __future__ import annotations

from typing import Protocol


class ByteStream(Protocol):
    """A readable binary stream (a file, a decompressor, a pipe)."""

    def read(self, size: int = ..., /) -> bytes: ...
