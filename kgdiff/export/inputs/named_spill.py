"""What an export has named, kept on disk instead of in memory: one Parquet file per batch of
named rows and snapshot, read back for the ids a part of a config asks about.

An export names every answer and subject once per snapshot (:mod:`kgdiff.export.words.name_stream`)
and the configs come back for the words of a few at a time. Held as frames, those words took
~300 MB at 3 × 25 M statements and grew with the store (2.4 GB projected at 3 × 200 M); on
disk, what a part of a config reads is the rows of its own ids (filtered as the files are read),
and the rows of a sorted range of subjects are read from the row groups that hold them.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import polars as pl

from kgdiff.export.core.leftovers import spill_prefix

ROW_GROUP = 50_000
"""Rows per Parquet row group: small enough that a range of ids skips most of a file."""


class NamedSpill:
    """Rows keyed by ``key`` (an id: a value or a subject), per snapshot, written as they are
    named and read back for the ids asked; the folder is removed when the spill is closed (or
    collected)."""

    def __init__(self, key: str, schema: pl.Schema, parent: Path | None = None) -> None:
        self._key, self._schema = key, schema
        self._parent = parent
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._files: dict[str | None, list[Path]] = {}
        self._written = 0

    def add(self, snapshot: str | None, rows: pl.DataFrame) -> None:
        """Keep ``rows`` (of the spill's schema, ids not kept before) as named in ``snapshot``."""
        if not rows.height:
            return
        if self._folder is None:
            # named by this process: a killed export's is removed by the next (core.leftovers)
            self._folder = tempfile.TemporaryDirectory(prefix=spill_prefix(), dir=self._parent)
        path = Path(self._folder.name) / f"{self._key}-{self._written}.parquet"
        self._written += 1
        rows.select(self._schema.names()).write_parquet(
            path, compression="zstd", row_group_size=ROW_GROUP, statistics=True
        )
        self._files.setdefault(snapshot, []).append(path)

    def _scan(self, snapshot: str | None) -> pl.LazyFrame | None:
        files = self._files.get(snapshot)
        return pl.scan_parquet(files, schema=self._schema) if files else None

    def missing(self, snapshot: str | None, wanted: pl.Series) -> pl.Series:
        """The distinct ids of ``wanted`` not kept for ``snapshot``, sorted."""
        found = wanted.cast(pl.String()).drop_nulls().unique().sort()
        scan = self._scan(snapshot)
        if scan is None or found.is_empty():
            return found
        kept = scan.select(self._key).filter(pl.col(self._key).is_in(found.implode()))
        seen = kept.collect().get_column(self._key)
        return found.filter(~found.is_in(seen.implode()))

    def of(
        self, snapshot: str | None, wanted: pl.Series, columns: list[str] | None = None
    ) -> pl.DataFrame:
        """The rows of the ids of ``wanted`` kept for ``snapshot``, sorted by id (their
        ``columns`` alone, the id first, when given); only the row groups whose ids may fall
        between the least and the greatest asked are read (the subjects of a part of a
        config's rows are a narrow range of the sorted ids)."""
        scan = self._scan(snapshot)
        asked = wanted.cast(pl.String()).drop_nulls().unique().sort()
        if columns is not None:
            chosen = [self._key, *(name for name in columns if name != self._key)]
            scan = None if scan is None else scan.select(chosen)
        if scan is None or asked.is_empty():
            schema = (
                self._schema
                if columns is None
                else pl.Schema({name: self._schema[name] for name in chosen})
            )
            return pl.DataFrame(schema=schema)
        inside = pl.col(self._key).is_between(pl.lit(asked[0]), pl.lit(asked[-1]))
        # a filter, not a semi join: the reader drops the rows not asked as it reads each row
        # group, where the join took every row of the files in first (1.0 GB more at 3 × 100 M
        # statements for a part's words)
        found = scan.filter(inside & pl.col(self._key).is_in(asked.implode()))
        return found.collect().sort(self._key)

    def batches(self, snapshot: str | None, columns: list[str]) -> Iterator[pl.DataFrame]:
        """The ``columns`` of the rows kept for ``snapshot``, a file (a batch as named) at a
        time."""
        for path in self._files.get(snapshot, []):
            yield pl.read_parquet(path, columns=columns)

    def close(self) -> None:
        """Remove the files (the spill is empty after)."""
        self._files.clear()
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
