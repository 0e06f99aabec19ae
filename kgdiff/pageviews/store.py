"""Page view sources in the store: one immutable folder per source.

::

    STORE/pageviews/source=NAME/      published by renaming a finished temp folder
        pageviews.parquet             wiki, title, period_start, period, access, agent, views
        manifest.json                 source (path, size, sha256 or request), counts, rejects,
                                      files (size, sha256, rows of pageviews.parquet)

Rows that repeat a (wiki, title, period_start, period, access, agent) key are summed. The
rows are first spooled to a raw Parquet file, then DuckDB groups them (spilling to disk
when needed) and pyarrow writes the result, so memory stays bounded for any input size.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.errors import StoreError
from kgdiff.readers.pageviews import PageviewRow
from kgdiff.sqlfiles import render
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.inventory import file_records
from kgdiff.store.layout import StoreLayout, check_name
from kgdiff.store.optimizers import connect

FOLDER = "pageviews"
TABLE_FILE = "pageviews.parquet"
MANIFEST_FILE = "manifest.json"
BATCH_ROWS = 100_000
SCHEMA = pa.schema(
    [
        ("wiki", pa.string()),
        ("title", pa.string()),
        ("period_start", pa.date32()),
        ("period", pa.string()),
        ("access", pa.string()),
        ("agent", pa.string()),
        ("views", pa.int64()),
    ]
)


def check_source_name(name: str) -> str:
    """Return ``name`` if it can name a page view source, else raise :class:`UsageError`."""
    return check_name(name, "--source")


def pageviews_root(layout: StoreLayout) -> Path:
    """``STORE/pageviews``."""
    return layout.pageviews_dir


def source_dir(layout: StoreLayout, name: str) -> Path:
    """The folder of the published source ``name``."""
    return layout.pageview_source_dir(check_source_name(name))


def published_sources(layout: StoreLayout) -> list[str]:
    """Names of the published page view sources, sorted."""
    return layout.pageview_sources()


def table_files(layout: StoreLayout) -> list[str]:
    """The Parquet files of every published source (for ``read_parquet``)."""
    return [str(source_dir(layout, name) / TABLE_FILE) for name in published_sources(layout)]


def read_manifest(layout: StoreLayout, name: str) -> dict[str, Any] | None:
    """The manifest of source ``name``, or ``None`` if it is not published."""
    path = source_dir(layout, name) / MANIFEST_FILE
    if not path.is_file():
        return None
    manifest: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return manifest


def publish(
    layout: StoreLayout,
    name: str,
    rows: Iterable[PageviewRow],
    finish: Callable[[int], dict[str, Any]],
) -> dict[str, Any]:
    """Write ``rows`` (summed per key) as source ``name`` with the manifest that
    ``finish(rows written)`` returns once every row is read; atomically, so nothing is
    published if anything fails. Returns the manifest."""
    final = source_dir(layout, name)
    with _work_folder(layout, name) as work:
        raw = work / "raw.parquet"
        _spool(rows, raw)
        written = _aggregate(raw, work / TABLE_FILE, work / "spill")
        raw.unlink()
        shutil.rmtree(work / "spill", ignore_errors=True)  # published: the table and manifest
        manifest = finish(written)
        manifest["files"] = msgspec.to_builtins(file_records(work))  # for kgdiff store check
        (work / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
        with store_lock(layout):
            try:
                work.rename(final)
            except OSError as exc:
                raise StoreError(
                    f"{final} appeared while ingesting (another run?); remove it or pick "
                    "another --source"
                ) from exc
            rebuild_catalog(layout)
    return manifest


@contextmanager
def _work_folder(layout: StoreLayout, name: str) -> Iterator[Path]:
    work = pageviews_root(layout) / f".tmp-{name}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _spool(rows: Iterable[PageviewRow], path: Path) -> None:
    with pq.ParquetWriter(path, SCHEMA, compression="zstd") as writer:
        for batch in _batches(rows):
            writer.write_batch(batch)


def _batches(rows: Iterable[PageviewRow]) -> Iterator[pa.RecordBatch]:
    chunk: list[PageviewRow] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= BATCH_ROWS:
            yield _batch(chunk)
            chunk = []
    if chunk:
        yield _batch(chunk)


def _batch(chunk: list[PageviewRow]) -> pa.RecordBatch:
    columns = [[getattr(row, name) for row in chunk] for name in SCHEMA.names]
    return pa.record_batch(columns, schema=SCHEMA)


def _aggregate(raw: Path, out: Path, spill: Path) -> int:
    """Sum the raw rows per key into ``out``, sorted by wiki, title and period; row count."""
    written = 0
    with (
        connect(
            {"threads": 2, "memory_limit": "600MB", "temp_directory": str(spill)}
        ) as connection,
        pq.ParquetWriter(out, SCHEMA, compression="zstd") as writer,
    ):
        relation = connection.sql(render("pageviews/aggregate", raw=str(raw)))
        for batch in relation.to_arrow_reader(BATCH_ROWS):
            writer.write_batch(batch.cast(SCHEMA))
            written += batch.num_rows
    return written
