"""Property: statements glued with ``;``, with comments, quoted semicolons and whitespace
around them, or wrapped in comments, never get more than one statement through
kgdiff/query/sql_guard.py, and what gets through is a SELECT."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from kgdiff.query.safe_sql import SqlLimits, run_safe_sql
from kgdiff.query.sql_errors import SqlError
from kgdiff.query.sql_guard import checked_statement
from kgdiff.store.layout import StoreLayout

SELECTS = [
    "SELECT 1",
    "SELECT ';' AS s",
    "SELECT '--' || '/*' AS s",
    'SELECT 2 AS ";"',
    "SELECT $$;$$ AS s",
    "FROM range(3)",
    "WITH t AS (SELECT 1 AS x) SELECT x FROM t",
    "VALUES (1), (2)",
    "SELECT 'é;ß' AS ünï",
]
OTHERS = [
    "SET VARIABLE kgdiff_store = '/'",
    "ATTACH ':memory:' AS m",
    "DROP VIEW statements",
    "COPY (SELECT 1) TO 'x.csv'",
    "PRAGMA version",
    "CALL pragma_version()",
    "LOAD httpfs",
    "CREATE MACRO f() AS 1",
    "BEGIN",
]
NOISE = st.sampled_from(["", " ", "\n", "\t", "/* ; */", "/* SELECT 1; */", "-- ; SELECT 1\n"])


@st.composite
def glued(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A query text and the statements in it that are not commented out."""
    parts, live = [], []
    for _ in range(draw(st.integers(0, 4))):
        statement = draw(st.sampled_from(SELECTS + OTHERS))
        wrapper = draw(st.sampled_from(["{}", "{}", "{}", "/* {} */", "-- {}\n"]))
        if wrapper.startswith("/*") and "/*" in statement:  # nested: the comment never ends
            wrapper = "-- {}\n"
        if wrapper == "{}":
            live.append(statement)
        parts.append(draw(NOISE) + wrapper.format(statement) + draw(NOISE))
    glue = draw(st.sampled_from([";", "; ", ";\n", " ;", ";;", "; -- ;\n"]))
    text = glue.join(parts) + draw(st.sampled_from(["", ";", "; -- the end"]))
    if draw(st.integers(0, 4)) == 0:  # now and then, the whole text in a comment
        text = draw(st.sampled_from(["/* {} */", "-- {}"])).format(text.replace("\n", " "))
        live = []
    return text, live


@pytest.fixture(scope="module")
def connection() -> Iterator[duckdb.DuckDBPyConnection]:
    with duckdb.connect() as memory:
        yield memory


@settings(max_examples=400)
@given(case=glued())
@example(case=("/* ; */ SELECT ';' AS s -- ;\n", ["SELECT ';' AS s"]))
def test_never_more_than_one_statement_through(
    connection: duckdb.DuckDBPyConnection, case: tuple[str, list[str]]
) -> None:
    text, live = case
    try:
        statement = checked_statement(connection, text)
    except SqlError as refused:
        event(f"refused, {min(len(live), 2)} live")
        assert "\n" not in str(refused)
        if len(live) == 1 and live[0] in SELECTS:
            pytest.fail(f"one SELECT refused: {text!r}: {refused}")
        return
    event("through")
    assert len(live) == 1 and live[0] in SELECTS, text
    assert statement.type == duckdb.StatementType.SELECT
    assert live[0] in statement.query


@settings(max_examples=12)
@given(case=glued())
def test_never_more_than_one_statement_answered(
    sql_store: StoreLayout, case: tuple[str, list[str]]
) -> None:
    text, live = case
    try:
        answer = run_safe_sql(sql_store, text, SqlLimits(timeout_seconds=5))
    except SqlError:
        return
    assert len(live) == 1 and live[0] in SELECTS, text
    assert answer.columns
