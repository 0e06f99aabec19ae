"""Cursors kept per thread on a DuckDB instance (kgdiff/query/thread_cursors.py)."""

from __future__ import annotations

import threading

import duckdb

from kgdiff.query.thread_cursors import ThreadCursors


def _cursors(setups: list[int]) -> ThreadCursors:
    def setup(cursor: duckdb.DuckDBPyConnection) -> None:
        setups.append(1)
        cursor.execute("SET VARIABLE kgdiff_probe = 7")

    return ThreadCursors(setup)


def test_a_thread_keeps_its_cursor_set_up_once() -> None:
    setups: list[int] = []
    cursors, instance = _cursors(setups), duckdb.connect()
    for _ in range(3):
        with cursors.borrow(instance) as cursor:
            assert cursor.sql("SELECT getvariable('kgdiff_probe')").fetchall() == [(7,)]
    assert len(setups) == 1


def test_an_unread_result_does_not_block_the_next_question() -> None:
    cursors, instance = _cursors([]), duckdb.connect()
    with cursors.borrow(instance) as cursor:
        assert cursor.execute("SELECT * FROM range(100000)").fetchone() == (0,)
    with cursors.borrow(instance) as cursor:
        assert cursor.sql("SELECT 42").fetchall() == [(42,)]


def test_a_question_inside_a_question_gets_a_cursor_of_its_own() -> None:
    setups: list[int] = []
    cursors, instance = _cursors(setups), duckdb.connect()
    with cursors.borrow(instance) as outer:
        pending = outer.execute("SELECT * FROM range(10)")
        with cursors.borrow(instance) as inner:
            assert inner is not outer
            assert inner.sql("SELECT 1").fetchall() == [(1,)]
        assert pending.fetchall()[0] == (0,)
    assert len(setups) == 2


def test_threads_and_instances_do_not_share_cursors() -> None:
    cursors, first, second = _cursors([]), duckdb.connect(), duckdb.connect()
    with cursors.borrow(first) as mine:
        pass
    with cursors.borrow(second) as replaced:
        assert replaced is not mine
    seen: list[duckdb.DuckDBPyConnection] = []

    def ask() -> None:
        with cursors.borrow(second) as cursor:
            seen.append(cursor)

    worker = threading.Thread(target=ask)
    worker.start()
    worker.join()
    assert seen and seen[0] is not replaced
