"""DuckDB reads that later configs of an export need, started in a background thread once
the first config is set up: DuckDB releases the GIL, so a long query (``kg.updates`` classifies
the whole latest snapshot in valid time, ~17 s on one core for 3 × 5 M statements) runs while
the first config's records are built in Python and polars on the other core. Each read runs on
its own cursor of the catalog (:meth:`kgdiff.query.graph.KnowledgeGraph.connection`), one at a
time, holding DuckDB (:meth:`ReadAhead.exclusive`) against the main thread's large queries.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any


class ReadAhead:
    """Reads submitted now and taken later, by name; a read never submitted runs when taken."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._reads: dict[str, Future[Any]] = {}
        # re-entrant: a read holding DuckDB may ask for something read once for the whole
        # export (the entities' dates), which holds it too
        self._duckdb = threading.RLock()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold DuckDB for one large query: the queries of both threads share the export's
        DuckDB memory limit, and two large ones at once can exhaust it (names of 2 M groups
        beside ``kg.chains`` did on 3 × 20 M statements)."""
        with self._duckdb:
            yield

    def _exclusively(self, read: Callable[[], Any]) -> Any:
        with self.exclusive():
            return read()

    def submit(self, name: str, read: Callable[[], Any]) -> None:
        """Start ``read`` in the background thread (after the reads submitted before it),
        holding DuckDB (:meth:`exclusive`) while it runs."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgdiff-read")
        self._reads[name] = self._pool.submit(self._exclusively, read)

    def submitted(self, name: str) -> bool:
        """Whether the read ``name`` was submitted and not taken yet."""
        return name in self._reads

    def take(self, name: str, read: Callable[[], Any]) -> Any:
        """The result of the read ``name`` (its error, if it failed), or of ``read`` now when
        none was submitted."""
        found = self._reads.pop(name, None)
        return read() if found is None else found.result()

    def close(self) -> None:
        """Drop the reads not taken (one already running is waited for: DuckDB has no safe
        way to stop it from another thread)."""
        for future in self._reads.values():
            future.cancel()
        self._reads.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
