"""Turn a staging folder's part files into the published tables, with DuckDB."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from kgdiff.sqlfiles import render
from kgdiff.store.layout import TABLES
from kgdiff.store.staging import Staging

DEFAULT_MEMORY_LIMIT = "1GB"


def _statements(staging: Staging, out: Path) -> list[str]:
    parts = {table: staging.part_files(table) for table in TABLES}
    return [
        render(
            "ingest/finalize_entities",
            entity_parts=parts["entities"],
            statement_parts=parts["statements"],
            out=str(out / "entities.parquet"),
        ),
        render(
            "ingest/finalize_labels", label_parts=parts["labels"], out=str(out / "labels.parquet")
        ),
        render(
            "ingest/finalize_sitelinks",
            sitelink_parts=parts["sitelinks"],
            out=str(out / "sitelinks.parquet"),
        ),
        render(
            "ingest/finalize_statements",
            statement_parts=parts["statements"],
            out=str(out / "statements.parquet"),
        ),
        render(
            "ingest/finalize_qualifiers",
            qualifier_parts=parts["qualifiers"],
            out=str(out / "qualifiers.parquet"),
        ),
    ]


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


def finalize(
    staging: Staging, threads: int, memory_limit: str = DEFAULT_MEMORY_LIMIT
) -> tuple[dict[str, int], str | None]:
    """Write the sorted tables into a fresh ``final`` folder; return row counts and rejects file."""
    out = staging.fresh_final()
    spill = staging.dir / "spill"
    spill.mkdir(exist_ok=True)
    connection = duckdb.connect(
        config={
            "threads": max(1, threads),
            "memory_limit": memory_limit,
            "temp_directory": str(spill),
            "preserve_insertion_order": False,
        }
    )
    try:
        for statement in _statements(staging, out):
            connection.execute(statement)
    except (duckdb.InterruptException, RuntimeError) as exc:
        # Ctrl-C reaches DuckDB first while a query runs; it answers "Query interrupted".
        if isinstance(exc, duckdb.InterruptException) or "interrupted" in str(exc).lower():
            raise KeyboardInterrupt from exc
        raise
    finally:
        connection.close()
        shutil.rmtree(spill, ignore_errors=True)
    counts = {table: pq.ParquetFile(out / f"{table}.parquet").metadata.num_rows for table in TABLES}
    return counts, _merge_rejects(staging, out)
