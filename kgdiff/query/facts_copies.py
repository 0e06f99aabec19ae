"""Facts copies: every subject's facts at one date, made once, beside the lookup copy.

The facts of one entity at a date are classified from its own rows (~60 ms, most of it
DuckDB planning the classification's SQL). A service asked for many entities at the same few
dates (a benchmark's cutoffs) can have the facts of every subject at such a date made once,
by the very same SQL (``facts_at`` over the whole store), sorted by subject in a DuckDB file
of their own: then one entity's facts are a lookup of a few rows. A facts copy belongs to a
lookup copy (named after it, removed with it), so it is read only while the store is in the
state it was made from.
"""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa

from kgdiff.query.frames import frame_of
from kgdiff.query.lookup import READER_CONFIG, made_whole, writing_beside_catalog
from kgdiff.query.thread_cursors import ThreadCursors
from kgdiff.sqlfiles import load_sql, quote, run_arrow
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.classify import check_mode


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
    made_whole(target, lambda partial: _fill(layout, partial, day, mode))
    return target


def _fill(layout: StoreLayout, partial: Path, day: date, mode: str) -> None:
    with writing_beside_catalog(layout, partial, "facts") as connection:
        connection.execute(load_sql("lookup/copy_facts"), {"day": day, "mode": mode})


class FactsCopies:
    """The facts copies a graph has read, each open once (read-only, one thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[Path, duckdb.DuckDBPyConnection] = {}
        self._cursors = ThreadCursors(lambda _: None)

    def rows(self, path: Path, subjects: list[str]) -> pl.DataFrame:
        """The facts of ``subjects`` in the copy ``path``, in (subject, pid) order (a
        subject at a time: an equality reads only the row groups that can hold it)."""
        with self._cursors.borrow(self._instance(path)) as cursor:
            tables = [
                run_arrow(cursor, "lookup/facts_of", {"subject": subject})
                for subject in sorted(set(subjects))
            ]
            return frame_of(pa.concat_tables(tables))

    def close(self) -> None:
        """Close every copy read."""
        with self._lock:
            for instance in self._open.values():
                instance.close()
            self._open.clear()

    def _instance(self, path: Path) -> duckdb.DuckDBPyConnection:
        with self._lock:
            instance = self._open.get(path)
            if instance is None:
                instance = duckdb.connect(":memory:", config=READER_CONFIG)
                instance.execute(f"ATTACH {quote(str(path))} AS facts (READ_ONLY)")
                self._open[path] = instance
            return instance
