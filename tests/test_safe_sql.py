"""kgdiff/query/safe_sql.py answers ordinary queries as the catalog does (issue 23, the
library part of ``POST /v1/sql``): the README's examples, views, macros, joins, aggregates
and WITH; the row cap; the columns and their types; values every JSON reader takes."""

from __future__ import annotations

import json
import math
import re
import time
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
import pytest

from kgdiff.errors import StoreError, UsageError
from kgdiff.query.json_values import to_json
from kgdiff.query.safe_sql import SqlAnswer, SqlLimits, run_safe_sql
from kgdiff.query.sql_errors import SqlCrashError, SqlInvalidError, SqlTooLargeError
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from tests.safe_sql_store import CLASSIFIED
from tests.test_readme_examples import queries as readme_queries

ANY_ROWS = re.compile(r"\blimit\b(?!.*\border by\b)", re.IGNORECASE | re.DOTALL)
ROOMY = SqlLimits(max_rows=100_000, timeout_seconds=60)
MORE_QUERIES = [
    "SELECT snapshot, count(*) AS n, count(DISTINCT subject) FROM statements GROUP BY ALL",
    "WITH heads AS (SELECT subject, value FROM statements WHERE pid = 'P6') "
    "SELECT h.subject, e.label_en, h.value FROM heads h "
    "JOIN entities e ON e.qid = h.subject AND e.snapshot = 'wd-2014-12'",
    "SELECT * FROM timeline('Q183')",
    "SELECT * FROM facts_at(DATE '2014-06-01') WHERE subject IN ('Q183', 'Q31')",
    "SELECT level, count(*) FROM classify(DATE '2013-12-21', DATE '2014-10-11', "
    "DATE '2014-12-31', 'record') GROUP BY 1",
    f"SELECT level, count(*) FROM {CLASSIFIED} GROUP BY 1",
    "SELECT count(*), count(DISTINCT subject) FROM evidence",
    "SELECT source, sum(views) FROM pageviews GROUP BY 1",
    "SELECT name, pages FROM wikipedia_snapshots",
    "SELECT count(*) FROM read_parquet(kgdiff_store_files(['snapshots/*/statements/*.parquet']))",
    "FROM snapshots SELECT name, date, coverage",
    "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal",
    "SELECT function_name, parameters FROM duckdb_functions() WHERE function_type = 'table_macro'",
    "SELECT s.name, count(c.qid) FROM snapshots s LEFT JOIN coverage c ON c.snapshot = s.name "
    "GROUP BY ALL",
]


def normalised(rows: list[list[Any]]) -> list[bytes]:
    """Rows as sorted JSON texts: queries without ORDER BY answer in any order."""
    return sorted(orjson.dumps(row) for row in rows)


@pytest.mark.parametrize("query", readme_queries() + MORE_QUERIES, ids=lambda q: q[:50])
def test_answers_as_the_catalog_does(sql_store: StoreLayout, query: str) -> None:
    answer = run_safe_sql(sql_store, query, ROOMY)
    with open_catalog(sql_store) as catalog:
        cursor = catalog.execute(query)
        expected = [[to_json(value) for value in row] for row in cursor.fetchall()]
        described = cursor.description or []
    assert answer.rows and not answer.truncated
    if ANY_ROWS.search(query):  # LIMIT without ORDER BY: which rows is DuckDB's choice
        assert len(answer.rows) == len(expected)
    else:
        assert normalised(answer.rows) == normalised(expected)
    assert answer.columns == [column[0] for column in described]
    assert answer.types == [str(column[1]) for column in described]
    json.dumps(answer.rows, allow_nan=False)  # plain JSON, whatever the values


@pytest.mark.parametrize(("rows", "cap"), [(5, 4), (5, 5), (5, 6), (0, 0), (1, 0), (2500, 2499)])
def test_truncated_exactly_when_more_rows_exist(
    sql_store: StoreLayout, rows: int, cap: int
) -> None:
    answer = run_safe_sql(sql_store, f"SELECT * FROM range({rows})", SqlLimits(max_rows=cap))
    assert answer.rows == [[i] for i in range(min(rows, cap))]
    assert answer.truncated is (rows > cap)
    assert answer.columns == ["range"] and answer.types == ["BIGINT"]


def test_a_billion_rows_are_never_made_whole(sql_store: StoreLayout) -> None:
    """An answer at all shows it: making 10^12 rows whole takes hours, so the query would end
    at its 10 s time limit (or its memory cap) with an error instead."""
    answer = run_safe_sql(sql_store, "SELECT * FROM range(1000000000000)", SqlLimits(max_rows=3))
    assert answer.rows == [[0], [1], [2]] and answer.truncated


def test_columns_types_and_json_values(sql_store: StoreLayout) -> None:
    query = (
        "SELECT 1.50 AS d, 2::HUGEINT ** 0 AS f, 170141183460469231731687303715884105727::HUGEINT "
        "AS huge, 9007199254740991 AS safe, DATE '2014-12-31' AS day, "
        "TIMESTAMP '2014-12-31 10:11:12' AS ts, DATE '5877642-06-25' AS far, "
        "INTERVAL 3 MONTH + INTERVAL 5 SECOND AS span, 'nan'::DOUBLE AS nan, "
        "'-infinity'::DOUBLE AS neg, [1, NULL] AS list, {'a': [DATE '2020-01-02']} AS struct, "
        "MAP {1: 'one'} AS map, 'xyz'::BLOB AS blob, "
        "'00000000-0000-0000-0000-000000000001'::UUID AS uuid, NULL AS nothing"
    )
    answer = run_safe_sql(sql_store, query)
    assert answer.types[:3] == ["DECIMAL(3,2)", "DOUBLE", "HUGEINT"]
    assert answer.columns[-1] == "nothing"
    assert answer.rows == [
        [
            *("1.50", 1.0, "170141183460469231731687303715884105727", 9007199254740991),
            *("2014-12-31", "2014-12-31T10:11:12", "5877642-06-25", "P90DT5S", "NaN"),
            *("-Infinity", [1, None], {"a": ["2020-01-02"]}, {"1": "one"}, "eHl6"),
            *("00000000-0000-0000-0000-000000000001", None),
        ]
    ]
    json.dumps(answer.rows, allow_nan=False)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2**53, "9007199254740992"),
        (-(2**53) + 1, -(2**53) + 1),
        (Decimal("-0.001"), "-0.001"),
        (math.inf, "Infinity"),
        (date(2014, 1, 2), "2014-01-02"),
        (datetime(2014, 1, 2, 3, 4, 5, 6), "2014-01-02T03:04:05.000006"),
        (UUID(int=1), "00000000-0000-0000-0000-000000000001"),
        ({(1, 2): "a"}, {"[1,2]": "a"}),
        ((1, "x"), [1, "x"]),
    ],
)
def test_to_json(value: object, expected: object) -> None:
    assert to_json(value) == expected


def test_the_answer_has_a_size_limit(sql_store: StoreLayout) -> None:
    limits = SqlLimits(max_result_bytes=10_000)
    assert run_safe_sql(sql_store, "SELECT repeat('x', 100) FROM range(50)", limits).rows
    with pytest.raises(SqlTooLargeError, match="exceeds 10,000 bytes of JSON"):
        run_safe_sql(sql_store, "SELECT repeat('x', 100) FROM range(200)", limits)


def test_errors_of_a_valid_select_are_one_line(sql_store: StoreLayout) -> None:
    with pytest.raises(SqlInvalidError) as caught:
        run_safe_sql(sql_store, "SELECT no_such_column FROM statements")
    assert "no_such_column" in str(caught.value) and "\n" not in str(caught.value)
    assert caught.value.exit_code == 2


def test_the_views_read_this_store_by_paths_relative_to_it(sql_store: StoreLayout) -> None:
    query = "SELECT kgdiff_store_root(), kgdiff_store_files(['snapshots/x'])"
    assert run_safe_sql(sql_store, query).rows == [["", ["snapshots/x"]]]


def test_reading_the_stores_own_files_is_allowed(sql_store: StoreLayout) -> None:
    manifest = sql_store.snapshot_dir("wd-2014-12") / "manifest.json"
    answer = run_safe_sql(sql_store, f"SELECT content FROM read_text('{manifest}')")
    text = manifest.read_text(encoding="utf-8")
    source = Path(json.loads(text)["source"]["path"])
    # the folder the dump was read from is no one's business (finding 10): its name stays
    assert answer.rows == [[text.replace(str(source), source.name)]]


def test_a_store_without_catalog(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no catalog"):
        run_safe_sql(StoreLayout(tmp_path), "SELECT 1")


def test_a_damaged_catalog(tmp_path: Path) -> None:
    (tmp_path / "kg.duckdb").write_bytes(b"not a database\n" * 1000)
    with pytest.raises(SqlCrashError, match="cannot open the store's catalog") as caught:
        run_safe_sql(StoreLayout(tmp_path), "SELECT 1")
    assert caught.value.exit_code == 70


@pytest.mark.parametrize(
    "fields",
    [
        {"timeout_seconds": 0},
        {"timeout_seconds": math.nan},
        {"max_rows": -1},
        {"threads": 0},
        {"memory_limit": "lots"},
        {"memory_limit": "10KB"},
    ],
)
def test_limits_are_checked(fields: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        SqlLimits(**fields)


def test_limits_in_bytes() -> None:
    assert SqlLimits(memory_limit="2GiB").memory_bytes == 2 << 30
    assert SqlLimits(memory_limit="1.5 GB").memory_bytes == 1_500_000_000
    assert SqlLimits(timeout_seconds=0.0001).timeout_ms == 1


def test_the_answer_is_a_plain_record(sql_store: StoreLayout) -> None:
    started = time.monotonic()
    answer = run_safe_sql(sql_store, "SELECT 42 AS answer")
    took = time.monotonic() - started
    assert isinstance(answer, SqlAnswer)
    assert (answer.columns, answer.types, answer.rows, answer.truncated) == (
        ["answer"],
        ["INTEGER"],
        [[42]],
        False,
    )
    assert 0 < answer.elapsed_seconds <= took  # the call's wall time, however busy the machine
