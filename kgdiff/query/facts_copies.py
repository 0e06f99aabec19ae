"""Facts copies: every subject's facts at one date, made once, beside the lookup copy.

The facts of one entity at a date are classified from its own rows (~60 ms, most of it
DuckDB planning the classification's SQL). A service asked for many entities at the same few
dates (a benchmark's cutoffs) can have the facts of every subject at such a date made once,
by the very same SQL (``facts_at`` over the whole store), sorted by subject in a DuckDB file
of their own: then one entity's facts are a lookup of a few rows. A facts copy belongs to a
lookup copy (named after it, removed with it), so it is read only while the store is in the
state it was made from, and is cut into the lookup copy's subject ranges, each range's facts
in a schema of its own (:class:`~kgdiff.query.lookup_ranges.ShardMap`), so that one subject's
facts walk the row groups of its range only.
"""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa

from kgdiff.query.copy_memory import MetadataBound
from kgdiff.query.frames import frame_of
from kgdiff.query.lookup import (
    READER_CONFIG,
    attach_again,
    made_whole,
    writing_beside_catalog,
)
from kgdiff.query.lookup_ranges import COPY_ALIAS, ShardMap
from kgdiff.query.thread_cursors import ThreadCursors
from kgdiff.sqlfiles import quote, render
from kgdiff.store.layout import StoreLayout
from kgdiff.store.optimizers import connect
from kgdiff.temporal.classify import check_mode

WHOLE = "facts_whole"
"""The scratch database every subject's facts are written into before they are cut into
ranges (so that the copy's file holds only the ranges' tables, not the freed blocks of a
whole one)."""


def facts_copy_path(lookup_copy: Path, day: date, mode: str) -> Path:
    """The facts copy of ``day`` in ``mode`` that belongs to ``lookup_copy``."""
    return lookup_copy.with_name(f"{lookup_copy.stem}.facts-{day.isoformat()}-{mode}.duckdb")


def build_facts_copy(layout: StoreLayout, lookup_copy: Path, day: date, mode: str) -> Path:
    """Make the facts copy of ``day`` in ``mode`` unless it exists (written to a temporary
    file and renamed); return its path."""
    check_mode(mode)
    target = facts_copy_path(lookup_copy, day, mode)
    if target.is_file():
        return target
    made_whole(target, lambda partial: _fill(layout, lookup_copy, partial, day, mode))
    return target


def _fill(layout: StoreLayout, lookup_copy: Path, partial: Path, day: date, mode: str) -> None:
    """Every subject's facts into a scratch database beside ``partial``, then a subject range
    at a time (the lookup copy's) into the range's schema of ``partial``; the scratch
    database is removed, whatever happens."""
    # named as a partial copy is (".NAME.tmp-PID"), so that a killed build's is removed too
    whole = partial.with_name(partial.name.replace(".tmp-", ".tmp-whole-"))
    try:
        with writing_beside_catalog(layout, partial, "facts") as connection:
            connection.execute(f"ATTACH {quote(str(lookup_copy))} AS {COPY_ALIAS} (READ_ONLY)")
            shards = ShardMap.read(connection)
            connection.execute(f"ATTACH {quote(str(whole))} AS {WHOLE}")
            values = {"day": day, "mode": mode}
            connection.execute(render("lookup/copy_facts", whole=WHOLE), values)
            for shard in shards.shards:
                connection.execute(f'CREATE SCHEMA facts."{shard.name}"')
                range_sql = render("lookup/copy_facts_range", shard=shard.name, whole=WHOLE)
                connection.execute(range_sql, {"lo": shard.lo, "hi": shard.hi})
                attach_again(connection, partial, "facts")  # its written row groups let go
            shards.write(connection, "facts")
            connection.execute(f"DETACH {WHOLE}")
    finally:
        whole.unlink(missing_ok=True)
        Path(f"{whole}.wal").unlink(missing_ok=True)


class FactsCopies:
    """The facts copies a graph has read, each open once (read-only, one thread)."""

    def __init__(self, bound: MetadataBound | None = None) -> None:
        self._lock = threading.Lock()
        self._bound = bound or MetadataBound()
        self._open: dict[Path, tuple[duckdb.DuckDBPyConnection, ShardMap]] = {}
        self._cursors = ThreadCursors(lambda _: None)

    def rows(self, path: Path, subjects: list[str]) -> pl.DataFrame:
        """The facts of ``subjects`` in the copy ``path``, in (subject, pid) order (a
        subject at a time, from its range's table: an equality reads only the row groups
        that can hold it)."""
        instance, shards = self._instance(path)
        with self._cursors.borrow(instance) as cursor:
            tables = [_facts_of(cursor, shards, subject) for subject in sorted(set(subjects))]
            return frame_of(pa.concat_tables(tables))

    def close(self) -> None:
        """Close every copy read."""
        with self._lock:
            for instance, _ in self._open.values():
                instance.close()
            self._open.clear()

    def _instance(self, path: Path) -> tuple[duckdb.DuckDBPyConnection, ShardMap]:
        with self._lock:
            opened = self._open.get(path)
            if opened is not None and self._bound.passed(opened[0]):
                opened = None  # opened again; the old one let go, not closed (see LookupCopies)
            if opened is None:
                instance = connect(READER_CONFIG)
                try:
                    instance.execute(f"ATTACH {quote(str(path))} AS facts (READ_ONLY)")
                    opened = (instance, ShardMap.read(instance, "facts"))
                except BaseException:
                    instance.close()
                    raise
                self._open[path] = opened
            return opened


def _facts_of(cursor: duckdb.DuckDBPyConnection, shards: ShardMap, subject: str) -> pa.Table:
    """One subject's rows of a facts copy (none when no range holds it)."""
    schema = shards.schema_of(subject)
    if schema is None:
        schema = shards.shards[0].name  # an empty answer of the right columns
        subject = ""
    sql = render("lookup/facts_of", shard=schema)
    return cursor.execute(sql, {"subject": subject}).to_arrow_table()
