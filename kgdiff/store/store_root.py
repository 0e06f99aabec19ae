"""How the catalog's views find the store's files, wherever the store is.

The views name their files relative to the store root and read them through the catalog
macro ``kgdiff_store_files`` (``sql/catalog/store_files_macro.sql``), which prefixes
``kgdiff_store_root()``: the variable ``kgdiff_store`` when set, else the folder of the
catalog DuckDB opened (``sql/catalog/store_root_macro.sql``). DuckDB binds a view again at
every query, so a copied or moved store reads its own files at once. kgdiff's connections
set the variable (:func:`open_catalog`), so they never depend on how DuckDB was opened.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import duckdb

from kgdiff.errors import StoreError
from kgdiff.sqlfiles import load_sql
from kgdiff.store.catalog_copy import catalog_copy
from kgdiff.store.layout import StoreLayout
from kgdiff.store.optimizers import disable_wrong_optimizers


def root_macros() -> list[str]:
    """The ``CREATE MACRO`` statements of ``kgdiff_store_root`` and ``kgdiff_store_files``,
    which every view calls (so they are made before the views)."""
    return [load_sql("catalog/store_root_macro"), load_sql("catalog/store_files_macro")]


def store_relative(layout: StoreLayout, path: Path) -> str:
    """``path`` (a file or glob inside the store) as the views name it: relative to the
    store root, with ``/`` separators."""
    return path.relative_to(layout.root).as_posix()


def root_text(layout: StoreLayout) -> str:
    """The store's root as the catalog's views read it (``kgdiff_store``: a trailing ``/``)."""
    return str(layout.root).rstrip("/") + "/"


def set_store_root(connection: duckdb.DuckDBPyConnection, layout: StoreLayout) -> None:
    """Make the catalog's views on ``connection`` read the files of ``layout``'s store."""
    connection.execute(load_sql("catalog/set_store_root"), {"root": root_text(layout)})


CATALOG_MEMORY = "3GB"
"""DuckDB's memory limit on kgdiff's connections to the catalog (its own default is 80 % of the
machine's memory): past it a query spills to disk, so that a command stays within the 4 GB a
step may take at any size (issue 36: the evidence build held 2.7 GB at 3 × 25 M statements
under DuckDB's default, and grew with the store)."""
_LIMIT = "SELECT current_setting('memory_limit')"


@cache
def _duckdb_default_limit() -> str:
    """The memory limit DuckDB gives a database nobody configured, as it reports it."""
    with duckdb.connect() as fresh:
        row = fresh.execute(_LIMIT).fetchone()
    return str(row[0]) if row else ""


def hold_to_catalog_memory(connection: duckdb.DuckDBPyConnection) -> None:
    """Set :data:`CATALOG_MEMORY` on the catalog's database if its limit is still DuckDB's
    default. A process's connections to one file share one database, which refuses a
    connection opened with another configuration than its first: the limit is set on the
    database instead, and one that kgdiff already set (the Python API's, an export's lower
    one, running meanwhile) is left as it is."""
    row = connection.execute(_LIMIT).fetchone()
    if row is not None and str(row[0]) == _duckdb_default_limit():
        connection.execute(f"SET memory_limit = '{CATALOG_MEMORY}'")


def open_catalog(layout: StoreLayout) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the store's catalog whose views read this store's files
    (on the process's private copy, :mod:`kgdiff.store.catalog_copy`, so that a DuckDB
    session on ``kg.duckdb`` is never locked out), held to :data:`CATALOG_MEMORY`; a
    :class:`StoreError` when the store has no catalog."""
    if not layout.catalog.is_file():
        raise StoreError(f"no catalog at {layout.catalog}; ingest a snapshot first")
    connection = duckdb.connect(str(catalog_copy(layout.catalog)), read_only=True)
    try:
        hold_to_catalog_memory(connection)
        disable_wrong_optimizers(connection)
        set_store_root(connection, layout)
    except BaseException:
        connection.close()
        raise
    return connection
