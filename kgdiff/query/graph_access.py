"""What the answers (:mod:`kgdiff.query.answers`) read of the knowledge graph they answer for:
its store, its memos, its connections and its facts copies.

:class:`~kgdiff.query.graph.KnowledgeGraph` holds the answers and is what they are given, so
they name it by this protocol instead of importing it: the graph imports the answers, never
the other way round.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import date
from pathlib import Path
from typing import Protocol

import duckdb
import polars as pl

from kgdiff.query.lookup_ranges import ShardMap
from kgdiff.query.memo import StoreMemos
from kgdiff.store.layout import StoreLayout


class GraphAccess(Protocol):
    """The parts of a knowledge graph its answers use (see the graph's methods)."""

    layout: StoreLayout
    memos: StoreMemos

    def connection(self) -> AbstractContextManager[duckdb.DuckDBPyConnection]:
        """A read-only connection to the catalog for one question."""

    def lookup(self, about: str | None = None) -> AbstractContextManager[duckdb.DuckDBPyConnection]:
        """A connection for a question about a few entities (the lookup copy when it can);
        ``about``: the one entity every query on it reads (its subject range's tables)."""

    def lookup_source(
        self, about: str | None = None
    ) -> AbstractContextManager[tuple[duckdb.DuckDBPyConnection, ShardMap | None]]:
        """:meth:`lookup`'s connection and, when it is the lookup copy, the copy's subject
        ranges (None else)."""

    def facts_copy(self, day: date, mode: str) -> Path | None:
        """The facts copy of ``day`` in ``mode`` of the store as it is now, or None."""

    def facts_rows(self, path: Path, subjects: list[str]) -> pl.DataFrame:
        """The facts of ``subjects`` in the facts copy ``path``."""
