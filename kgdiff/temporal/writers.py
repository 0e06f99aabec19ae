"""Write query results to CSV, JSON lines or Parquet, atomically (a temp file renamed at the
end). In CSV, list and struct values are written as JSON text."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import duckdb
import orjson
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq

from kgdiff.errors import UsageError
from kgdiff.sqlfiles import render

OUT_SUFFIXES = (".csv", ".jsonl", ".parquet")
"""The file kinds ``--out`` writes."""
COPY_FORMATS = {".jsonl": "json", ".parquet": "parquet"}
"""The kinds DuckDB's ``COPY`` writes as kgdiff wants them (CSV goes through Arrow, for its
lists as JSON)."""


OUT_VIEW = "kgdiff_out_rows"
"""The temporary view :func:`write_relation` copies from (``sql/output/copy_rows.sql``)."""


def check_out(out: Path, suffixes: Sequence[str] = OUT_SUFFIXES) -> str:
    """The output format of ``out`` (its suffix, one of ``suffixes``); a usage error for any
    other name."""
    suffix = out.suffix.lower()
    if suffix not in suffixes:
        names = f"{', '.join(suffixes[:-1])} or {suffixes[-1]}"
        raise UsageError(f"--out {out}: use a {names} file name")
    return suffix


def check_parent(path: Path, option: str = "--out") -> None:
    """A usage error unless ``path``'s folder exists, saying what to do when it does not."""
    parent = path.parent
    if parent.is_dir():
        return
    if parent.exists():
        raise UsageError(f"{option} {path}: {parent} is not a folder")
    raise UsageError(f"{option} {path}: {parent} is not a folder (it does not exist: create it)")


def copy_format(out: Path) -> str | None:
    """The DuckDB ``COPY … (FORMAT …)`` name for ``out``: ``json`` (lines) or ``parquet``;
    None for a CSV file, which :func:`write_reader` writes."""
    return COPY_FORMATS.get(check_out(out))


@contextmanager
def published(out: Path) -> Iterator[Path]:
    """A temporary path next to ``out`` that replaces it when the block ends without error."""
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    try:
        yield tmp
        tmp.replace(out)
    finally:
        tmp.unlink(missing_ok=True)


def write_relation(
    connection: duckdb.DuckDBPyConnection, relation: duckdb.DuckDBPyRelation, out: Path
) -> int:
    """Write every row of ``relation`` (a query on ``connection``) to ``out`` (.csv, .jsonl
    or .parquet): DuckDB writes JSON lines and Parquet itself, CSV goes through Arrow (lists
    as JSON text). Return how many rows."""
    fmt = copy_format(out)
    if fmt is None:
        return write_reader(relation.to_arrow_reader(), out)
    connection.register(OUT_VIEW, relation)  # a temporary view: the catalog is read-only
    codec = "zstd" if fmt == "parquet" else "auto"
    with published(out) as tmp:
        query = render("output/copy_rows", out=str(tmp), format=fmt, compression=codec)
        written = connection.execute(query).fetchone()
    return int(written[0]) if written else 0


def write_reader(
    reader: pa.RecordBatchReader, out: Path, suffixes: Sequence[str] = OUT_SUFFIXES
) -> int:
    """Write every row of ``reader`` to ``out`` (.csv, .jsonl or .parquet, one of
    ``suffixes``); return how many."""
    suffix = check_out(out, suffixes)
    with published(out) as tmp:
        if suffix == ".jsonl":
            return _jsonl(reader, tmp)
        if suffix == ".csv":
            return _csv(reader, tmp)
        return _parquet(reader, tmp)


def _jsonl(reader: pa.RecordBatchReader, path: Path) -> int:
    written = 0
    with path.open("wb") as handle:
        for batch in reader:
            for record in batch.to_pylist():
                handle.write(orjson.dumps(record) + b"\n")
            written += batch.num_rows
    return written


def _parquet(reader: pa.RecordBatchReader, path: Path) -> int:
    written = 0
    with pq.ParquetWriter(path, reader.schema, compression="zstd") as writer:
        for batch in reader:
            writer.write_batch(batch)
            written += batch.num_rows
    return written


def _csv(reader: pa.RecordBatchReader, path: Path) -> int:
    written = 0
    schema = pa.schema([_flat_field(f) for f in reader.schema])
    with pcsv.CSVWriter(str(path), schema) as writer:
        for batch in reader:
            columns = [_flat_column(column) for column in batch.columns]
            writer.write_batch(pa.RecordBatch.from_arrays(columns, schema=schema))
            written += batch.num_rows
    return written


def _flat_field(column: pa.Field) -> pa.Field:
    """A CSV column: lists and structs become JSON text."""
    return column.with_type(pa.string()) if pa.types.is_nested(column.type) else column


def _flat_column(column: pa.Array) -> pa.Array:
    if not pa.types.is_nested(column.type):
        return column
    texts = [None if v is None else orjson.dumps(v).decode() for v in column.to_pylist()]
    return pa.array(texts, pa.string())
