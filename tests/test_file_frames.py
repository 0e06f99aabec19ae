"""A query's rows handed from DuckDB to polars through a Parquet file
(kgdiff.export.core.file_frames) are the rows ``.pl()`` hands over as Arrow, column types
included, and nothing is left in the folder, whether the query answers or fails."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from kgdiff.export.core.file_frames import frame_through_file

TEXTS = st.one_of(st.none(), st.text(max_size=12))
ROWS = st.lists(
    st.tuples(
        TEXTS,
        st.one_of(st.none(), st.integers(-(2**62), 2**62)),
        st.one_of(st.none(), st.dates(date(1, 1, 1), date(9999, 12, 31))),
        st.one_of(st.none(), st.lists(TEXTS, max_size=4)),
        st.one_of(st.none(), st.booleans()),
    ),
    max_size=30,
)
QUERY = """
SELECT subject, amount, day, objects, flag,
       struct_pack(amount := amount, day := day) AS pair,
       amount::DOUBLE / 3 AS share
FROM rows
WHERE amount IS NULL OR amount >= $least
ORDER BY ALL
"""


@settings(max_examples=40)
@given(rows=ROWS, least=st.integers(-(2**62), 2**62))
def test_the_rows_through_a_file_are_the_rows_handed_over(
    tmp_path_factory: pytest.TempPathFactory, rows: list[tuple[object, ...]], least: int
) -> None:
    folder = tmp_path_factory.mktemp("rows")
    connection = duckdb.connect()
    connection.execute(
        "CREATE TABLE rows (subject VARCHAR, amount BIGINT, day DATE, objects VARCHAR[],"
        " flag BOOLEAN)"
    )
    if rows:
        connection.executemany("INSERT INTO rows VALUES (?, ?, ?, ?, ?)", rows)
    expected = connection.sql(QUERY, params={"least": least}).pl()
    got = frame_through_file(connection, QUERY, {"least": least}, folder)
    assert_frame_equal(got, expected)
    assert list(folder.iterdir()) == []


FAILS_WHILE_WRITTEN = """
SELECT CASE WHEN i < $rows THEN i ELSE error('stopped at row ' || i) END AS i
FROM range($rows + 1) AS t(i)
"""
"""A query that fails after DuckDB has written many rows of its file."""


def test_a_failing_query_leaves_nothing(tmp_path: Path) -> None:
    connection = duckdb.connect()
    with pytest.raises(duckdb.Error, match="no_such_table"):
        frame_through_file(connection, "SELECT * FROM no_such_table", {}, tmp_path)
    with pytest.raises(duckdb.Error, match="stopped at row 500000"):
        frame_through_file(connection, FAILS_WHILE_WRITTEN, {"rows": 500_000}, tmp_path)
    assert list(tmp_path.iterdir()) == []
    # the same query short of its failing row answers
    answered = frame_through_file(connection, "SELECT * FROM range($n) AS t(i)", {"n": 3}, tmp_path)
    assert answered.get_column("i").to_list() == [0, 1, 2]
