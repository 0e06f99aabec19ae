"""Stream rows into one Parquet file in batches, so memory stays bounded."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

import pyarrow.parquet as pq

from kgdiff.readers.mediawiki_xml import Revision
from kgdiff.wikipedia.rows import RowBuffer

BATCH_ROWS = 2048
"""Rows per batch (and Parquet row group) of pages, which carry their whole text."""
REVISION_BATCH = 32768
"""Rows per batch of revisions (metadata and a lead)."""


class TableWriter:
    """Append revisions to a :class:`RowBuffer` and write it out every ``batch_rows`` rows."""

    def __init__(self, path: Path, buffer: RowBuffer, batch_rows: int = BATCH_ROWS) -> None:
        self.path = path
        self.buffer = buffer
        self.batch_rows = batch_rows
        self.rows = 0
        self._writer = pq.ParquetWriter(path, buffer.schema, compression="zstd")

    def add(self, revision: Revision) -> None:
        """Add one row (converted to plain text by the buffer)."""
        self.buffer.add(revision)
        self.rows += 1
        if len(self.buffer) >= self.batch_rows:
            self._writer.write_batch(self.buffer.flush())

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is None and len(self.buffer):
            self._writer.write_batch(self.buffer.flush())
        self._writer.close()
