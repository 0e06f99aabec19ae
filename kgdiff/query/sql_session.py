"""One user query on a locked-down connection to the catalog: the query process's work.

The connection is DuckDB's second wall behind kgdiff/query/sql_guard.py, and holds even
for a query that got past the first: the catalog opened read-only; files readable only
under the store's folder (``allowed_directories`` with external access off), so the
catalog's views still read their Parquet files while ``read_csv('/etc/passwd')`` or an
``https://`` URL is refused; no extension installed or loaded behind the query's back (so
httpfs never arrives); no temporary files (``temp_directory`` is empty: a query cannot
spill into the store, whose default would be ``kg.duckdb.tmp``); no Python object as a
table; DuckDB's own time limit; and every setting locked before the query is parsed.
"""

from __future__ import annotations

import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

import duckdb
import orjson

from kgdiff.query.json_values import to_json
from kgdiff.query.sql_errors import (
    SqlCrashError,
    SqlError,
    SqlInvalidError,
    SqlRefusedError,
    SqlTimeoutError,
    SqlTooLargeError,
    one_line,
)
from kgdiff.query.sql_guard import checked_statement
from kgdiff.query.sql_limits import SqlLimits
from kgdiff.sqlfiles import load_sql
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import set_store_root

BATCH_ROWS = 1000


def _config(limits: SqlLimits) -> dict[str, Any]:
    """Settings DuckDB takes when it starts (some it refuses once the database runs)."""
    return {
        "threads": limits.threads,
        "memory_limit": limits.memory_limit,
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
    this store (the variable ``kgdiff_store``), with its settings locked."""
    connection = duckdb.connect(str(catalog), read_only=True, config=_config(limits))
    try:
        # allowed_directories can only be set once the database runs, and before external
        # access goes off; the trailing '/' keeps '/data/kg2' out of '/data/kg/'.
        root = str(layout.root).rstrip("/") + "/"
        connection.execute(load_sql("safe_sql/allowed_directories"), {"folders": [root]})
        connection.execute(load_sql("safe_sql/disable_external_access"))
        connection.execute(load_sql("safe_sql/no_progress_bar"))
        set_store_root(connection, layout)
        connection.execute(load_sql("safe_sql/lock_configuration"))
    except BaseException:
        connection.close()
        raise
    return connection


def answer_json(layout: StoreLayout, catalog: Path, query: str, limits: SqlLimits) -> bytes:
    """The answer to ``query`` as JSON (``columns``, ``types``, ``rows``, ``truncated``),
    or a :class:`SqlError` saying why there is none."""
    deadline = time.monotonic() + limits.timeout_seconds
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
        return _fetch(connection, limits, deadline)
    except duckdb.Error as exc:
        raise _translated(exc, limits) from None
    except MemoryError:
        raise _out_of_memory(limits, "the answer did not fit in the process") from None
    finally:
        timer.cancel()
        connection.close()


def _interrupt(connection: duckdb.DuckDBPyConnection) -> None:
    """Interrupt the connection's query; nothing if the connection has just been closed."""
    with suppress(duckdb.Error):
        connection.interrupt()


def _fetch(connection: duckdb.DuckDBPyConnection, limits: SqlLimits, deadline: float) -> bytes:
    """Up to ``max_rows`` rows, and whether there are more (one more row is asked for),
    fetched in batches from DuckDB's stream: a billion-row answer is never made whole."""
    description = connection.description or []
    kept: list[bytes] = []
    size, more = 0, False
    while not more:
        batch = connection.fetchmany(min(BATCH_ROWS, limits.max_rows + 1 - len(kept)))
        if not batch:
            break
        for row in batch:
            if len(kept) == limits.max_rows:
                more = True
                break
            kept.append(orjson.dumps([to_json(value) for value in row]))
            size += len(kept[-1]) + 1
            if size > limits.max_result_bytes:
                raise _too_large(limits)
        if time.monotonic() > deadline:
            raise _timed_out(limits)
    header = {
        "columns": [str(column[0]) for column in description],
        "types": [str(column[1]) for column in description],
        "truncated": more,
    }
    return orjson.dumps(header)[:-1] + b',"rows":[' + b",".join(kept) + b"]}"


def _translated(exc: duckdb.Error, limits: SqlLimits) -> SqlError:
    """The user's error for DuckDB's, in one line."""
    message = one_line(str(exc))
    if isinstance(exc, duckdb.InterruptException):
        return _timed_out(limits)
    if isinstance(exc, duckdb.OutOfMemoryException):
        return _out_of_memory(limits, message)
    if isinstance(exc, duckdb.PermissionException):
        return SqlRefusedError(f"refused by DuckDB: {message}")
    return SqlInvalidError(message)


def _timed_out(limits: SqlLimits) -> SqlTimeoutError:
    return SqlTimeoutError(
        f"timed out: the query ran past its time limit of {limits.timeout_seconds:g} s "
        "and was interrupted"
    )


def _too_large(limits: SqlLimits) -> SqlTooLargeError:
    return SqlTooLargeError(
        f"too large: the answer exceeds {limits.max_result_bytes:,} bytes of JSON; "
        "select fewer columns or rows"
    )


def _out_of_memory(limits: SqlLimits, detail: str) -> SqlTooLargeError:
    return SqlTooLargeError(
        f"out of memory: the query needs more than its memory limit of {limits.memory_limit}"
        f" ({detail})"
    )
