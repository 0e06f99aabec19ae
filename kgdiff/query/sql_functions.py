"""Which of DuckDB's functions a user's query may call (kgdiff/query/sql_guard.py).

Allow-lists, so that a function a later DuckDB adds is refused until someone has looked at
it: ``kgdiff/data/sql_functions.toml`` holds every built-in function name of the pinned
DuckDB but those denied here, written by ``scripts/sql_functions.py``; a test fails when
DuckDB's list of functions no longer matches the file, so an upgrade forces the review.

Two deny sets, each name with the reason a user is told:

- :data:`DENIED`: refused wherever they are reached, in the user's text or in any macro or
  view it expands to: functions that run SQL given as text, write, change logging or
  profiling, read memory by address, run Python, or change the parser;
- :data:`PRIVATE`: refused in the user's text and in DuckDB's own macros and views, allowed
  in the catalog's macros and views (kgdiff wrote those): functions that answer with a
  setting, a variable, a file path of the server or its environment, whose values the
  catalog uses to find its files but never shows; ``query_table``, which the catalog's
  ``kgdiff_pooled`` calls on the relations its callers name, and ``kgdiff_pooled`` itself,
  which only the catalog's ``pools`` calls, with its own CTEs' names.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

import duckdb

from kgdiff.resources import data_text
from kgdiff.sqlfiles import load_sql

DATA_FILE = "sql_functions.toml"
TEXT_SQL = "runs SQL given as text, which cannot be checked"
WRITES = "writes the database"
LOGGING = "changes DuckDB's logging or profiling, which can write files"
MEMORY = "reads memory by address"
SETTINGS = "answers with the server's settings, which name its folders"
PATHS = "answers with the server's file paths"
SECRETS = "reads or names secrets"
RESOURCES = "manages DuckDB's external resources"
INTERNAL = "is DuckDB's internal machinery, not meant to be called"

DENIED: dict[str, str] = {
    **dict.fromkeys(("query", "json_execute_serialized_sql"), TEXT_SQL),
    "json_serialize_plan": "plans SQL given as text, which cannot be checked",
    **dict.fromkeys(("checkpoint", "force_checkpoint"), WRITES),
    **dict.fromkeys(("nextval", "setval"), "changes a sequence"),
    "write_log": "writes to DuckDB's log",
    **dict.fromkeys(("enable_logging", "disable_logging", "truncate_duckdb_logs"), LOGGING),
    **dict.fromkeys(("enable_profiling", "disable_profiling"), LOGGING),
    **dict.fromkeys(("duckdb_logs", "duckdb_log_contexts"), "reads DuckDB's log"),
    **dict.fromkeys(("arrow_scan", "arrow_scan_dumb", "python_arrow_scan"), MEMORY),
    "pandas_scan": MEMORY,
    "python_map_function": "runs Python code",
    **dict.fromkeys(("add_grammar_extension", "remove_grammar_extension"), "changes the parser"),
    "getenv": "reads the server's environment",
    "read_duckdb": "opens a database file, which a query may not",
    **dict.fromkeys(("register_external_resource", "register_external_resource_type"), RESOURCES),
    **dict.fromkeys(("create_external_resource", "destroy_external_resource"), RESOURCES),
    "deregister_external_resource": RESOURCES,
    **dict.fromkeys(("duckdb_secrets", "which_secret"), SECRETS),
    **dict.fromkeys(("duckdb_secret_types", "duckdb_secret_type_parameters"), SECRETS),
    **dict.fromkeys(("duckdb_external_resources", "duckdb_external_resource_types"), RESOURCES),
    "duckdb_table_sample": "reads tables named by text, which cannot be checked",
    **dict.fromkeys(("seq_scan", "__internal_barrier"), INTERNAL),
    **dict.fromkeys(("to_aggregate_state", "combine", "finalize"), INTERNAL),
}
"""Refused wherever reached. ``__internal_*`` functions are denied by their prefix."""

PRIVATE: dict[str, str] = {
    **dict.fromkeys(("current_setting", "duckdb_settings", "pragma_user_agent"), SETTINGS),
    **dict.fromkeys(("pragma_database_size", "duckdb_extension_repositories"), SETTINGS),
    **dict.fromkeys(("getvariable", "duckdb_variables"), "answers with the session's variables"),
    **dict.fromkeys(("duckdb_databases", "duckdb_extensions", "duckdb_temporary_files"), PATHS),
    "duckdb_external_file_cache": PATHS,
    "duckdb_live_query_metrics": "answers with the queries the server runs",
    "query_table": "reads tables named by text, which cannot be checked",
    "kgdiff_pooled": "reads relations named by text, which cannot be checked; call pools()",
}
"""Refused in the user's text and DuckDB's macros and views; the catalog's may call them."""

INTERNAL_PREFIX = "__internal_"


@dataclass(frozen=True)
class Allowed:
    """The built-in functions a query may call: in an expression (scalar, aggregate,
    window functions and macros), and in FROM (table functions and table macros)."""

    duckdb_version: str
    functions: frozenset[str]
    table_functions: frozenset[str]


def denied_reason(name: str, trusted: bool) -> str | None:
    """Why ``name`` may not be called (``trusted``: from the catalog's own macros and
    views), or None when the deny sets do not name it."""
    if name in DENIED:
        return DENIED[name]
    if name.startswith(INTERNAL_PREFIX):
        return INTERNAL
    if not trusted and name in PRIVATE:
        return PRIVATE[name]
    return None


@cache
def allowed() -> Allowed:
    """The allow-lists, as ``scripts/sql_functions.py`` wrote them."""
    data = tomllib.loads(data_text(DATA_FILE))
    return Allowed(
        str(data["duckdb"]),
        frozenset(data["functions"]),
        frozenset(data["table_functions"]),
    )


def builtin_functions(connection: duckdb.DuckDBPyConnection) -> tuple[set[str], set[str]]:
    """Every built-in function name of the DuckDB behind ``connection`` (lower-case): those
    called in an expression, and those called in FROM."""
    rows = connection.execute(load_sql("safe_sql/builtin_functions")).fetchall()
    expressions = {str(name) for name, in_from in rows if not in_from}
    tables = {str(name) for name, in_from in rows if in_from}
    return expressions, tables


def allowed_from(connection: duckdb.DuckDBPyConnection) -> Allowed:
    """The allow-lists the deny sets make of the functions of ``connection``'s DuckDB: all
    but the :data:`DENIED` ones (the :data:`PRIVATE` ones are refused by name, but the
    catalog's macros may call them)."""
    expressions, tables = builtin_functions(connection)
    return Allowed(
        duckdb.__version__,
        frozenset(name for name in expressions if denied_reason(name, trusted=True) is None),
        frozenset(name for name in tables if denied_reason(name, trusted=True) is None),
    )
