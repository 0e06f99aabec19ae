"""Parallel bzip2 decompression through an ``lbzip2`` child process.

The raw file is fed to lbzip2's stdin by a thread (so the bytes are hashed and
counted like every other input), and lbzip2's failure status becomes an error
at the end of its output instead of a silently short stream.
"""

from __future__ import annotations

import io
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import IO

from kgdiff.children import dies_with_caller
from kgdiff.readers.streams import ByteStream

FEED_BLOCK = 1 << 20


def _feed(raw: ByteStream, sink: IO[bytes]) -> None:
    with suppress(BrokenPipeError, ValueError), sink:
        while block := raw.read(FEED_BLOCK):
            sink.write(block)


class _CheckedProcessStream(io.RawIOBase):
    """stdout of the decompressor; a failing exit status raises ``OSError`` at its end."""

    def __init__(self, proc: subprocess.Popen[bytes], feeder: threading.Thread) -> None:
        self._proc = proc
        self._feeder = feeder

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        stdout, stderr = self._proc.stdout, self._proc.stderr
        assert stdout is not None and stderr is not None
        count: int = stdout.readinto(buffer)  # type: ignore[attr-defined]
        if count:
            return count
        self._feeder.join()  # the raw reader is the feeder's until it is done
        if self._proc.wait() != 0:
            message = stderr.read().decode(errors="replace").strip()
            raise OSError(message.splitlines()[-1] if message else "lbzip2 failed")
        return 0


@contextmanager
def lbzip2_stream(raw: ByteStream, threads: int) -> Iterator[io.RawIOBase]:
    """Decompressed bytes of ``raw`` (a bzip2 file) from ``lbzip2 -dc -n THREADS``."""
    proc = subprocess.Popen(
        ["lbzip2", "-dc", f"-n{max(1, threads)}"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=dies_with_caller(),  # lbzip2 dies with this thread, a kill -9 included
    )
    assert proc.stdin is not None
    feeder = threading.Thread(target=_feed, args=(raw, proc.stdin), daemon=True)
    feeder.start()
    try:
        yield _CheckedProcessStream(proc, feeder)
    finally:
        proc.kill()
        proc.wait()
        feeder.join()
