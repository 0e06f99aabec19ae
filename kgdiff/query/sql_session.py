"""One user query on a locked-down connection to the catalog: the query process's work.

The connection is DuckDB's second wall behind kgdiff/query/sql_guard.py, and holds even
for a query that got past the first: the catalog opened read-only; files readable only
under the store's folder (``allowed_directories`` with external access off), so the
catalog's views still read their Parquet files while ``read_csv('/etc/passwd')`` or an
``https://`` URL is refused; no extension installed or loaded behind the query's back (so
httpfs never arrives); no temporary files (``temp_directory`` is empty: a query cannot
spill into the store, whose default would be ``kg.duckdb.tmp``); no Python object as a
table; DuckDB's own time limit; and every setting locked before the query is parsed.

The views read the store's files by paths relative to the process's current folder, which
:func:`answer_json` makes the store's (the variable ``kgdiff_store`` is ``''``): so
``kgdiff_store_root()`` is ``''``, ``kgdiff_store_files``, ``glob`` and the readers'
``filename`` columns answer paths relative to the store, and no answer names the folder
the store is in on the server (issue 34). DuckDB itself still knows it, and the guard
refuses the functions that would tell (kgdiff/query/sql_functions.py).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

import duckdb
import orjson

from kgdiff.query.sql_errors import (
    SqlCrashError,
    SqlError,
    SqlInvalidError,
    SqlRefusedError,
    SqlTooLargeError,
    one_line,
    out_of_memory,
    timed_out,
)
from kgdiff.query.sql_guard import checked_statement
from kgdiff.query.sql_limits import SqlLimits
from kgdiff.query.sql_rows import rows_json
from kgdiff.sqlfiles import load_sql
from kgdiff.store.layout import StoreLayout
from kgdiff.store.optimizers import disabled_names
from kgdiff.store.store_root import root_text


def _config(limits: SqlLimits) -> dict[str, Any]:
    """Settings DuckDB takes when it starts (some it refuses once the database runs)."""
    return {
        "threads": limits.threads,
        # DuckDB 2.0 starts 8 I/O threads per database whatever "threads" says, each with a
        # stack and a malloc arena: 0.6 GB of the process's capped address space, unused
        # by a query over local files.
        "async_threads": 0,
        "memory_limit": limits.memory_limit,
        "disabled_optimizers": disabled_names(),  # kgdiff/store/optimizers.py
        "max_execution_time": limits.timeout_ms,
        "temp_directory": "",
        "max_temp_directory_size": "0KB",
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
        "allow_community_extensions": False,
        "allow_unsigned_extensions": False,
        "allow_persistent_secrets": False,
        "python_enable_replacements": False,
    }


def locked_connection(
    layout: StoreLayout, catalog: Path, limits: SqlLimits
) -> duckdb.DuckDBPyConnection:
    """A read-only connection to ``catalog`` (a private copy of the store's catalog, see
    :mod:`kgdiff.store.catalog_copy`) that can read only the store's files, whose views read
    the files under the current folder (the variable ``kgdiff_store`` is ``''``: make the
    store's folder the current one first), with its settings locked."""
    connection = duckdb.connect(str(catalog), read_only=True, config=_config(limits))
    try:
        # allowed_directories can only be set once the database runs, and before external
        # access goes off; the trailing '/' keeps '/data/kg2' out of '/data/kg/'.
        folders = [root_text(layout)]
        connection.execute(load_sql("safe_sql/allowed_directories"), {"folders": folders})
        connection.execute(load_sql("safe_sql/disable_external_access"))
        connection.execute(load_sql("safe_sql/no_progress_bar"))
        connection.execute(load_sql("catalog/set_store_root"), {"root": ""})
        connection.execute(load_sql("safe_sql/lock_configuration"))
    except BaseException:
        connection.close()
        raise
    return connection


def answer_json(layout: StoreLayout, catalog: Path, query: str, limits: SqlLimits) -> bytes:
    """The answer to ``query`` as JSON (``columns``, ``types``, ``rows``, ``truncated``),
    or a :class:`SqlError` saying why there is none."""
    deadline = time.monotonic() + limits.timeout_seconds
    os.chdir(layout.root)  # what the views' relative paths start from (this process's alone)
    try:
        connection = locked_connection(layout, catalog, limits)
    except duckdb.Error as exc:  # a damaged or unreadable catalog: not the query's doing
        raise SqlCrashError(f"cannot open the store's catalog: {one_line(str(exc))}") from None
    # DuckDB's max_execution_time is checked only in some operators; interrupt() stops the
    # query at the next vector wherever it is, and the parent kills what neither stops.
    timer = threading.Timer(limits.timeout_seconds, _interrupt, (connection,))
    timer.daemon = True
    timer.start()
    try:
        statement = checked_statement(connection, query)
        connection.execute(statement)
        return _answer(connection, limits, deadline)
    except duckdb.Error as exc:
        raise _translated(exc, limits) from None
    except MemoryError:
        raise out_of_memory(limits, "the answer did not fit in the process") from None
    except RecursionError:  # a value nested deeper than Python's recursion limit
        raise SqlTooLargeError(
            "too deep: the answer nests lists or structs deeper than JSON is written here "
            f"(about {sys.getrecursionlimit()} levels); select less nested values"
        ) from None
    finally:
        timer.cancel()
        connection.close()


def _interrupt(connection: duckdb.DuckDBPyConnection) -> None:
    """Interrupt the connection's query; nothing if the connection has just been closed."""
    with suppress(duckdb.Error):
        connection.interrupt()


def _answer(connection: duckdb.DuckDBPyConnection, limits: SqlLimits, deadline: float) -> bytes:
    """The answer's JSON: the columns, their types, the rows and whether rows were left out."""
    description = connection.description or []
    rows, more = rows_json(connection, limits, deadline)
    header = {
        "columns": [str(column[0]) for column in description],
        "types": [str(column[1]) for column in description],
        "truncated": more,
    }
    return b"".join((orjson.dumps(header)[:-1], b',"rows":[', rows, b"]}"))


def _translated(exc: duckdb.Error, limits: SqlLimits) -> SqlError:
    """The user's error for DuckDB's, in one line."""
    message = one_line(str(exc))
    if isinstance(exc, duckdb.InterruptException):
        return timed_out(limits)
    if isinstance(exc, duckdb.OutOfMemoryException):
        return out_of_memory(limits, message)
    if isinstance(exc, duckdb.PermissionException):
        return SqlRefusedError(f"refused by DuckDB: {message}")
    return SqlInvalidError(message)
