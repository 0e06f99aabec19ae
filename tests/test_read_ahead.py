"""Reads started ahead run in a background thread and are taken later, their errors with them
(kgdiff.export.inputs.read_ahead)."""

from __future__ import annotations

import threading

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
