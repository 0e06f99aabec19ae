"""What a user's SQL query can end in, besides an answer (kgdiff/query/safe_sql.py).

Each is a :class:`~kgdiff.errors.KgdiffError` with a one-line message saying what was
refused or cut off and why. The query runs in a child process, so an error crosses a pipe
as its class name and message (:func:`error_from_wire`).
"""

from __future__ import annotations

from kgdiff.errors import KgdiffError
from kgdiff.query.sql_limits import SqlLimits


class SqlError(KgdiffError):
    """A user's query that got no answer (exit code 2: the query is at fault)."""

    exit_code = 2


class SqlRefusedError(SqlError):
    """Not one read-only SELECT over the catalog: another statement type, several
    statements, a forbidden function, or something DuckDB's own guards refused."""


class SqlInvalidError(SqlError):
    """A SELECT that DuckDB cannot parse, bind or evaluate (a typo, an unknown column)."""


class SqlTimeoutError(SqlError):
    """The query ran past its time limit and was interrupted."""


class SqlTooLargeError(SqlError):
    """The query's answer would hold more bytes of JSON than allowed (and, as the base of
    :class:`SqlOutOfMemoryError`, any query that asked for more than its limits)."""


class SqlOutOfMemoryError(SqlTooLargeError):
    """The query needed more memory than its process may have: DuckDB's memory limit, the
    cap on the process's address space, or the process ended by a signal on the way."""


class SqlCrashError(SqlError):
    """The query's process could not answer for a reason that is not the query's: a
    damaged catalog, or a bug (it exited without a word), hence exit code 70."""

    exit_code = 70


KINDS = (
    SqlRefusedError,
    SqlInvalidError,
    SqlTimeoutError,
    SqlTooLargeError,
    SqlOutOfMemoryError,
    SqlCrashError,
)
ERRORS: dict[str, type[SqlError]] = {kind.__name__: kind for kind in KINDS}


def error_from_wire(name: str, message: str) -> SqlError:
    """The error the child process reported as ``name`` (a class name) and ``message``."""
    return ERRORS.get(name, SqlCrashError)(message)


def one_line(message: str) -> str:
    """The first line of a DuckDB error message (DuckDB adds ``LINE 1: …`` and a caret)."""
    return message.strip().splitlines()[0] if message.strip() else "no message"


def timed_out(limits: SqlLimits) -> SqlTimeoutError:
    """The query ran past its time limit and was interrupted."""
    return SqlTimeoutError(
        f"timed out: the query ran past its time limit of {limits.timeout_seconds:g} s "
        "and was interrupted"
    )


def answer_too_large(limits: SqlLimits) -> SqlTooLargeError:
    """The answer's JSON would pass the size limit."""
    return SqlTooLargeError(
        f"too large: the answer exceeds {limits.max_result_bytes:,} bytes of JSON; "
        "select fewer columns or rows"
    )


def out_of_memory(limits: SqlLimits, detail: str) -> SqlOutOfMemoryError:
    """The query needed more memory than it may have; ``detail`` says where."""
    return SqlOutOfMemoryError(
        f"out of memory: the query needs more than its memory limit of {limits.memory_limit}"
        f" ({detail}); ask for fewer or smaller values"
    )
