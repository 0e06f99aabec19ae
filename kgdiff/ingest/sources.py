"""Open a dump file as a stream of decompressed bytes, hashing and counting the raw bytes.

Compression is detected from the magic bytes, not the file name. ``.bz2`` goes
through ``lbzip2`` (parallel) when installed, ``.gz`` through ISA-L in-process,
``.zst`` through zstandard. Every decompression error becomes an
:class:`InputError` naming the file and the offsets reached.
"""

from __future__ import annotations

import bz2
import hashlib
import io
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import zstandard
from isal import igzip_threaded

from kgdiff.errors import InputError
from kgdiff.ingest.bz2tail import bz2_ends_cleanly
from kgdiff.ingest.lbzip2 import lbzip2_stream
from kgdiff.ingest.zstd_stream import ZstdStream
from kgdiff.readers.input_file import check_input_file
from kgdiff.readers.streams import BufferedStream

READ_BLOCK = 1 << 20
MAGIC = {b"\x1f\x8b": "gzip", b"BZh": "bzip2", b"\x28\xb5\x2f\xfd": "zstd"}


def detect_compression(path: Path) -> str:
    """``gzip``, ``bzip2``, ``zstd`` or ``none``, from the file's first bytes."""
    with path.open("rb") as handle:
        head = handle.read(4)
    for magic, name in MAGIC.items():
        if head.startswith(magic):
            return name
    return "none"


class HashingReader(io.RawIOBase):
    """A raw file reader that hashes (sha256) and counts every byte it hands out."""

    def __init__(self, path: Path) -> None:
        self._file = path.open("rb", buffering=0)
        self.sha256 = hashlib.sha256()
        self.position = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        count = self._file.readinto(buffer) or 0
        if count:
            self.sha256.update(buffer[:count])
            self.position += count
        return count

    def finish_hash(self) -> str:
        """Hash whatever was not read (e.g. after a decompressor stopped early)."""
        while self.read(READ_BLOCK):
            pass
        return self.sha256.hexdigest()

    def close(self) -> None:
        self._file.close()
        super().close()


class SourceStream:
    """The decompressed bytes of a dump plus what is known about the raw file."""

    def __init__(self, path: Path, raw: HashingReader, stream: BufferedStream, method: str) -> None:
        self.path = path
        self.raw = raw
        self.stream = stream
        self.method = method
        self.size = path.stat().st_size
        self.decompressed = 0
        self.sha256: str | None = None
        """The whole file's sha256, set when the stream was read and closed without error."""

    def read(self, size: int = -1, /) -> bytes:
        """Read decompressed bytes, turning decompressor failures into :class:`InputError`."""
        try:
            data = self.stream.read(size)
        except (EOFError, OSError, zstandard.ZstdError, ValueError) as exc:
            raise self.error(_describe(exc)) from exc
        self.decompressed += len(data)
        return data

    def readinto(self, buffer: memoryview, /) -> int:
        """Fill ``buffer`` with decompressed bytes (as :meth:`read`, without a new object)."""
        try:
            count = self.stream.readinto(buffer)
        except (EOFError, OSError, zstandard.ZstdError, ValueError) as exc:
            raise self.error(_describe(exc)) from exc
        self.decompressed += count
        return count

    def error(self, what: str) -> InputError:
        """An :class:`InputError` that names the file and both offsets."""
        return InputError(
            f"{self.path}: compressed offset {self.raw.position}, decompressed offset "
            f"{self.decompressed}: {what}; the file is damaged, fetch it again"
        )


def _describe(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, EOFError) or "end-of-stream" in text:
        return f"truncated compressed stream ({text})"
    return f"corrupt compressed data ({text})"


@contextmanager
def open_source(path: Path, threads: int = 2, whole_hash: bool = True) -> Iterator[SourceStream]:
    """Open ``path`` for streaming, whatever its compression.

    ``whole_hash=False`` is for a peek at the first bytes: the rest of the file is not
    read to complete the sha256, which stays None.
    """
    check_input_file(path, "the input file")
    method = detect_compression(path)
    raw = HashingReader(path)
    try:
        with _decompressor(path, raw, method, threads) as stream:
            source = SourceStream(path, raw, stream, method)
            yield source
        # Only now, with the decompressor's threads and child process stopped, may the
        # rest of the file (left unread by --limit) be hashed without racing them.
        if whole_hash:
            source.sha256 = raw.finish_hash()
    finally:
        raw.close()


@contextmanager
def _decompressor(
    path: Path, raw: HashingReader, method: str, threads: int
) -> Iterator[BufferedStream]:
    if method == "bzip2" and not bz2_ends_cleanly(path):
        raise InputError(
            f"{path}: compressed offset {path.stat().st_size}: the bzip2 stream does not end "
            "with its end-of-stream marker (truncated, or trailing data); fetch the file again"
        )
    if method == "bzip2" and shutil.which("lbzip2"):
        with lbzip2_stream(raw, threads) as stream:
            yield io.BufferedReader(stream, READ_BLOCK)
    elif method == "bzip2":
        with bz2.BZ2File(raw) as stream:
            yield stream
    elif method == "gzip":
        with igzip_threaded.open(raw, "rb", threads=1) as stream:  # type: ignore[no-untyped-call]
            yield stream
    elif method == "zstd":
        yield io.BufferedReader(ZstdStream(raw), READ_BLOCK)
    else:
        yield io.BufferedReader(raw, READ_BLOCK)
