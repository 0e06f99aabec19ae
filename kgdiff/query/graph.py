"""``kgdiff.open(store)``: the one place every face of kgdiff asks its questions.

The command line, the REST service and Python users all call these methods, so a question
has one answer whoever asks. Each method checks what it is given the same way (ids
normalised and known to the store, dates the snapshots can answer unless the gap is
allowed) and answers with a polars DataFrame, built from DuckDB's Arrow result without a
copy (``frame.to_arrow()`` gives the Arrow table back, again without a copy). Methods that
the command line and the service need more from (which snapshot answered, why nothing did)
return an :class:`~kgdiff.query.answers.Answer` from ``kg.answers``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import duckdb
import polars as pl

from kgdiff.errors import StoreError
from kgdiff.query.answers import Answers
from kgdiff.query.facts_copies import FactsCopies, build_facts_copy, facts_copy_path
from kgdiff.query.graph_questions import GraphQuestions
from kgdiff.query.lookup import LookupCopies, copied_views, store_tag
from kgdiff.query.lookup_build import build_lookup
from kgdiff.query.lookup_ranges import ShardMap
from kgdiff.query.memo import StoreMemos
from kgdiff.sqlfiles import load_sql, quote
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.catalog_copy import catalog_copy
from kgdiff.store.layout import StoreLayout
from kgdiff.store.optimizers import disable_wrong_optimizers
from kgdiff.store.store_root import CATALOG_MEMORY, set_store_root
from kgdiff.temporal.dates import GapPolicy
from kgdiff.temporal.facts import check_day
from kgdiff.temporal.helper_macros import with_helpers

FACTS_COPY_HINT = "A facts copy is made only of a date the snapshots answer: choose one"


DUCKDB_MEMORY = CATALOG_MEMORY
"""DuckDB's memory limit on the catalog's database unless ``settings`` name another (its own
default is 80 % of the machine's memory): every command then stays within the 4 GB a step
may take at any size, spilling past the limit (issue 36; ``kgdiff updates`` of 3 × 25 M
statements peaked at 4.2 GB of RSS under the default). The export sets its own
(:func:`kgdiff.export.benchmark.duckdb_memory`), the service's work processes theirs."""


class KnowledgeGraph(GraphQuestions):
    """A store's knowledge graph: snapshots, classifications, timelines, pools, chains,
    updates, evidence and supporting revisions, and SQL over its catalog."""

    def __init__(
        self, layout: StoreLayout, lookup: bool = True, settings: dict[str, str] | None = None
    ) -> None:
        self.layout = layout
        # of DuckDB, on the catalog's database
        self.settings = {"memory_limit": DUCKDB_MEMORY, **(settings or {})}
        self._lock = threading.Lock()
        self._base: duckdb.DuckDBPyConnection | None = None
        self._stamp: tuple[int, int] | None = None
        self._lookups = LookupCopies(layout, enabled=lookup)
        self._facts = FactsCopies()
        self.memos = StoreMemos(layout.catalog)
        self.answers = Answers(self)

    @classmethod
    def open(cls, store: object = None, lookup: bool = True) -> KnowledgeGraph:
        """The graph of ``store`` (default: ``$KGDIFF_STORE``, then ``./kgdiff-data``);
        ``lookup=False`` reads the views even when the store has a lookup copy."""
        layout = StoreLayout.resolve(store)  # type: ignore[arg-type]
        if not layout.catalog.is_file():
            raise StoreError(
                f"no catalog at {layout.catalog}; ingest a snapshot first (or run 'kgdiff demo')"
            )
        return cls(layout, lookup)

    def __repr__(self) -> str:
        return f"KnowledgeGraph({str(self.layout.root)!r})"

    @contextmanager
    def connection(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-only connection to the catalog for one question (one per thread at a time):
        a cursor of one database opened once, and again when an ingest replaced the catalog."""
        cursor = self._database().cursor()
        try:
            set_store_root(cursor, self.layout)
            yield cursor
        finally:
            cursor.close()

    @contextmanager
    def lookup(self, about: str | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection for a question about a few entities: on the store's lookup copy
        (:mod:`kgdiff.query.lookup`) when it has one of its present state, else as
        :meth:`connection`. Both give the same answers; the copy gives them sooner.
        ``about``: the one entity every query run on it reads the rows of (on the copy, those
        of its subject range only, :class:`~kgdiff.query.lookup_ranges.ShardMap`)."""
        with self.lookup_source(about) as (connection, _):
            yield connection

    @contextmanager
    def lookup_source(
        self, about: str | None = None
    ) -> Iterator[tuple[duckdb.DuckDBPyConnection, ShardMap | None]]:
        """:meth:`lookup`'s connection and, when it is the copy (whose derived tables,
        timelines and latest labels, a question may read instead of computing them), the
        copy's subject ranges; None else."""
        stat = self.layout.catalog.stat()
        stamp = (stat.st_ino, stat.st_mtime_ns)
        with self._lookups.reading(stamp, self._tag, about) as copy:
            if copy is not None:
                yield copy
                return
        with self.connection() as connection:
            yield connection, None

    def build_lookup(self, progress: Callable[[str], None] | None = None) -> Path:
        """Make the lookup copy of the store as it is now (unless it exists); return its
        path. Questions about one entity read it from then on, until the store changes."""
        if self._lacks_views(copied_views()):
            with store_lock(self.layout):
                rebuild_catalog(self.layout)
            (progress or (lambda _: None))("catalog rebuilt: an older kgdiff made it")
        path = build_lookup(self.layout, self._tag(), progress)
        self._lookups.forget()
        return path

    def build_facts(self, day: date | str, mode: str = "record") -> Path:
        """Make the facts copy of ``day`` (every subject's facts then, beside the lookup
        copy, made first if need be); return its path. One entity's facts at that date are
        then read from it."""
        when = date.fromisoformat(day) if isinstance(day, str) else day
        with self.connection() as connection:
            check_day(connection, when, mode, GapPolicy(), FACTS_COPY_HINT)
        return build_facts_copy(self.layout, self.build_lookup(), when, mode)

    def facts_copy(self, day: date, mode: str) -> Path | None:
        """The facts copy of ``day`` in ``mode`` of the store as it is now, or None."""
        copy = self.lookup_copy()
        path = facts_copy_path(copy, day, mode) if copy is not None else None
        return path if path is not None and path.is_file() else None

    def facts_rows(self, path: Path, subjects: list[str]) -> pl.DataFrame:
        """The facts of ``subjects`` in the facts copy ``path``."""
        return self._facts.rows(path, subjects)

    def _lacks_views(self, names: list[str]) -> bool:
        """Whether the catalog lacks one of ``names`` (made by an older kgdiff)."""
        with self.connection() as connection:
            rows = connection.execute(load_sql("lookup/views_present"), {"names": names})
            return len(rows.fetchall()) < len(names)

    def lookup_copy(self) -> Path | None:
        """The lookup copy questions about one entity read now (None: they read the views)."""
        stat = self.layout.catalog.stat()
        return self._lookups.path((stat.st_ino, stat.st_mtime_ns), self._tag)

    def _tag(self) -> str:
        """The store's fingerprint ('' for a catalog of an older kgdiff, which has no copy)."""
        with self.connection() as connection:
            try:
                return store_tag(connection)
            except duckdb.CatalogException:
                return ""

    def _database(self) -> duckdb.DuckDBPyConnection:
        stat = self.layout.catalog.stat()
        stamp = (stat.st_ino, stat.st_mtime_ns)
        with self._lock:
            if self._base is None or stamp != self._stamp:
                if self._base is not None:
                    self._base.close()
                self._base = self._open_copy()
                for name, value in self.settings.items():
                    self._base.execute(f"SET {name} = {quote(value)}")
                self._stamp = stamp
            return self._base

    def _open_copy(self) -> duckdb.DuckDBPyConnection:
        """The catalog's private copy, read-only (never kg.duckdb itself: its lock), with the
        helper macros an older kgdiff's catalog lacks."""
        base = duckdb.connect(str(catalog_copy(self.layout.catalog)), read_only=True)
        disable_wrong_optimizers(base)
        return with_helpers(base, self.layout)

    def close(self) -> None:
        """Close the catalog (a later question opens it again)."""
        self._lookups.close()
        self._facts.close()
        with self._lock:
            if self._base is not None:
                self._base.close()
                self._base = None
