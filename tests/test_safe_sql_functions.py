"""The guard judges what DuckDB will run, macros and views expanded, against allow-lists
(issue 34, finding 9): ``histogram_values('statements', 'rank')`` answered 200 on b4f0265
though it calls the denied ``query_table``, and ``duckdb_logs_parsed`` read ``duckdb_logs``.

Every built-in macro and view of DuckDB is checked here against an oracle of another make:
the names its definition calls, found by DuckDB's tokenizer (a name before ``(``) and
followed through the macros it calls, against the deny sets. The allow-lists are the data
file scripts/sql_functions.py writes, and must match the installed DuckDB's functions.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator

import duckdb
import pytest

from kgdiff.query.safe_sql import run_safe_sql
from kgdiff.query.sql_definitions import Definitions, parse_tree, view_query
from kgdiff.query.sql_errors import SqlRefusedError
from kgdiff.query.sql_functions import (
    DENIED,
    PRIVATE,
    Allowed,
    allowed,
    allowed_from,
    builtin_functions,
)
from kgdiff.query.sql_guard import checked_statement
from kgdiff.query.sql_reach import Reach
from kgdiff.store.layout import StoreLayout
from tests.paths import ROOT

CONFIG: dict[str, str | bool | int | float | list[str]] = {"autoload_known_extensions": False}
ISSUE = {
    "histogram_values": "SELECT * FROM histogram_values('statements', 'rank')",
    "duckdb_logs_parsed": "SELECT * FROM duckdb_logs_parsed('QueryLog')",
    "histogram": "SELECT * FROM histogram('statements', 'rank')",
    "view of duckdb_databases": "SELECT * FROM duckdb_databases",
    "pragma_database_list": "SELECT * FROM pragma_database_list",
    "pg_settings": "SELECT * FROM pg_catalog.pg_settings",
    "SHOW a setting": "SHOW allowed_directories",
    "SHOW VARIABLES": "SHOW VARIABLES",
    "aggregate by name": "SELECT list_aggregate([1], 'to_aggregate_state')",
    "aggregate by a value": "SELECT list_aggregate([1], lower('MIN'))",
}


@pytest.fixture(scope="module")
def memory() -> Iterator[duckdb.DuckDBPyConnection]:
    with duckdb.connect(config=CONFIG) as connection:
        yield connection


def macro_names(connection: duckdb.DuckDBPyConnection) -> list[tuple[str, str, str]]:
    rows = connection.execute(
        "SELECT DISTINCT function_name, function_type, schema_name FROM duckdb_functions() "
        "WHERE internal AND macro_definition IS NOT NULL ORDER BY ALL"
    ).fetchall()
    return [(str(name), str(kind), str(schema)) for name, kind, schema in rows]


def called_names(connection: duckdb.DuckDBPyConnection, sql: str) -> set[str]:
    """The names ``sql`` calls: each word the tokenizer finds just before a ``(``,
    lower-case; and what the macros among them call, in turn (a table macro when the word
    follows FROM or JOIN, else a scalar one: ``histogram`` is both)."""
    rows = connection.execute(
        "SELECT function_name, function_type = 'table_macro', macro_definition "
        "FROM duckdb_functions() WHERE macro_definition IS NOT NULL"
    ).fetchall()
    macros: dict[tuple[str, bool], list[str]] = {}
    for name, table, definition in rows:
        macros.setdefault((str(name).lower(), bool(table)), []).append(str(definition))
    found: set[str] = set()
    followed: set[tuple[str, bool]] = set()
    todo = [sql]
    while todo:
        text = todo.pop()
        tokens = [start for start, _ in duckdb.tokenize(text)] + [len(text)]
        words = [text[start:end].strip() for start, end in itertools.pairwise(tokens)]
        for index, word in enumerate(words[:-1]):
            if words[index + 1] != "(":
                continue
            name = word.strip('"').lower()
            table = index > 0 and words[index - 1].upper() in ("FROM", "JOIN")
            found.add(name)
            if (name, table) not in followed:
                followed.add((name, table))
                todo.extend(macros.get((name, table), []))
    return found


def oracle_refuses(names: set[str]) -> bool:
    return bool(names & (set(DENIED) | set(PRIVATE)))


@pytest.mark.parametrize("case", ISSUE.values(), ids=ISSUE.keys())
def test_the_issues_bypasses_are_refused(sql_store: StoreLayout, case: str) -> None:
    with pytest.raises(SqlRefusedError) as caught:
        run_safe_sql(sql_store, case)
    assert "\n" not in str(caught.value)


def test_a_macro_is_refused_for_what_it_calls(sql_store: StoreLayout) -> None:
    with pytest.raises(SqlRefusedError) as caught:
        run_safe_sql(sql_store, ISSUE["histogram"])
    assert str(caught.value) == (
        "refused: histogram() → histogram_values() → query_table(): query_table() "
        "reads tables named by text, which cannot be checked"
    )


def test_every_builtin_macro_is_judged_by_what_it_reaches(
    memory: duckdb.DuckDBPyConnection,
) -> None:
    refused = []
    for name, kind, schema in macro_names(memory):
        call = f"SELECT * FROM {name}()" if kind == "table_macro" else f"SELECT {schema}.{name}()"
        expected = oracle_refuses(called_names(memory, call))
        try:
            checked_statement(memory, call)
        except SqlRefusedError as refusal:
            assert expected, (call, str(refusal))
            refused.append(name)
        else:
            assert not expected, call
    # the issue's two, and those reaching settings, at least; the oracle tells the rest
    assert {"histogram_values", "histogram", "duckdb_logs_parsed"} <= set(refused)
    assert {"duckdb_profiling_settings", "get_block_size"} <= set(refused)


def test_every_builtin_view_is_judged_by_what_it_reaches(
    memory: duckdb.DuckDBPyConnection,
) -> None:
    views = memory.execute(
        "SELECT schema_name, view_name, sql FROM duckdb_views() WHERE internal"
    ).fetchall()
    assert len(views) > 40
    refused = []
    for schema, view, sql in views:
        expected = oracle_refuses(called_names(memory, view_query(sql)))
        try:
            checked_statement(memory, f'SELECT * FROM {schema}."{view}"')
        except SqlRefusedError as refusal:
            assert expected, (view, str(refusal))
            refused.append(view)
        else:
            assert not expected, view
    assert {"duckdb_databases", "pragma_database_list", "pg_settings", "duckdb_logs"} <= set(
        refused
    )


def test_the_allow_lists_match_this_duckdb(memory: duckdb.DuckDBPyConnection) -> None:
    """Fails when DuckDB's functions change: review the new ones, put any that writes, runs
    SQL given as text or shows a path, a setting or the environment in a deny set of
    kgdiff/query/sql_functions.py, and run scripts/sql_functions.py."""
    fresh, kept = allowed_from(memory), allowed()
    new = sorted(
        (fresh.functions - kept.functions) | (fresh.table_functions - kept.table_functions)
    )
    gone = sorted(
        (kept.functions - fresh.functions) | (kept.table_functions - fresh.table_functions)
    )
    assert (new, gone) == ([], []), f"DuckDB {duckdb.__version__}: new {new}, gone {gone}"
    assert kept.duckdb_version == duckdb.__version__
    check = [sys.executable, "scripts/sql_functions.py", "--check"]
    result = subprocess.run(check, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_a_function_missing_from_the_allow_list_is_refused(
    memory: duckdb.DuckDBPyConnection,
) -> None:
    """What a function a later DuckDB adds meets: not in the list, refused."""
    lists = allowed()
    without_abs = Allowed(lists.duckdb_version, lists.functions - {"abs"}, lists.table_functions)
    reach = Reach(without_abs, Definitions(memory))
    with pytest.raises(SqlRefusedError, match=r"function abs\(\) is not among those"):
        reach.check(parse_tree(memory, "SELECT abs(-1)"), (), False)
    checked_statement(memory, "SELECT abs(-1)")


@pytest.mark.parametrize("name", sorted(DENIED | PRIVATE))
def test_every_denied_function_is_refused_by_name(
    memory: duckdb.DuckDBPyConnection, name: str
) -> None:
    expressions, _ = builtin_functions(memory)
    call = f"SELECT {name}()" if name in expressions else f"SELECT * FROM {name}()"
    with pytest.raises(SqlRefusedError, match=f"^refused: {name}\\(\\) "):
        checked_statement(memory, call)
