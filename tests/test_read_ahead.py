"""Reads started ahead run in a background thread and are taken later, their errors with them
(kgdiff.export.inputs.read_ahead)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kgdiff.export.inputs.read_ahead import ReadAhead


def test_a_read_submitted_runs_in_the_background_and_is_taken_once() -> None:
    ahead = ReadAhead()
    threads: list[str] = []

    def read() -> int:
        threads.append(threading.current_thread().name)
        return 42

    ahead.submit("answer", read)
    assert ahead.take("answer", lambda: -1) == 42
    assert threads and threads[0] != threading.current_thread().name
    assert ahead.take("answer", lambda: -1) == -1  # taken: a second take reads again
    ahead.close()


def test_a_failed_read_raises_when_taken() -> None:
    ahead = ReadAhead()

    def broken() -> None:
        raise RuntimeError("the store went away")

    ahead.submit("broken", broken)
    with pytest.raises(RuntimeError, match="the store went away"):
        ahead.take("broken", lambda: None)
    ahead.close()


def test_close_drops_the_reads_not_taken() -> None:
    ahead = ReadAhead()
    gate, ran = threading.Event(), []
    ahead.submit("slow", gate.wait)  # running when the export closes
    ahead.submit("never", lambda: ran.append("never"))
    threading.Timer(0.2, gate.set).start()
    ahead.close()  # drops "never", then waits for "slow"
    assert ran == []
    assert ahead.take("slow", lambda: "again") == "again"


def test_a_read_holds_duckdb_until_it_is_done() -> None:
    ahead = ReadAhead()
    started, gate, order = threading.Event(), threading.Event(), []

    def read() -> None:
        started.set()
        gate.wait()
        order.append("read")

    ahead.submit("long", read)
    started.wait()
    threading.Timer(0.2, gate.set).start()
    with ahead.exclusive():  # a large query of the main thread waits for the read
        order.append("names")
    assert order == ["read", "names"]
    ahead.close()


def test_the_names_hold_duckdb_only_while_their_query_runs(demo_store: Path) -> None:
    """The export's naming holds DuckDB (``ReadAhead.exclusive``) while its queries run to
    their first rows, then lets it go: a read ahead can run while the chunks are worked on."""
    from kgdiff.export.words.name_stream import named_chunks
    from kgdiff.query.graph import KnowledgeGraph

    duckdb_lock = threading.Lock()
    held: list[bool] = []

    @contextmanager
    def hold() -> Iterator[None]:
        with duckdb_lock:
            held.append(True)
            yield

    kg = KnowledgeGraph.open(demo_store)
    free_while_named: list[bool] = []
    for names in named_chunks(kg, ["Q64", "Q183", "Q1055", "P17"], None, "en", hold):
        assert "Q64" in names.ids()
        free_while_named.append(not duckdb_lock.locked())
    assert held == [True]  # the query held it once
    assert free_while_named == [True]
