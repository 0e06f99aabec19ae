"""Which user queries may reach DuckDB: one SELECT, calling only functions that read.

Checked with DuckDB's own parser, never by matching the text: the statements it finds
(comments, quoted ``;`` and unicode are its business), their types against an allow-list,
then the parse tree (``json_serialize_sql``) for every function the query reaches, the
macros and views it names expanded (kgdiff/query/sql_reach.py), against the allow-lists of
kgdiff/query/sql_functions.py. These checks are the first wall; the connection's settings
(kgdiff/query/sql_session.py) are the second, and hold even for a query that got past the
first.
"""

from __future__ import annotations

import re

import duckdb

from kgdiff.query.sql_definitions import parse_tree
from kgdiff.query.sql_errors import SqlInvalidError, SqlRefusedError, one_line
from kgdiff.query.sql_reach import check_reach

ONLY = "only one read-only SELECT or WITH statement is answered"
LEADING_NOISE = re.compile(r"(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/)*", re.DOTALL)
KEYWORD = re.compile(r"[A-Za-z_]+")


def checked_statement(connection: duckdb.DuckDBPyConnection, query: str) -> duckdb.Statement:
    """The one SELECT statement of ``query``, parsed by DuckDB, ready to execute; a
    :class:`SqlRefusedError` (or :class:`SqlInvalidError` for a syntax error) saying why not."""
    statement = _only_statement(connection, query)
    _check_type(statement)
    _check_functions(connection, statement.query)
    return statement


def _only_statement(connection: duckdb.DuckDBPyConnection, query: str) -> duckdb.Statement:
    try:
        statements = connection.extract_statements(query)
    except duckdb.ParserException as exc:
        raise SqlInvalidError(f"cannot parse the query: {one_line(str(exc))}") from None
    if not statements:
        raise SqlRefusedError(f"refused: the query holds no statement; {ONLY}")
    if len(statements) > 1:
        raise SqlRefusedError(f"refused: the query holds {len(statements)} statements; {ONLY}")
    return statements[0]


def _check_type(statement: duckdb.Statement) -> None:
    keyword = _leading_keyword(statement.query)
    try:
        kind = statement.type
    except ValueError:  # a type the Python client has no name for (UPDATE EXTENSIONS)
        message = f"refused: {keyword} (a statement of a type unknown here); {ONLY}"
        raise SqlRefusedError(message) from None
    if kind != duckdb.StatementType.SELECT:
        name = kind.name.replace("_", " ").lower()
        raise SqlRefusedError(f"refused: {keyword} ({name} statement); {ONLY}")


def _leading_keyword(text: str) -> str:
    """The statement's first word, for messages (comments before it skipped)."""
    noise = LEADING_NOISE.match(text)
    match = KEYWORD.match(text, noise.end() if noise else 0)
    return match.group(0).upper() if match else "the statement"


def _check_functions(connection: duckdb.DuckDBPyConnection, text: str) -> None:
    check_reach(connection, parse_tree(connection, text))
