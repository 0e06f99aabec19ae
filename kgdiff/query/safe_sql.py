"""Answer one untrusted, read-only SQL query over a store's catalog (issue 23, ``/v1/sql``).

:func:`run_safe_sql` takes the user's text as it came and answers it, or refuses it with one
line. Three walls, each enough on its own for most attacks and together for all we know of:

1. kgdiff/query/sql_guard.py: DuckDB's parser must find exactly one statement, of type
   SELECT, whose parse tree calls no function that writes, runs SQL given as text or leaves
   the store, and no table function outside an allow-list;
2. kgdiff/query/sql_session.py: the connection is read-only, reads files only under the
   store's folder, loads no extension, spills nothing, and has its settings locked;
3. kgdiff/query/sql_child.py: the query runs in a child process of its own with a capped
   address space, interrupted at its time limit and killed if that does not stop it, which
   the kernel forbids to change any file or open a TCP connection (Landlock,
   kgdiff/query/write_barrier.py): DuckDB's guards let a COPY write into the store's folder,
   since the views must read it, so this is what holds if the first wall ever fails.

``SELECT 42`` takes ~70 ms this way against ~45 ms on a locked-down connection opened in the
caller's process (DuckDB 2.0.1, 2 cores, 2026-11-26; medians of 30, the process forked from
a server that preloaded DuckDB: :func:`prepare_sql_processes`). The ~25 ms buy what no DuckDB
setting gives: a memory cap on what DuckDB does not count (``repeat('x', 1e9)`` grew a
process by ~3 GB past a 1 GB memory_limit, and took 9.8 s to heed an interrupt sent at 3 s),
a kill for a query that does not heed the interrupt, and no conflict with the service's own
connections to the catalog (DuckDB refuses a second configuration of one file in a
process). Safe to call from many threads at once: every call has its own process and pipe.
"""

from __future__ import annotations

import logging
import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import orjson

from kgdiff.errors import StoreError
from kgdiff.query.json_values import Json
from kgdiff.query.service_children import service_forkserver, start_service_forkserver
from kgdiff.query.sql_errors import (
    SqlCrashError,
    SqlError,
    SqlOutOfMemoryError,
    SqlTimeoutError,
    SqlTooLargeError,
    error_from_wire,
)
from kgdiff.query.sql_limits import SqlLimits
from kgdiff.query.sql_masking import source_folders, without_machine_folders
from kgdiff.store.catalog_copy import catalog_copy
from kgdiff.store.layout import StoreLayout

PROCESS_NAME = "kgdiff-sql"
# How long past its time limit a query's process may take to report before it is killed:
# an interrupted query reports within milliseconds; one that does not is stuck in DuckDB.
KILL_GRACE_SECONDS = 1.0
# The answer's JSON may carry this much beside the rows the child counted.
HEADER_BYTES = 1 << 20
DEFAULT_LIMITS = SqlLimits()
LOG = logging.getLogger(__name__)

__all__ = ["SqlAnswer", "SqlLimits", "prepare_sql_processes", "run_safe_sql"]


@dataclass(frozen=True)
class SqlAnswer:
    """A query's answer: column names and DuckDB types, rows of JSON values (see
    kgdiff/query/json_values.py), whether rows were left out at ``max_rows``, and the
    wall time of the whole call."""

    columns: list[str]
    types: list[str]
    rows: list[list[Json]]
    truncated: bool
    elapsed_seconds: float


def _context() -> ForkServerContext:
    """The forkserver context of the service's children (it preloads the query process's
    modules: DuckDB, ~80 ms a child saves; :mod:`kgdiff.query.service_children`). The
    ingest's workers share the one server; whichever starts it first sets what it preloads,
    and the other's children import their modules themselves."""
    return service_forkserver()


def prepare_sql_processes() -> None:
    """Start the server the query processes are forked from now (a service's start-up),
    rather than on the first query."""
    start_service_forkserver()


def run_safe_sql(layout: StoreLayout, query: str, limits: SqlLimits = DEFAULT_LIMITS) -> SqlAnswer:
    """Answer ``query``, one read-only SELECT (or WITH) over the store's catalog, within
    ``limits``; a :class:`~kgdiff.query.sql_errors.SqlError` when it is refused, invalid,
    too slow or too large. Whatever the query says, no file of the store changes (the
    three walls of this module's description)."""
    layout = StoreLayout(layout.root.resolve())  # the query's process works in the store
    if not layout.catalog.is_file():
        raise StoreError(
            f"the store has no catalog ({layout.catalog.name}); ingest a snapshot first"
        )
    started = time.monotonic()
    copy = catalog_copy(layout.catalog)
    answer = _answer_from_child(layout, copy, query, limits)
    raw = without_machine_folders(answer, layout, {copy.parent, *source_folders(layout)})
    message: dict[str, Any] = orjson.loads(raw)
    if "error" in message:
        raise error_from_wire(str(message["error"]), str(message["message"]))
    return SqlAnswer(
        columns=message["columns"],
        types=message["types"],
        rows=message["rows"],
        truncated=bool(message["truncated"]),
        elapsed_seconds=time.monotonic() - started,
    )


def _answer_from_child(layout: StoreLayout, copy: Path, query: str, limits: SqlLimits) -> bytes:
    """What the query's process sends back; it is killed if it has not by the deadline."""
    from kgdiff.query.sql_child import serve

    context = _context()
    reader, writer = context.Pipe(duplex=False)
    process = context.Process(
        target=serve,
        args=(str(layout.root), str(copy), query, limits, writer),
        name=PROCESS_NAME,
        daemon=True,
    )
    try:
        process.start()
    except BaseException:
        reader.close()
        writer.close()
        raise
    writer.close()  # the child's copy is now the only writer: its end is our end of file
    try:
        return _receive(reader, process, query, limits)
    finally:
        reader.close()
        _reap(process)


def _receive(reader: Connection, process: BaseProcess, query: str, limits: SqlLimits) -> bytes:
    if not reader.poll(limits.timeout_seconds + KILL_GRACE_SECONDS):
        raise SqlTimeoutError(
            f"timed out: the query ran past its time limit of {limits.timeout_seconds:g} s "
            "and did not stop when interrupted, so its process was killed"
        )
    try:
        return reader.recv_bytes(limits.max_result_bytes + HEADER_BYTES)
    except EOFError:
        process.join(KILL_GRACE_SECONDS)
        raise _ended_without_answer(process.exitcode, query, limits) from None
    except OSError:  # longer than maxlength: the child's own count should have caught it
        raise SqlTooLargeError(
            f"too large: the answer exceeds {limits.max_result_bytes:,} bytes of JSON"
        ) from None


def _ended_without_answer(exit_code: int | None, query: str, limits: SqlLimits) -> SqlError:
    """The error of a query process that ended before it answered, logged. Ended by a
    signal (a segfault at the address-space cap, the kernel's OOM killer): the query asked
    for more than the process may have, which the user may change. Exited: a bug of ours."""
    text = " ".join(query.split())[:300]
    if exit_code is not None and exit_code < 0:
        name = _signal_name(-exit_code)
        LOG.warning("the SQL query's process was ended by %s before it answered: %s", name, text)
        return SqlOutOfMemoryError(
            f"out of memory: the query's process was ended by {name} before it answered; "
            f"the query needs more memory than the service allows (DuckDB's limit of "
            f"{limits.memory_limit}, {limits.address_space_bytes / 1e9:.1f} GB of address "
            "space); ask for fewer or smaller values"
        )
    LOG.error("the SQL query's process exited (code %s) without an answer: %s", exit_code, text)
    return SqlCrashError(
        f"the query's process exited without an answer (exit code {exit_code}); "
        "this is a bug of kgdiff's, not the query's"
    )


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _reap(process: BaseProcess) -> None:
    """End the query's process (killing it if it still runs) and free what it holds."""
    if process.is_alive():
        process.kill()
    process.join()
    process.close()
