"""Check a snapshot folder before it is published: every file the catalog's views read is
there, readable, and holds the rows its manifest counts.

A view over a table folder reads a glob of its part files, and DuckDB refuses a glob that
matches nothing: a folder published without them would break every later catalog rebuild.
The publishing step calls :func:`check_complete` before its rename, so such a folder never
becomes a snapshot, whatever went wrong before (a bug, a disk that lost a file).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.errors import StoreError
from kgdiff.store.coverage import COVERAGE_TABLE
from kgdiff.store.delta import CHANGES_TABLE
from kgdiff.store.layout import TABLES, WIKIPEDIA_TABLES, table_files
from kgdiff.store.manifest import SUBSET, Manifest

COVERED = "covered"
"""The manifest's count of the coverage table's rows."""


def expected_tables(manifest: Manifest) -> dict[str, str]:
    """The tables a snapshot of this manifest must hold, each with the key of its row count
    in the manifest's ``stored_counts`` (a delta's ``changes`` table too)."""
    if manifest.kind == "wikipedia":
        return {table: table for table in WIKIPEDIA_TABLES}
    tables = {table: table for table in TABLES}
    if manifest.coverage == SUBSET:
        tables[COVERAGE_TABLE] = COVERED
    if manifest.delta is not None:
        tables[CHANGES_TABLE] = CHANGES_TABLE
    return tables


class _IncompleteError(Exception):
    """What is wrong with the folder, in a few words."""


def _rows(files: list[Path]) -> int:
    """Rows of the Parquet ``files``, from their footers."""
    total = 0
    for path in files:
        try:
            total += pq.read_metadata(path).num_rows
        except (pa.ArrowInvalid, OSError) as exc:
            where = f"{path.parent.name}/{path.name}"
            raise _IncompleteError(f"{where} is unreadable ({exc})") from exc
    return total


def _check_table(folder: Path, table: str, count: int | None) -> None:
    files = table_files(folder, table)
    if not files:
        raise _IncompleteError(f"table {table} has no Parquet file")
    rows = _rows(files)
    if count is not None and rows != count:
        raise _IncompleteError(f"table {table} holds {rows:,} rows, its manifest counts {count:,}")


def check_complete(folder: Path, manifest: Manifest) -> None:
    """Raise :class:`StoreError` unless ``folder`` holds every table of ``manifest`` (at
    least one readable Parquet file each, with the rows the manifest counts)."""
    try:
        for table, key in expected_tables(manifest).items():
            _check_table(folder, table, manifest.stored_counts.get(key))
    except _IncompleteError as problem:
        raise StoreError(
            f"snapshot {manifest.name!r} is incomplete: {problem}; nothing was published "
            f"(the unfinished folder is {folder}); please report this with the input"
        ) from None
