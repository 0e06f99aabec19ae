"""Gather a table's rows run by run (contiguous row ranges) with the native extension.

Finalize moves whole entities (:mod:`kgdiff.store.subject_runs`), tens of rows at a time;
the extension copies each run's bytes in one piece where Arrow's ``take`` copies row by row
(see ``native/gather.hpp``). Columns of other types, or every column when the extension is
not built, go through ``take``: the result is the same.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from kgdiff.rows.native import native_module

FIXED, STRING, LIST_OFFSETS = 0, 1, 2


def _runs_in_chunks(
    column: pa.ChunkedArray, starts: np.ndarray, lengths: np.ndarray
) -> tuple[pa.ChunkedArray, np.ndarray, np.ndarray]:
    """The chunk of each run and its start in that chunk (the column combined into one
    chunk first if a run would cross from one chunk into the next)."""
    sizes = np.array([len(chunk) for chunk in column.chunks], np.int64)
    bounds = np.concatenate(([0], np.cumsum(sizes)))
    ids = np.searchsorted(bounds, starts, side="right") - 1
    ids = np.minimum(ids, max(len(sizes) - 1, 0))  # a run of no rows at the very end
    local = starts - bounds[ids]
    if len(ids) and np.any(local + lengths > sizes[ids]):
        single = pa.chunked_array([column.combine_chunks()], column.type)
        return single, np.zeros(len(starts), np.int32), starts
    return column, ids.astype(np.int32), local


def _chunk_buffers(array: pa.Array, kind: int) -> tuple[object, ...]:
    buffers = array.buffers()
    validity = buffers[0] if array.null_count else None
    data = buffers[2] if kind == STRING else None
    return (validity, buffers[1], data, array.offset, len(array))


def _kind(data_type: pa.DataType) -> int | None:
    if pa.types.is_string(data_type):
        return STRING
    if pa.types.is_list(data_type):
        return LIST_OFFSETS if _kind(data_type.value_type) is not None else None
    fixed = (pa.types.is_integer, pa.types.is_floating, pa.types.is_date, pa.types.is_timestamp)
    return FIXED if any(test(data_type) for test in fixed) else None


Layouts = dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]]
"""For each chunk layout (the chunks' lengths), the runs' chunks and starts in them: the
columns of a table usually share one layout."""


def _placed(
    column: pa.ChunkedArray, starts: np.ndarray, lengths: np.ndarray, layouts: Layouts
) -> tuple[pa.ChunkedArray, np.ndarray, np.ndarray]:
    layout = tuple(len(chunk) for chunk in column.chunks)
    known = layouts.get(layout)
    if known is not None:
        return column, *known
    placed, ids, local = _runs_in_chunks(column, starts, lengths)
    if placed is column:  # not combined: the placement holds for every column laid out alike
        layouts[layout] = (ids, local)
    return placed, ids, local


def _gather_column(
    column: pa.ChunkedArray, kind: int, starts: np.ndarray, lengths: np.ndarray, layouts: Layouts
) -> pa.Array:
    """``column``'s runs; ``kind`` is its :func:`_kind`."""
    column, ids, local = _placed(column, starts, lengths, layouts)
    chunks = [_chunk_buffers(chunk, kind) for chunk in column.chunks]
    rows = int(lengths.sum())
    width = column.type.bit_width // 8 if kind == FIXED else 0
    module = native_module()
    assert module is not None  # gather_runs checked it
    validity, values, data = module.gather_runs(kind, width, chunks, ids, local, lengths, rows)
    buffers = [None if validity is None else pa.py_buffer(validity), pa.py_buffer(values)]
    if kind == STRING:
        return pa.Array.from_buffers(column.type, rows, [*buffers, pa.py_buffer(data)])
    if kind == FIXED:
        return pa.Array.from_buffers(column.type, rows, buffers)
    items = _list_items(column, ids, local, lengths)
    return pa.Array.from_buffers(column.type, rows, buffers, children=[items])


def _list_items(
    column: pa.ChunkedArray, ids: np.ndarray, local: np.ndarray, lengths: np.ndarray
) -> pa.Array:
    """The items of the runs' lists, gathered as runs of the chunks' item arrays."""
    offsets = [chunk.offsets.to_numpy() for chunk in column.chunks]  # each chunk's rows + 1
    first_offset = np.concatenate(([0], np.cumsum([len(o) for o in offsets])))[ids] + local
    every = np.concatenate(offsets).astype(np.int64)
    item_starts = every[first_offset]
    item_lengths = every[first_offset + lengths] - item_starts
    items = pa.chunked_array([chunk.values for chunk in column.chunks], column.type.value_type)
    bounds = np.concatenate(([0], np.cumsum([len(chunk) for chunk in items.chunks])))
    kind = _kind(items.type)
    assert kind is not None  # _kind accepts a list only of a type it gathers
    return _gather_column(items, kind, bounds[ids] + item_starts, item_lengths, {})


def gather_runs(table: pa.Table, starts: np.ndarray, lengths: np.ndarray) -> pa.Table:
    """The rows ``[start, start + length)`` of ``table`` for each run, one run after the
    other (what ``table.take`` of those rows gives)."""
    starts, lengths = starts.astype(np.int64), lengths.astype(np.int64)
    if native_module() is None:
        return table.take(_rows(starts, lengths))
    columns = []
    indices: pa.Array | None = None
    layouts: Layouts = {}
    for column in table.columns:
        kind = _kind(column.type)
        if kind is not None:
            columns.append(_gather_column(column, kind, starts, lengths, layouts))
            continue
        indices = indices if indices is not None else _rows(starts, lengths)
        columns.append(column.take(indices))
    return pa.Table.from_arrays(columns, schema=table.schema)


def _rows(starts: np.ndarray, lengths: np.ndarray) -> pa.Array:
    """Indices of the runs' rows, run after run."""
    first_out = np.cumsum(lengths) - lengths
    return pa.array(np.repeat(starts - first_out, lengths) + np.arange(int(lengths.sum())))
