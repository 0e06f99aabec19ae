"""Pages of a build read from its page files (:mod:`kgdiff.query.pages`), in key order.

A page file is immutable once published, and paging reads it again and again: a client
paging through a build with 100 groups a page asks each 8,192-row file about 80 times.
Decoding a file once and keeping it (:class:`PageFileCache`, bounded in bytes, least
recently used first out) turns a page into a selection of rows in memory: ~0.7 ms where a
query of the file cost ~5 ms (its planning, footer and row-group decoding each time).
Streaming every group reads each file once, outside the cache, so it does not evict the
files that pages are read from.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from kgdiff.query.pages import Key, PageChoice, PagedBuild

PAGE_COLUMNS = (
    "subject", "subject_label", "pid", "pid_label", "level", "change_kind", "change_nature",
    "changed_after_cutoff", "latest", "latest_labels", "outdated", "outdated_labels",
    "all_answers", "all_answers_labels", "ambiguous_reason", "not_covered_in",
    "record_level", "valid_level", "backfilled",
)  # fmt: skip
"""The columns of a page, in the order a page shows them."""
CACHE_BYTES = 96 * 1024 * 1024
"""Decoded page files kept per process (a file of 8,192 groups is ~2–4 MB decoded)."""


def read_page_file(path: Path) -> pa.Table:
    """A page file's groups, decoded, in key order, with :data:`PAGE_COLUMNS`."""
    return pq.read_table(path, columns=list(PAGE_COLUMNS))


class PageFileCache:
    """Decoded page files, the most recently read kept up to ``max_bytes``."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._tables: OrderedDict[Path, pa.Table] = OrderedDict()
        self._bytes = 0

    def table(self, path: Path) -> pa.Table:
        """The decoded file ``path`` (read now if it is not kept)."""
        with self._lock:
            table = self._tables.get(path)
            if table is not None:
                self._tables.move_to_end(path)
                return table
        table = read_page_file(path)
        with self._lock:
            if path not in self._tables:
                self._tables[path] = table
                self._bytes += table.nbytes
                self._evict()
        return table

    def _evict(self) -> None:
        while self._bytes > self.max_bytes and len(self._tables) > 1:
            _, oldest = self._tables.popitem(last=False)
            self._bytes -= oldest.nbytes


def moved_to_stable(table: pa.Table) -> pa.ChunkedArray:
    """Which groups of ``table`` are evolved by a change that is not substantive (reported
    stable when only substantive changes are asked for)."""
    evolved = pc.equal(table.column("level"), "evolved")
    nature = pc.fill_null(pc.not_equal(table.column("change_nature"), "substantive"), False)
    return pc.and_(evolved, nature)


def substantive_only(table: pa.Table) -> pa.Table:
    """``table`` with each evolved group whose change is not substantive made stable: no
    change kind, changed_after_cutoff or outdated values (its change_nature kept)."""
    moved = moved_to_stable(table)
    columns = {
        "level": pc.if_else(moved, "stable", table.column("level")),
        "change_kind": pc.if_else(moved, None, table.column("change_kind")),
        "changed_after_cutoff": pc.if_else(moved, None, table.column("changed_after_cutoff")),
    }
    for name in ("outdated", "outdated_labels"):
        empty = pa.array([[]] * table.num_rows, table.schema.field(name).type)
        columns[name] = pc.if_else(moved, empty, table.column(name))
    for name, column in columns.items():
        table = table.set_column(table.schema.get_field_index(name), name, column)
    return table


def chosen_rows(table: pa.Table, choice: PageChoice, after: Key | None) -> pa.Array:
    """The positions in ``table`` (one page file, in key order, levels as ``choice`` reports
    them) of the chosen groups whose key (subject, pid) comes after ``after``, in order."""
    subjects, pids = table.column("subject"), table.column("pid")
    masks = []
    if after is not None:
        same = pc.and_(pc.equal(subjects, after[0]), pc.greater(pids, after[1]))
        masks.append(pc.or_(pc.greater(subjects, after[0]), same))
    for column, values in (("level", choice.levels), ("pid", choice.pids),
                           ("subject", choice.subjects)):  # fmt: skip
        if values:
            value_set = pa.array(list(values), pa.string())
            masks.append(pc.is_in(table.column(column), value_set=value_set))
    if not masks:
        return pa.array(range(table.num_rows), pa.int64())
    keep = masks[0]
    for mask in masks[1:]:
        keep = pc.and_(keep, mask)
    return pc.indices_nonzero(pc.fill_null(keep, False))


def read_page(
    cache: PageFileCache,
    pages: PagedBuild,
    choice: PageChoice,
    after: Key | None,
    limit: int,
) -> pa.Table:
    """At most ``limit`` + 1 chosen groups after ``after``, in key order (the one more tells
    whether another page follows), from the files that can hold them."""
    wanted, parts, found = limit + 1, [], 0
    for file in pages.candidates(choice, after):
        table = reported(cache.table(pages.folder / file.name), choice)
        rows = chosen_rows(table, choice, after)[: wanted - found]
        if len(rows):
            parts.append(table.take(rows))
            found += len(rows)
        if found >= wanted:
            break
    if not parts:
        return _empty(pages)
    return pa.concat_tables(parts)


def reported(table: pa.Table, choice: PageChoice) -> pa.Table:
    """A page file's groups as ``choice`` reports them (:func:`substantive_only`)."""
    return substantive_only(table) if choice.substantive else table


def stream_pages(pages: PagedBuild, choice: PageChoice) -> Iterator[pa.Table]:
    """Every chosen group, in key order, a file at a time (memory stays flat)."""
    for file in pages.candidates(choice, None):
        table = reported(read_page_file(pages.folder / file.name), choice)
        rows = chosen_rows(table, choice, None)
        if len(rows):
            yield table.take(rows)


def _empty(pages: PagedBuild) -> pa.Table:
    """No groups, with the columns of a page (the schema of the build's first file)."""
    if not pages.files:
        return pa.table({name: pa.array([], pa.string()) for name in PAGE_COLUMNS})
    return (
        pq.read_schema(pages.folder / pages.files[0].name).empty_table().select(list(PAGE_COLUMNS))
    )
