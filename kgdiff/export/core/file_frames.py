"""A query's rows handed from DuckDB to polars through a Parquet file, for the reads an export
repeats range after range.

Handed over as Arrow (``.pl()``), the rows live in buffers DuckDB's allocator made, and when
polars frees them that allocator keeps much of the memory: reading the ``temporal`` config's
dated statements a range of groups at a time at 3 × 50 M statements, the process grew by
~75 MB a range (0.95 → 1.55 GB over nine ranges), background threads or not. Written by
DuckDB (within its memory limit) and read by polars, the same ranges held 0.92–1.01 GB from
the first to the last."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from kgdiff.temporal.writers import write_relation

_numbers = itertools.count()


@contextmanager
def query_file(
    connection: duckdb.DuckDBPyConnection,
    query: str,
    params: dict[str, Any],
    folder: Path,
) -> Iterator[Path]:
    """The rows of ``query`` (with ``params``) written by DuckDB into a Parquet file of
    ``folder``, for polars to scan (only what each scan keeps is held); the file is removed
    on leaving."""
    path = folder / f"rows-{next(_numbers)}.parquet"
    try:
        write_relation(connection, connection.sql(query, params=params), path)
        yield path
    finally:
        path.unlink(missing_ok=True)


def frame_through_file(
    connection: duckdb.DuckDBPyConnection,
    query: str,
    params: dict[str, Any],
    folder: Path,
) -> pl.DataFrame:
    """The rows of ``query`` (with ``params``), written by DuckDB into a Parquet file of
    ``folder`` and read back by polars; the file is removed."""
    with query_file(connection, query, params, folder) as path:
        return pl.read_parquet(path)
