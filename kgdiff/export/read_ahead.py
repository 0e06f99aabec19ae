"""DuckDB reads that later configs of an export need, started in a background thread as the
export begins: DuckDB releases the GIL, so a long query (``kg.updates`` classifies the whole
latest snapshot in valid time, ~17 s on one core for 3 × 5 M statements) runs while the first
configs' records are built in Python and polars on the other core. Each read runs on its own
cursor of the catalog (:meth:`kgdiff.query.graph.KnowledgeGraph.connection`), one at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any


class ReadAhead:
    """Reads submitted now and taken later, by name; a read never submitted runs when taken."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._reads: dict[str, Future[Any]] = {}

    def submit(self, name: str, read: Callable[[], Any]) -> None:
        """Start ``read`` in the background thread (after the reads submitted before it)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgdiff-read")
        self._reads[name] = self._pool.submit(read)

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
