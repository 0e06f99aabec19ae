"""``kgdiff snapshots compact NAME``: rewrite a snapshot stored as a delta as a whole one.

Its rows are read whole through the catalog's views (:mod:`kgdiff.store.delta`), a range of
subjects at a time (memory stays bounded), sorted as an ingest sorts them, and written with
the ingest's own writer, into a folder beside the store's staging. The manifest keeps every
field but ``delta`` and records the SHA-256 of the manifest it replaces in
``compacted_from``, so a delta made on this snapshot still finds its base. The new folder
takes the old one's place by one atomic exchange of the two (``renameat2``), under the store
lock, and the catalog is rebuilt; the old folder is then deleted.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import itertools
import math
import os
import shutil
import time
from pathlib import Path

import duckdb
import msgspec
import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.errors import StoreError, UsageError
from kgdiff.rows.schema import PUBLISHED_SCHEMAS
from kgdiff.sqlfiles import load_sql, render
from kgdiff.store.bucket_sort import SORT_KEYS, sorted_rows, write_rows
from kgdiff.store.buckets import KEY_COLUMNS
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.complete import check_complete
from kgdiff.store.coverage import COVERAGE_SCHEMA, COVERAGE_TABLE
from kgdiff.store.delta import manifest_sha256
from kgdiff.store.inventory import file_records
from kgdiff.store.layout import TABLES, StoreLayout, table_files
from kgdiff.store.manifest import SUBSET, Manifest, write_manifest
from kgdiff.store.publish import fsync_dir
from kgdiff.store.store_root import open_catalog
from kgdiff.store.vetting import wikidata_snapshots

ROWS_PER_FILE = 8_000_000
"""Statements per written range (and file): what one sort holds in memory at once."""
RENAME_EXCHANGE = 2
PAST_EVERY_SUBJECT = "\U0010ffff"
"""Upper bound of the last range: sorts after every entity id."""


def compact_snapshot(layout: StoreLayout, name: str) -> Manifest:
    """Rewrite the delta ``name`` whole; return its new manifest."""
    manifest = _delta(layout, name)
    started = time.monotonic()
    work = layout.staging_dir / f".tmp-compact-{name}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        _write_tables(layout, manifest, work)
        old = manifest_sha256(layout.snapshot_dir(name))
        timings = {**manifest.timings, "compact_seconds": round(time.monotonic() - started, 3)}
        compacted = msgspec.structs.replace(
            manifest,
            delta=None,
            compacted_from=[*manifest.compacted_from, old],
            files=None,
            timings=timings,
        )
        check_complete(work, compacted)
        compacted = msgspec.structs.replace(compacted, files=file_records(work))
        write_manifest(work / "manifest.json", compacted)
        fsync_dir(work)
        _swap_in(layout, work, name, old)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return compacted


def _delta(layout: StoreLayout, name: str) -> Manifest:
    shown = {m.name: m for m in wikidata_snapshots(layout)[0]}
    manifest = shown.get(name)
    if manifest is None:
        known = ", ".join(sorted(shown)) or "none"
        raise UsageError(
            f"no snapshot {name!r} the catalog shows in {layout.root} (known: {known})"
        )
    if manifest.delta is None:
        raise UsageError(f"snapshot {name!r} is stored whole already; nothing to compact")
    return manifest


def write_whole(layout: StoreLayout, name: str, parent: Path) -> Path:
    """Write the tables of snapshot ``name`` read whole into ``parent/snapshot=NAME`` (for a
    reader of a snapshot's files, such as ``kgdiff export rdf``, given a delta); the folder."""
    shown = {m.name: m for m in wikidata_snapshots(layout)[0]}
    if name not in shown:
        raise UsageError(f"no snapshot {name!r} the catalog shows in {layout.root}")
    folder = parent / f"snapshot={name}"
    folder.mkdir(parents=True)
    _write_tables(layout, shown[name], folder)
    return folder


def _write_tables(layout: StoreLayout, manifest: Manifest, work: Path) -> None:
    tables = [*TABLES, COVERAGE_TABLE] if manifest.coverage == SUBSET else list(TABLES)
    connection = open_catalog(layout)
    try:
        ranges = _ranges(connection, layout, manifest)
        for table in tables:
            (work / table).mkdir()
            for index, (lo, hi) in enumerate(ranges):
                rows = _range_rows(connection, table, manifest.name, lo, hi)
                target = work / table / f"part-{index:05d}.parquet"
                if table == COVERAGE_TABLE:
                    pq.write_table(rows, target, compression="zstd")
                else:
                    write_rows(table, rows, target)
    finally:
        connection.close()


def _ranges(
    connection: duckdb.DuckDBPyConnection, layout: StoreLayout, manifest: Manifest
) -> list[tuple[str, str]]:
    """Subject ranges of about :data:`ROWS_PER_FILE` statements each, cut at row-group
    bounds of the statements of the snapshot the delta's chain ends at."""
    count = math.ceil(manifest.counts.get("statements", 0) / ROWS_PER_FILE)
    if count <= 1:
        return [("", PAST_EVERY_SUBJECT)]
    root = manifest
    shown = {m.name: m for m in wikidata_snapshots(layout)[0]}
    while root.delta is not None:
        root = shown[root.delta.base]
    files = [str(path) for path in table_files(layout.snapshot_dir(root.name), "statements")]
    found = connection.execute(load_sql("classify/part_bounds"), {"files": files}).fetchall()
    bounds = [str(row[0]) for row in found]
    cuts = sorted({bounds[len(bounds) * i // count] for i in range(1, count)} - {""})
    edges = ["", *cuts, PAST_EVERY_SUBJECT]
    return list(itertools.pairwise(edges))


def _range_rows(
    connection: duckdb.DuckDBPyConnection, table: str, name: str, lo: str, hi: str
) -> pa.Table:
    """The rows of ``table`` of snapshot ``name`` in ``[lo, hi)``, in the published order."""
    sql = render("store/snapshot_range", table=table, key=KEY_COLUMNS.get(table, "qid"))
    found = connection.execute(sql, {"name": name, "lo": lo, "hi": hi}).to_arrow_table()
    rows = sorted_rows(found, SORT_KEYS.get(table, ("qid",)))
    schema = PUBLISHED_SCHEMAS.get(table, COVERAGE_SCHEMA)
    return rows.select(schema.names).cast(schema)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders in one step (Linux ``renameat2``); False where it cannot."""
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    at_fdcwd = -100
    done: int = renameat2(
        at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), RENAME_EXCHANGE
    )
    return done == 0


def _swap_in(layout: StoreLayout, work: Path, name: str, old_sha256: str) -> None:
    """Put ``work`` in the place of the snapshot folder ``name`` (still the one whose manifest
    had ``old_sha256``), rebuild the catalog; ``work`` then holds the old folder."""
    target = layout.snapshot_dir(name)
    with store_lock(layout):
        if manifest_sha256(target) != old_sha256:
            raise StoreError(f"snapshot {name!r} changed while it was compacted; run it again")
        if not _exchange(work, target):
            aside = work.with_name(f".trash-compact-{name}-{os.getpid()}")
            target.rename(aside)
            work.rename(target)
            aside.rename(work)
        fsync_dir(target.parent)
        rebuild_catalog(layout)
