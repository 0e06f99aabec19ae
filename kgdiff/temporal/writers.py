"""Write query results to JSON lines or Parquet (flat rows also to CSV), atomically (a temp
file renamed at the end)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq

from kgdiff.errors import UsageError

COPY_FORMATS = {".jsonl": "json", ".parquet": "parquet"}
FLAT_SUFFIXES = (".jsonl", ".csv", ".parquet")
"""The outputs of rows without lists or structs, which a CSV file can hold too."""


def check_out(out: Path, suffixes: Sequence[str] = tuple(COPY_FORMATS)) -> str:
    """The output format of ``out`` (its suffix, one of ``suffixes``); a usage error for any
    other name."""
    suffix = out.suffix.lower()
    if suffix not in suffixes:
        names = f"{', '.join(suffixes[:-1])} or {suffixes[-1]}"
        raise UsageError(f"--out {out}: use a {names} file name")
    return suffix


def copy_format(out: Path) -> str:
    """The DuckDB ``COPY … (FORMAT …)`` name for ``out``: ``json`` (lines) or ``parquet``."""
    return COPY_FORMATS[check_out(out)]


@contextmanager
def published(out: Path) -> Iterator[Path]:
    """A temporary path next to ``out`` that replaces it when the block ends without error."""
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    try:
        yield tmp
        tmp.replace(out)
    finally:
        tmp.unlink(missing_ok=True)


def write_reader(
    reader: pa.RecordBatchReader, out: Path, suffixes: Sequence[str] = tuple(COPY_FORMATS)
) -> int:
    """Write every row of ``reader`` to ``out`` (.jsonl or .parquet, or another of
    ``suffixes``: .csv for flat rows); return how many."""
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
    with pcsv.CSVWriter(str(path), reader.schema) as writer:
        for batch in reader:
            writer.write_batch(batch)
            written += batch.num_rows
    return written
