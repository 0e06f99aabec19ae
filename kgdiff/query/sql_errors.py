"""What a user's SQL query can end in, besides an answer (kgdiff/query/safe_sql.py).

Each is a :class:`~kgdiff.errors.KgdiffError` with a one-line message saying what was
refused or cut off and why. The query runs in a child process, so an error crosses a pipe
as its class name and message (:func:`error_from_wire`).
"""

from __future__ import annotations

from kgdiff.errors import KgdiffError


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
    """The query needed more memory than its limit, or its answer more bytes than allowed."""


class SqlCrashError(SqlError):
    """The query's process ended without an answer (killed, or DuckDB crashed): a bug or
    the machine's doing, not the query's, hence exit code 70 (EX_SOFTWARE)."""

    exit_code = 70


KINDS = (SqlRefusedError, SqlInvalidError, SqlTimeoutError, SqlTooLargeError, SqlCrashError)
ERRORS: dict[str, type[SqlError]] = {kind.__name__: kind for kind in KINDS}


def error_from_wire(name: str, message: str) -> SqlError:
    """The error the child process reported as ``name`` (a class name) and ``message``."""
    return ERRORS.get(name, SqlCrashError)(message)


def one_line(message: str) -> str:
    """The first line of a DuckDB error message (DuckDB adds ``LINE 1: …`` and a caret)."""
    return message.strip().splitlines()[0] if message.strip() else "no message"
