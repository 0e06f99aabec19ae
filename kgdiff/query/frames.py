"""Query results as polars DataFrames, without copying DuckDB's Arrow buffers."""

from __future__ import annotations

import duckdb
import polars as pl
import pyarrow as pa


def frame_of(table: pa.Table) -> pl.DataFrame:
    """An Arrow table as a polars DataFrame (no copy)."""
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return frame


def relation_frame(relation: duckdb.DuckDBPyRelation) -> pl.DataFrame:
    """A DuckDB relation's rows as a polars DataFrame (through Arrow, no copy)."""
    return frame_of(relation.to_arrow_table())
