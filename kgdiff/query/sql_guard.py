"""Which user queries may reach DuckDB: one SELECT, calling only functions that read.

Checked with DuckDB's own parser, never by matching the text: the statements it finds
(comments, quoted ``;`` and unicode are its business), their types against an allow-list,
then the parse tree (``json_serialize_sql``) for every function the query names. These
checks are the first wall; the connection's settings (kgdiff/query/sql_session.py) are the
second, and hold even for a query that got past the first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import duckdb
import orjson

from kgdiff.query.sql_errors import SqlInvalidError, SqlRefusedError, one_line
from kgdiff.sqlfiles import load_sql

ONLY = "only one read-only SELECT or WITH statement is answered"
LEADING_NOISE = re.compile(r"(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/)*", re.DOTALL)
KEYWORD = re.compile(r"[A-Za-z_]+")

# Functions refused wherever they appear, and why. Most are also absent from the table
# functions below; naming them gives the user the reason rather than a bare "not allowed".
DENIED = {
    "query": "runs SQL given as text, which cannot be checked",
    "query_table": "reads tables named by text, which cannot be checked",
    "json_execute_serialized_sql": "runs SQL given as text, which cannot be checked",
    "checkpoint": "writes the database",
    "force_checkpoint": "writes the database",
    "nextval": "changes a sequence",
    "setval": "changes a sequence",
    "write_log": "writes to DuckDB's log",
    "enable_logging": "changes DuckDB's logging, which can write files",
    "disable_logging": "changes DuckDB's logging",
    "truncate_duckdb_logs": "changes DuckDB's logging",
    "enable_profiling": "changes DuckDB's profiling, which can write files",
    "disable_profiling": "changes DuckDB's profiling",
    "getenv": "reads the server's environment",
    "arrow_scan": "reads memory by address",
    "arrow_scan_dumb": "reads memory by address",
    "python_arrow_scan": "reads memory by address",
    "pandas_scan": "reads memory by address",
    "python_map_function": "runs Python code",
    "add_grammar_extension": "changes the parser",
    "remove_grammar_extension": "changes the parser",
}

# The built-in table functions a query may call besides the catalog's table macros. An
# allow-list, so that a table function a later DuckDB adds is refused until looked at.
# The file readers are confined to the store's folder by DuckDB (allowed_directories).
ALLOWED_TABLE_FUNCTIONS = frozenset(
    {
        *("range", "generate_series", "unnest", "repeat", "repeat_row"),
        *("read_parquet", "parquet_scan", "read_csv", "read_csv_auto", "sniff_csv"),
        *("read_json", "read_json_auto", "read_ndjson", "read_ndjson_auto"),
        *("read_json_objects", "read_json_objects_auto", "read_ndjson_objects"),
        *("read_text", "read_blob", "glob", "json_each", "json_tree"),
        *("parquet_metadata", "parquet_schema", "parquet_file_metadata"),
        *("parquet_kv_metadata", "parquet_full_metadata", "parquet_bloom_probe"),
        "parquet_page_index",
        *("duckdb_columns", "duckdb_constraints", "duckdb_databases", "duckdb_dependencies"),
        *("duckdb_functions", "duckdb_indexes", "duckdb_keywords", "duckdb_schemas"),
        *("duckdb_sequences", "duckdb_settings", "duckdb_tables", "duckdb_types"),
        *("duckdb_views", "duckdb_variables", "duckdb_memory", "duckdb_optimizers"),
        *("pragma_table_info", "pragma_show", "pragma_version", "pragma_platform"),
        *("pragma_database_size", "pragma_storage_info", "pragma_collations"),
        *("icu_calendar_names", "pg_timezone_names", "test_all_types"),
    }
)


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
    row = connection.execute(load_sql("safe_sql/serialize"), {"query": text}).fetchone()
    try:
        tree = orjson.loads(row[0]) if row else {"error": True, "error_message": "no tree"}
    except orjson.JSONDecodeError as exc:  # deeper than orjson's 1024 levels
        raise SqlRefusedError(
            f"refused: the query nests too deeply to be checked ({exc})"
        ) from None
    if tree.get("error"):
        reason = tree.get("error_message", "no reason given")
        raise SqlRefusedError(f"refused: the query cannot be checked ({reason}); write a SELECT")
    rows = connection.execute(load_sql("safe_sql/table_macros")).fetchall()
    macros = {str(row[0]) for row in rows}
    for name, is_table in _functions(tree):
        if name in DENIED:
            raise SqlRefusedError(f"refused: {name}() {DENIED[name]}")
        if is_table and name not in ALLOWED_TABLE_FUNCTIONS and name not in macros:
            raise SqlRefusedError(
                f"refused: table function {name}() is not among those a query may call "
                "(the catalog's views and table macros, range(), unnest(), the file readers)"
            )


def _functions(tree: object) -> Iterator[tuple[str, bool]]:
    """Every function the parse tree names (lower-case), and whether it is a table function.

    Walks every node rather than the known places, so that a function in a position this
    code never heard of (a lambda, a window, a CTE's default) is still found; with a stack
    rather than recursion, so that no nesting is too deep for Python."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("type") == "TABLE_FUNCTION" and isinstance(node.get("function"), dict):
                yield str(node["function"].get("function_name", "")).lower(), True
            if "function_name" in node:
                yield str(node["function_name"]).lower(), False
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
