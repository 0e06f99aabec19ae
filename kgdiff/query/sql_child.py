"""The process one user query runs in (started by kgdiff/query/safe_sql.py).

Its own process, so that what DuckDB's limits do not catch cannot reach the service: the
address space is capped (``RLIMIT_AS``), so a string DuckDB does not count against its
memory limit ends in an out-of-memory error here rather than in the service's memory; a
query that ignores the interrupt is killed; a crash ends only this process; its environment
is emptied, so DuckDB shows none of it; and the kernel refuses it every file-system change
and TCP connection (kgdiff/query/write_barrier.py), whatever statement reached DuckDB.
It answers once, through ``writer``, with the answer's
JSON or an error's class name and message.
"""

from __future__ import annotations

import os
import resource
from multiprocessing.connection import Connection
from pathlib import Path

import orjson

from kgdiff.children import die_with_parent
from kgdiff.query.sql_errors import SqlCrashError, SqlError, SqlOutOfMemoryError
from kgdiff.query.sql_limits import SqlLimits
from kgdiff.query.sql_session import answer_json
from kgdiff.query.write_barrier import forbid_writes
from kgdiff.store.layout import StoreLayout

KEPT_ENVIRONMENT = frozenset({"TZ"})


def serve(root: str, catalog: str, query: str, limits: SqlLimits, writer: Connection) -> None:
    """Answer ``query`` over the store at ``root`` and send the result through ``writer``;
    ``catalog`` is the caller's private copy of the store's catalog (the query never opens
    ``kg.duckdb`` itself, so a DuckDB session on it is never locked out)."""
    die_with_parent()
    try:
        cap_address_space(limits.address_space_bytes)
        scrub_environment()
        forbid_writes()  # before DuckDB starts: no thread of it ever runs unrestricted
        payload = answer_json(StoreLayout(Path(root)), Path(catalog), query, limits)
    except SqlError as exc:
        payload = _error(type(exc).__name__, str(exc))
    except MemoryError:
        message = f"out of memory: the query's process reached its cap ({limits.memory_limit})"
        payload = _error(SqlOutOfMemoryError.__name__, message)
    except Exception as exc:  # a bug: report it rather than end without a word
        message = f"the query's process failed: {type(exc).__name__}: {exc}"
        payload = _error(SqlCrashError.__name__, message)
    try:
        writer.send_bytes(payload)
    finally:
        writer.close()


def cap_address_space(limit: int) -> None:
    """Cap this process's address space at ``limit`` bytes (never above a lower hard cap)."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def scrub_environment() -> None:
    """Forget the environment but ``TZ`` before DuckDB starts: DuckDB takes some settings
    from it and shows them to any query (``current_setting('http_proxy')`` is
    ``$HTTP_PROXY``, a proxy password included), and nothing the query process does needs
    the rest. ``TZ`` stays so that time zones answer as in the service."""
    for name in list(os.environ):
        if name not in KEPT_ENVIRONMENT:
            del os.environ[name]


def _error(name: str, message: str) -> bytes:
    return orjson.dumps({"error": name, "message": message})
