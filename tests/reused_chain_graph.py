"""One chain graph (tests/chain_graphs.py) for every example of a property test.

``graph(rows)`` makes a connection, its tables, the ``qualifiers`` view and the query macros
for each graph: they cost as much as the chain search on a small graph. :class:`GraphOnce`
makes them once per test; each later graph makes the ``snapshots`` and ``statements`` tables
anew, empty, and fills them with its own rows (the view and the macros read whatever the
tables hold when a query runs), so every example still sees exactly its own graph.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import duckdb

from tests.chain_graphs import Row, fill_graph, graph

ONE_SNAPSHOT = (("s1", date(2014, 1, 1)),)
"""``graph``'s default snapshots."""


class GraphOnce:
    """A connection made by the first :meth:`graph`, reused by the later ones."""

    def __init__(self) -> None:
        self.connection: duckdb.DuckDBPyConnection | None = None

    def graph(self, rows: list[Row], snapshots: Any = ONE_SNAPSHOT) -> duckdb.DuckDBPyConnection:
        """The connection holding ``rows`` (no labels), as ``graph(rows, snapshots)``."""
        if self.connection is None:
            self.connection = graph(rows, snapshots)
            return self.connection
        fill_graph(self.connection, rows, snapshots)
        return self.connection

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None
