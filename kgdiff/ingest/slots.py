"""Slot files: how decompressed chunks reach the parse workers without a pipe.

Pickling a 32 MB chunk and pushing it through the pool's pipe costs the main
process about as much as decompressing it. Instead the main process writes each
chunk into one of a few slot files in the staging folder (reused, so they stay
in the page cache and are rarely written back to disk) and sends the worker the
slot's name; the worker reads the bytes itself. A slot is reused only after the
task that read it has finished. The folder goes with the staging folder, so
even a killed ingest leaves nothing behind once it is resumed or published.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kgdiff.readers.chunking import ChunkSpan, ChunkView, FileChunk
from kgdiff.readers.json_dump import Chunk


class ChunkSlots:
    """A fixed number of slot files; each holds one chunk while a worker needs it."""

    def __init__(self, directory: Path, count: int) -> None:
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        self.directory = directory
        self._free = [directory / f"slot-{n}" for n in range(count)]
        for path in self._free:
            path.touch()

    @property
    def available(self) -> int:
        """How many slots are free."""
        return len(self._free)

    def stage(self, chunk: Chunk | ChunkView) -> tuple[FileChunk, Path]:
        """Write ``chunk`` into a free slot; return what to send the worker and the slot."""
        if isinstance(chunk, Chunk):
            span = ChunkSpan(chunk.seq, chunk.offset, chunk.first_line, len(chunk.data))
            chunk = ChunkView(span, memoryview(chunk.data))
        slot = self._free.pop()
        descriptor = os.open(slot, os.O_WRONLY)
        try:
            written = 0
            while written < len(chunk.data):
                written += os.pwrite(descriptor, chunk.data[written:], written)
        finally:
            os.close(descriptor)
        return FileChunk(str(slot), chunk.span, at=0), slot

    def release(self, slot: Path) -> None:
        """Give back a slot whose task has finished."""
        self._free.append(slot)

    def close(self) -> None:
        """Delete the slot files."""
        shutil.rmtree(self.directory, ignore_errors=True)
