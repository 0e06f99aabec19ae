"""What the store's answers rest on, looked up once per catalog: a fingerprint of its
snapshots (the REST service's ETags), how many there are and their span.

The catalog file is replaced whenever the store changes (an ingest, evidence, a new
classification build); its inode and modification time tell when to look again, so a
request costs one ``stat`` rather than a query.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

import duckdb
import polars as pl

from kgdiff.errors import StoreError
from kgdiff.sqlfiles import load_sql
from kgdiff.store.vetting import LEFT_OUT_VIEW, LeftOut
from kgdiff.version import __version__

if TYPE_CHECKING:
    from kgdiff.query.graph import KnowledgeGraph


@dataclass(frozen=True)
class StoreState:
    """The store's fingerprint (with kgdiff's version), snapshots and their span."""

    tag: str
    snapshots: int
    first: date | None
    latest: date | None
    listing: pl.DataFrame
    """The snapshots as ``kg.snapshots()`` lists them (the view reads every manifest)."""
    left_out: list[str] = field(default_factory=list)
    """The published folders the catalog leaves out, one line each (why, what to do)."""


class StoreWatch:
    """The :class:`StoreState` of a graph's store, refreshed when its catalog changes."""

    def __init__(self, graph: KnowledgeGraph) -> None:
        self.graph = graph
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._state: StoreState | None = None

    def state(self) -> StoreState:
        """The store as it is now (a :class:`~kgdiff.errors.StoreError` without a catalog)."""
        try:
            stat = self.graph.layout.catalog.stat()
        except OSError as exc:
            raise StoreError(f"no catalog at {self.graph.layout.catalog}: {exc.strerror}") from exc
        stamp = (stat.st_ino, stat.st_mtime_ns)
        with self._lock:
            if self._state is None or stamp != self._stamp:
                self._state, self._stamp = self._look(), stamp
            return self._state

    def known_tag(self) -> str | None:
        """The store's fingerprint when the catalog is as last looked at (one ``stat``, no
        query, no lock held long: safe on an event loop), else None."""
        try:
            stat = self.graph.layout.catalog.stat()
        except OSError:
            return None
        state = self._state
        if state is None or (stat.st_ino, stat.st_mtime_ns) != self._stamp:
            return None
        return state.tag

    def _look(self) -> StoreState:
        with self.graph.connection() as connection:
            tag_row = connection.execute(load_sql("query/store_tag")).fetchone()
            span = connection.execute(load_sql("query/snapshot_span")).fetchone()
            left_out = _left_out(connection)
        tag, count = tag_row if tag_row else ("", 0)
        first, latest = span if span else (None, None)
        listing = self.graph.answers.snapshots().frame
        return StoreState(f"{tag}-{__version__}", int(count), first, latest, listing, left_out)


def _left_out(connection: duckdb.DuckDBPyConnection) -> list[str]:
    """The lines of the folders the catalog leaves out (none in a catalog of an older
    kgdiff, which did not record them)."""
    present = connection.execute(load_sql("lookup/views_present"), {"names": [LEFT_OUT_VIEW]})
    if not present.fetchall():
        return []
    rows = connection.execute(load_sql("query/left_out")).fetchall()
    return [LeftOut(*row).line for row in rows]
