"""A split's rows kept on disk in the order of their ids, added a range at a time and read
back a part at a time: what :func:`~kgdiff.export.dataset.frame_chunks.frame_chunks` builds
records of when the rows themselves grow with the store (the ``temporal`` config's statements:
2.4 M at 3 × 50 M statements, read one range of groups after the other).

The parts read back are cut at the same offsets as those of one frame of every row, so the
records built of them are those of a whole-store build, batch for batch."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import polars as pl

from kgdiff.export.core.leftovers import spill_prefix

ID = "_id"
"""The column of the rows' record ids, which the rows are sorted by."""


class SortedRows:
    """Rows with an id column (:data:`ID`), added in id order as Parquet files in a folder of
    ``parent`` (the system's temporary folder when None), removed by :meth:`close` (or when
    the object is collected)."""

    def __init__(self, name: str, parent: Path | None = None) -> None:
        self._name, self._parent = name, parent
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._files: list[Path] = []
        self._last: str | None = None
        self.height = 0
        """The rows added."""

    def add(self, rows: pl.DataFrame) -> None:
        """Keep ``rows`` (sorted by id, each id after every id added before)."""
        if not rows.height:
            return
        ids = rows.get_column(ID)
        if self._last is not None and ids[0] <= self._last:
            raise ValueError(
                f"{self._name}: rows from {ids[0]!r} added after {self._last!r}; add them in"
                " the order of their ids"
            )
        if self._folder is None:
            # named by this process: a killed export's is removed by the next (core.leftovers)
            self._folder = tempfile.TemporaryDirectory(prefix=spill_prefix(), dir=self._parent)
        path = Path(self._folder.name) / f"{self._name}-{len(self._files):05d}.parquet"
        rows.write_parquet(path, compression="lz4", statistics=False)
        self._files.append(path)
        self._last = ids[-1]
        self.height += rows.height

    def _frames(self) -> Iterator[pl.DataFrame]:
        """The files' rows, each in the columns' common types (a range whose rows were all
        null in a column wrote it untyped)."""
        empty = [pl.DataFrame(schema=pl.read_parquet_schema(path)) for path in self._files]
        schema = pl.concat(empty, how="vertical_relaxed").schema if empty else None
        for path in self._files:
            yield pl.read_parquet(path).cast(schema or {})

    def parts(self, size: int) -> Iterator[pl.DataFrame]:
        """The rows in frames of ``size`` (the last one smaller), in id order; a part joins
        rows of several files, or a file gives several parts."""
        held: list[pl.DataFrame] = []
        count = 0
        for frame in self._frames():
            held.append(frame)
            count += frame.height
            while count >= size:
                joined = pl.concat(held)
                yield joined.head(size)
                rest = joined.slice(size)
                held, count = ([rest] if rest.height else []), rest.height
        if count:
            yield pl.concat(held)

    def collect(self) -> pl.DataFrame | None:
        """Every row in one frame (None when none was added)."""
        frames = list(self._frames())
        return pl.concat(frames) if frames else None

    def close(self) -> None:
        """Remove the files (nothing is kept after)."""
        self._files.clear()
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
