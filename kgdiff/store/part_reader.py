"""Read the rows of a subject range from staging part files, leaving out given rows.

A part file is Arrow IPC with one record batch per group of the chunk (items, other kinds,
deferred entities) and the groups' subject ranges in its schema metadata, so a bucket reads
only the batches that overlap it. ``skip`` leaves out rows by their position in a batch: the
rows of an entity that a later occurrence of the same id replaces (:mod:`kgdiff.store.duplicates`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.ipc as ipc

from kgdiff.errors import StoreError
from kgdiff.store.buckets import in_range_mask, ranges_overlap
from kgdiff.store.staging import group_ranges

RowRanges = Sequence[tuple[int, int]]
"""Rows ``[start, stop)`` of one record batch."""
BatchSkips = Mapping[int, RowRanges]
"""Rows to leave out of a part file, by record batch (group) index."""
NO_SKIPS: BatchSkips = {}


def read_part(
    path: str,
    columns: list[str] | None,
    lo: str | None = None,
    hi: str | None = None,
    skip: BatchSkips = NO_SKIPS,
) -> pa.Table:
    """The record batches of a part file whose subjects may lie in ``[lo, hi)`` (all of
    them when the file does not record its batches' ranges), without schema metadata and
    without the rows ``skip`` names.

    The file is memory-mapped: the buffers of an uncompressed part are used where they lie
    in the page cache, without a copy (a compressed part is decompressed either way)."""
    try:
        with pa.memory_map(path) as source:
            reader = ipc.open_file(source)
            ranges = group_ranges(reader.schema)
            if columns is not None:
                reader = ipc.open_file(source, options=_only(reader.schema, columns))
            schema = reader.schema.remove_metadata()
            count = reader.num_record_batches
            if ranges is None or len(ranges) != count:
                wanted = list(range(count))
            else:
                wanted = [i for i, group in enumerate(ranges) if ranges_overlap(group, lo, hi)]
            batches = [_without(reader.get_batch(i), skip.get(i)) for i in wanted]
            return pa.Table.from_batches(batches, schema)
    except (pa.ArrowInvalid, OSError) as exc:  # damaged after it was written (disk, by hand)
        folder = Path(path).parent
        raise StoreError(
            f"{path}: staging part unreadable ({exc}); delete {folder} and run the same"
            " command again to parse that chunk anew"
        ) from exc


def _without(batch: pa.RecordBatch, ranges: RowRanges | None) -> pa.RecordBatch:
    """``batch`` without the rows in ``ranges`` (itself when there are none)."""
    if not ranges:
        return batch
    keep = np.ones(batch.num_rows, dtype=bool)
    for start, stop in ranges:
        keep[start:stop] = False
    return batch.filter(pa.array(keep))


def _only(schema: pa.Schema, columns: list[str]) -> ipc.IpcReadOptions:
    return ipc.IpcReadOptions(included_fields=[schema.get_field_index(c) for c in columns])


def in_range(table: pa.Table, key: str, lo: str | None, hi: str | None) -> pa.Table:
    """The rows of ``table`` whose ``key`` lies in ``[lo, hi)``."""
    mask = in_range_mask(table.column(key), lo, hi)
    return table if mask is None else table.filter(mask)


def read_rows(
    files: Sequence[str],
    key: str,
    lo: str | None,
    hi: str | None,
    columns: list[str] | None = None,
    skips: Mapping[str, BatchSkips] | None = None,
) -> pa.Table:
    """The rows of the part ``files`` whose ``key`` is in ``[lo, hi)`` (None: unbounded),
    without those ``skips`` names (by file path)."""
    skips = skips or {}
    return pa.concat_tables(
        [
            in_range(read_part(path, columns, lo, hi, skips.get(path, NO_SKIPS)), key, lo, hi)
            for path in files
        ]
    )
