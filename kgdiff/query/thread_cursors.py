"""One cursor per thread on a read-only DuckDB instance, kept between questions.

A question about one entity runs a few small queries; opening a cursor for it and setting
its session (search path, store root) were two more statements per question, ~1 ms of a
5 ms answer. Each thread keeps its cursor while the instance stays the same; a thread that
asks again while its cursor is in use (a question inside a question) gets a fresh one for
that time, so two questions never share a cursor's pending result.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import duckdb


@dataclass
class _Held:
    instance: duckdb.DuckDBPyConnection
    cursor: duckdb.DuckDBPyConnection
    busy: bool = False


class ThreadCursors:
    """Cursors on an instance, one per thread, each set up once by ``setup``."""

    def __init__(self, setup: Callable[[duckdb.DuckDBPyConnection], None]) -> None:
        self._setup = setup
        self._local = threading.local()

    @contextmanager
    def borrow(self, instance: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
        """This thread's cursor on ``instance`` for the block (a cursor of the block's own
        when this thread's is in use already)."""
        held: _Held | None = getattr(self._local, "held", None)
        if held is not None and held.instance is instance and held.busy:
            with self._fresh(instance) as cursor:
                yield cursor
            return
        if held is None or held.instance is not instance:
            if held is not None:
                held.cursor.close()  # a cursor of an instance since replaced
            held = _Held(instance, self._made(instance))
            self._local.held = held
        held.busy = True
        try:
            yield held.cursor
        finally:
            held.busy = False
            held.cursor.abort()  # a result the question left unread must not block the next

    @contextmanager
    def _fresh(self, instance: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
        cursor = self._made(instance)
        try:
            yield cursor
        finally:
            cursor.close()

    def _made(self, instance: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
        cursor = instance.cursor()
        try:
            self._setup(cursor)
        except BaseException:
            cursor.close()
            raise
        return cursor
