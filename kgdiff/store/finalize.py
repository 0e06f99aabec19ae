"""Turn a staging folder's part files into the published tables, with DuckDB.

Each table becomes a folder of ``part-NNNNN.parquet`` files, one per bucket (a range of
subjects, see :mod:`kgdiff.store.buckets`), each sorted; in file order they are the
whole table sorted.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from kgdiff.sqlfiles import Literal, render
from kgdiff.store.buckets import Bucket, PartFile, bucket_budget, bucket_count, plan_buckets
from kgdiff.store.layout import TABLES
from kgdiff.store.publish import fsync_dir
from kgdiff.store.staging import Staging, part_name

DEFAULT_MEMORY_LIMIT_MB = 1024
PART_PARAMETER = {
    "entities": "entity_parts",
    "labels": "label_parts",
    "sitelinks": "sitelink_parts",
    "statements": "statement_parts",
    "qualifiers": "qualifier_parts",
}


def _part_files(staging: Staging) -> dict[str, list[PartFile]]:
    """Every table's part files in chunk order, with their size and subject range."""
    metas = sorted(staging.finished().values(), key=lambda meta: meta.seq)
    files: dict[str, list[PartFile]] = {table: [] for table in TABLES}
    for meta in metas:
        folder = staging.parts / part_name(meta.seq)
        for table in TABLES:
            path = folder / f"{table}.parquet"
            files[table].append(PartFile(str(path), path.stat().st_size, meta.key_ranges))
    return files


def _quantiles(
    connection: duckdb.DuckDBPyConnection, entity_parts: list[PartFile], count: int
) -> list[str]:
    """The ``count - 1`` entity ids that cut the entities into ``count`` equal ranges."""
    if count <= 1:
        return []
    fractions = [index / count for index in range(1, count)]
    statement = render(
        "ingest/bucket_bounds", entity_parts=[f.path for f in entity_parts], fractions=fractions
    )
    row = connection.execute(statement).fetchone()
    return list(row[0]) if row and row[0] else []


def _statement(table: str, bucket: Bucket, out: Path) -> str:
    literals: dict[str, Literal] = {PART_PARAMETER[table]: bucket.files}
    if table == "entities":  # the P31 types come from the same chunks' statements
        literals["statement_parts"] = [
            str(Path(path).with_name("statements.parquet")) for path in bucket.files
        ]
    return render(f"ingest/finalize_{table}", lo=bucket.lo, hi=bucket.hi, out=str(out), **literals)


def _write_table(
    connection: duckdb.DuckDBPyConnection, table: str, buckets: list[Bucket], out: Path
) -> int:
    """Write one table's buckets into ``out/TABLE/``; return its row count."""
    folder = out / table
    folder.mkdir()
    rows = 0
    for index, bucket in enumerate(buckets):
        target = folder / f"part-{index:05d}.parquet"
        connection.execute(_statement(table, bucket, target))
        rows += pq.ParquetFile(target).metadata.num_rows
    fsync_dir(folder)
    return rows


def _merge_rejects(staging: Staging, out: Path) -> str | None:
    files = staging.reject_files()
    if not files:
        return None
    target = out / "rejects.jsonl"
    with target.open("wb") as sink:
        for path in files:
            with path.open("rb") as source:
                shutil.copyfileobj(source, sink)
    return target.name


def _connect(staging: Staging, threads: int, memory_limit_mb: int) -> duckdb.DuckDBPyConnection:
    spill = staging.dir / "spill"
    spill.mkdir(exist_ok=True)
    return duckdb.connect(
        config={
            "threads": max(1, threads),
            "memory_limit": f"{memory_limit_mb}MB",
            "temp_directory": str(spill),
            "preserve_insertion_order": False,
        }
    )


def finalize(
    staging: Staging,
    threads: int,
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
    bucket_bytes: int | None = None,
) -> tuple[dict[str, int], str | None]:
    """Write the sorted tables into a fresh ``final`` folder; return row counts and rejects file.

    ``bucket_bytes``: part-file bytes per bucket (default: what fits ``memory_limit_mb``).
    """
    out = staging.fresh_final()
    files = _part_files(staging)
    budget = bucket_bytes or bucket_budget(memory_limit_mb)
    counts = {table: bucket_count(sum(f.size for f in files[table]), budget) for table in TABLES}
    connection = _connect(staging, threads, memory_limit_mb)
    try:
        quantiles = _quantiles(connection, files["entities"], max(counts.values()))
        rows = {
            table: _write_table(
                connection, table, plan_buckets(files[table], quantiles, counts[table]), out
            )
            for table in TABLES
        }
    except (duckdb.InterruptException, RuntimeError) as exc:
        # Ctrl-C reaches DuckDB first while a query runs; it answers "Query interrupted".
        if isinstance(exc, duckdb.InterruptException) or "interrupted" in str(exc).lower():
            raise KeyboardInterrupt from exc
        raise
    finally:
        connection.close()
        shutil.rmtree(staging.dir / "spill", ignore_errors=True)
    return rows, _merge_rejects(staging, out)
