"""The lookup copy: the tables a question about one entity reads, in DuckDB's own storage.

A question about one entity (its timeline, its facts at a date, its label) reads a few rows.
Through the catalog's views it decodes whole Parquet row groups of hundreds of thousands of
rows and reads every manifest, several times per question: tens to hundreds of milliseconds.
The lookup copy holds ``snapshots``, ``entities``, ``entity_redirects``, ``statements``,
``labels`` and ``coverage`` as tables sorted by their id, so the same SQL reads only the row
groups that can hold the entity (of the entities and statements only the columns the
questions read; the labels once for all the snapshots that repeat them, behind a view with
the catalog's columns); derived from them by the catalog's own SQL, every entity's
timeline, so that is a read too; and a search index of every label and alias, sorted by
language and text. Each subject range's rows are in a schema of their own, and a question
about one entity reads its range's (:class:`ShardMap`); ``main`` holds views over every
range's tables. It is made once per state of the store (``kgdiff serve`` makes it in the
background; ``kg.build_lookup()`` from Python), range by range in bounded memory
(:mod:`kgdiff.query.lookup_build`), kept in ``STORE/builds/lookup/`` under the store's
fingerprint, and read only while that fingerprint is the store's: after an ingest the
questions go back to the views until it is made again. It takes a little more disk than the
Parquet files it is made of (525 MB beside their 462 MB on the bench store of three
snapshots of 5 M statements; layout 4 took 865 MB).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from kgdiff.query.copy_memory import MetadataBound
from kgdiff.query.lookup_ranges import (
    CATALOG_ALIAS,
    COPY_ALIAS,
    ShardMap,
    route,
)
from kgdiff.query.thread_cursors import ThreadCursors
from kgdiff.sqlfiles import load_sql, quote
from kgdiff.store.catalog_copy import catalog_copy
from kgdiff.store.layout import StoreLayout
from kgdiff.store.optimizers import connect
from kgdiff.store.store_root import set_store_root

SORTED_TABLES = {
    "entities": "qid",
    "entity_redirects": "qid",
    "statements": "subject",
    "labels": "qid",
    "coverage": "qid",
}
"""Each table the copy holds besides ``snapshots``, and the id column it is sorted by."""
DERIVED_TABLES = ("timelines",)
"""Tables the copy derives from those (``sql/lookup/copy_<name>.sql``): what a question
would otherwise compute per entity, computed once for all by the same SQL."""
SHARDED_TABLES = tuple(
    "label_rows" if table == "labels" else table for table in (*SORTED_TABLES, *DERIVED_TABLES)
)
"""The copy's tables kept a subject range at a time, each range in a schema of its own
(:class:`ShardMap`), and in ``main`` as views over every range's (the labels are kept as
``label_rows``; ``labels`` is a view over them, in each schema and in ``main``)."""
INDEX_TABLES = ("names",)
"""Tables the copy sorts by something else than an id (``sql/lookup/copy_<name>.sql``, one
statement each): ``names``, every label and alias lowercased and sorted by language and
text, so that a search by the start of a name reads a range of it
(sql/query/search_hits_copied.sql) instead of every label of every snapshot."""
ROW_GROUP_ROWS = 8192
"""Rows per row group of the copy: a lookup reads whole row groups (their min/max choose
them), and the labels of twenty entities read twenty; DuckDB's 122,880 made that ~20 ms,
8,192 ~4 ms, for a copy ~25 % larger."""
BLOCK_BYTES = 65536
"""The copy's block size: DuckDB's 256 KB blocks left much of the last block of each table
and column empty (the copy of the test samples, 6 MB of Parquet, took 11.8 MB with them,
8.9 MB with these)."""
READER_CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "threads": 1,
    "memory_limit": "256MB",
}
"""A reader of a copy: one thread (a lookup reads a few row groups; more threads only cost
their start) and a bound on the blocks it keeps (DuckDB's default, 80 % of the machine, let
a long-running service grow with every entity asked; evicted blocks are read again from the
file, which the system's cache holds)."""
COPY_LAYOUT = 9
"""The copy's tables, their columns and their order (7: statements keep their datatype, which a
classification reads for the change's nature; 8: each subject range's rows in a schema of its
own, :class:`ShardMap`; 9: each range's ``value_labels``, the labels its timelines show of
their values in the default language): a copy of another layout is made again, not read."""
WRITER_MEMORY = "1GB"
"""DuckDB's memory while a copy is made (:mod:`kgdiff.query.lookup_build`): each range's
sort fits; past it DuckDB spills."""
SPILL_PREFIX = ".spill-"
LOOK_AGAIN_SECONDS = 10.0
"""How often a graph without a copy looks whether one was made meanwhile (by ``kgdiff
serve`` in the background, or another process)."""


def copied_views() -> list[str]:
    """The catalog views the copy is made of."""
    return ["snapshots", *SORTED_TABLES]


def lookup_folder(layout: StoreLayout) -> Path:
    """Where the lookup copies of a store live."""
    return layout.root / "builds" / "lookup"


def lookup_path(layout: StoreLayout, tag: str) -> Path:
    """The lookup copy of the store state ``tag`` (its fingerprint), in this layout."""
    return lookup_folder(layout) / f"{tag}-v{COPY_LAYOUT}.duckdb"


def store_tag(connection: duckdb.DuckDBPyConnection) -> str:
    """The fingerprint of the store's snapshots and views (sql/query/store_tag.sql)."""
    rows = connection.execute(load_sql("query/store_tag")).fetchall()  # finished: see name_ids
    return str(rows[0][0]) if rows else ""


def made_whole(target: Path, fill: Callable[[Path], None]) -> None:
    """``fill`` a temporary file beside ``target``, then rename it to ``target``: a reader
    sees the whole file or none; nothing is left of a failed or interrupted one."""
    partial = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    partial.unlink(missing_ok=True)
    try:
        fill(partial)
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        Path(f"{partial}.wal").unlink(missing_ok=True)
        raise


@contextmanager
def writing_beside_catalog(
    layout: StoreLayout, partial: Path, alias: str
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection that reads the catalog's views (its default database) and writes the new
    database ``partial`` as ``alias``, in row groups of :data:`ROW_GROUP_ROWS`, within
    :data:`WRITER_MEMORY` (spilling into a folder beside ``partial``, removed after);
    detached (written out) when the block ends without an error."""
    spill = spill_folder(partial.parent, os.getpid())
    connection = connect({"memory_limit": WRITER_MEMORY})
    try:
        connection.execute("SET enable_progress_bar = false")
        connection.execute(f"SET temp_directory = {quote(str(spill))}")
        attach_catalog(connection, layout)
        connection.execute(f"USE {CATALOG_ALIAS}")
        set_store_root(connection, layout)
        attach_for_writing(connection, partial, alias)
        yield connection
        connection.execute(f"DETACH {alias}")
    finally:
        connection.close()
        shutil.rmtree(spill, ignore_errors=True)


def attach_for_writing(connection: duckdb.DuckDBPyConnection, partial: Path, alias: str) -> None:
    """Attach the copy ``partial`` as ``alias`` to be written, in row groups of
    :data:`ROW_GROUP_ROWS` and blocks of :data:`BLOCK_BYTES`."""
    connection.execute(
        f"ATTACH {quote(str(partial))} AS {alias}"
        f" (ROW_GROUP_SIZE {ROW_GROUP_ROWS}, BLOCK_SIZE {BLOCK_BYTES})"
    )


def attach_again(connection: duckdb.DuckDBPyConnection, partial: Path, alias: str) -> None:
    """Detach the copy being written (``partial``, attached as ``alias`` by
    :func:`writing_beside_catalog`), which writes it out, and attach it again.

    DuckDB keeps in memory what it knows of every row group written through an attachment (a
    few hundred bytes a column, and the copy's row groups are small): the writer's RSS grew
    with the copy, from 1.2 to 3.9 GB over the 14.6 GB copy of 3 x 100 M statements. Attached
    again, the file's row groups are read only when a query asks for them."""
    connection.execute(f"DETACH {alias}")
    attach_for_writing(connection, partial, alias)


def spill_folder(folder: Path, pid: int | str) -> Path:
    """Where the process ``pid`` making a copy in ``folder`` spills what exceeds its memory."""
    return folder / f"{SPILL_PREFIX}{pid}"


def attach_catalog(connection: duckdb.DuckDBPyConnection, layout: StoreLayout) -> None:
    """Attach the catalog read-only as ``kgdiff_catalog``: this process's private copy of it
    (:mod:`kgdiff.store.catalog_copy`), so that a DuckDB session on ``kg.duckdb`` is never
    locked out."""
    copy = catalog_copy(layout.catalog)
    connection.execute(f"ATTACH {quote(str(copy))} AS {CATALOG_ALIAS} (READ_ONLY)")


def open_lookup(layout: StoreLayout, path: Path) -> duckdb.DuckDBPyConnection:
    """The lookup copy ``path`` and the catalog behind it, both read-only, in a database of
    their own (DuckDB shares a database opened by its path within a process, and another
    graph's may have the catalog attached already), on one thread: a lookup reads a few
    row groups, more threads only cost their start."""
    connection = connect(READER_CONFIG)
    try:
        connection.execute(f"ATTACH {quote(str(path))} AS {COPY_ALIAS} (READ_ONLY)")
        attach_catalog(connection, layout)
    except BaseException:
        connection.close()
        raise
    return connection


def lookup_session(cursor: duckdb.DuckDBPyConnection, layout: StoreLayout) -> None:
    """Make a cursor of :func:`open_lookup` read names the copy holds from it (every range's:
    a cursor rests there between questions) and everything else (macros, other views) from
    the catalog; a session setting, so once per cursor."""
    route(cursor, None)
    set_store_root(cursor, layout)


class LookupCopies:
    """The lookup copy a graph reads while it is the store's (one read-only instance,
    reopened when the catalog changes or it holds more of the copy's row groups than its
    :class:`MetadataBound`; none while the store has no copy of its state)."""

    def __init__(
        self,
        layout: StoreLayout,
        enabled: bool = True,
        *,
        bound: MetadataBound | None = None,
    ) -> None:
        self.layout = layout
        self.enabled = enabled
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._instance: duckdb.DuckDBPyConnection | None = None
        self._shards = ShardMap([])
        self._path: Path | None = None
        self._looked = 0.0
        self._bound = bound or MetadataBound()
        self._cursors = ThreadCursors(lambda cursor: lookup_session(cursor, layout))

    def path(self, stamp: tuple[int, int], tag: Callable[[], str]) -> Path | None:
        """The copy of the store as the catalog ``stamp`` has it (``tag`` gives that state's
        fingerprint, asked once per stamp), or None when there is none."""
        with self._lock:
            self._refresh(stamp, tag)
            return self._path

    @contextmanager
    def reading(
        self, stamp: tuple[int, int], tag: Callable[[], str], about: str | None = None
    ) -> Iterator[tuple[duckdb.DuckDBPyConnection, ShardMap] | None]:
        """A cursor on the copy of the store as the catalog ``stamp`` has it (this thread's,
        :class:`~kgdiff.query.thread_cursors.ThreadCursors`) and the copy's ranges, or None
        when there is no copy. ``about``: an id whose range's tables the cursor reads (every
        query run on it must read only that id's rows of them), else every range's."""
        with self._lock:
            self._refresh(stamp, tag)
            instance, shards = self._instance, self._shards
        if instance is None:
            yield None
            return
        with self._cursors.borrow(instance) as cursor:
            if about is None:  # the cursor rests on every range's tables
                yield cursor, shards
                return
            route(cursor, shards.schema_of(about))
            try:
                yield cursor, shards
            finally:
                route(cursor, None)

    def forget(self) -> None:
        """Look for a copy again at the next question (one was just made)."""
        with self._lock:
            self._stamp = None

    def close(self) -> None:
        """Close the copy's instance."""
        with self._lock:
            if self._instance is not None:
                self._instance.close()
            self._instance, self._stamp, self._path = None, None, None

    def _refresh(self, stamp: tuple[int, int], tag: Callable[[], str]) -> None:
        if not self.enabled:
            return
        if stamp == self._stamp:
            if self._instance is not None and not self._bound.passed(self._instance):
                return
            if self._instance is None and time.monotonic() - self._looked <= LOOK_AGAIN_SECONDS:
                return
        self._looked = time.monotonic()
        # the instance is let go, not closed: a question on another thread may be reading
        # through a cursor of it, which closing it would close; it goes with its last cursor
        self._instance, self._path = None, lookup_path(self.layout, tag())
        if self._path.is_file():
            self._instance = open_lookup(self.layout, self._path)
            self._shards = ShardMap.read(self._instance)
        else:
            self._path = None
        self._stamp = stamp
