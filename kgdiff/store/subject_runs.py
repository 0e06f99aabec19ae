"""Order a bucket's rows by subject, moving whole runs of one subject instead of sorting rows.

The parse writes each entity's rows of the labels, sitelinks and statements tables together
and already in their published order (kind, language, ordinal; site; property, ordinal), so
the published order of those tables is the entities' order: a stable sort of the runs of
equal subjects, each run kept whole. A bucket has ~60 label rows per run, so this sorts
about sixty times fewer keys than a row sort, compares no languages or properties, and
gathers rows in long contiguous stretches.

Where the runs in their new order continue one another in the input (a dump in id order,
or a stretch of one), the rows are gathered as zero-copy slices of those stretches instead
of being copied one by one; only input with short stretches pays for a gather of the runs
(one copy per run, in the native extension: :mod:`kgdiff.store.run_gather`).

An entity that appears twice in a dump would have two runs, one after the other; finalize
leaves out all but one occurrence's rows before they get here (:mod:`kgdiff.store.duplicates`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kgdiff.store.buckets import in_range_mask
from kgdiff.store.run_gather import gather_runs

RUN_ORDERED_TABLES = frozenset({"labels", "sitelinks", "statements"})
"""Tables whose parts hold each entity's rows in published order (see module doc)."""
MIN_STRETCH_ROWS = 4096
"""Gather by slices when the stretches average at least this many rows: below it, the
chunk-per-slice overhead of later steps (cast, Parquet) outweighs copying the runs."""


class _Runs:
    """The runs of equal values of a key column: value, first row and length of each."""

    def __init__(self, values: pa.Array, starts: np.ndarray, lengths: np.ndarray) -> None:
        self.values, self.starts, self.lengths = values, starts, lengths

    @classmethod
    def of(cls, column: pa.ChunkedArray) -> _Runs:
        values: list[pa.Array] = [pa.array([], column.type)]
        starts: list[np.ndarray] = [np.zeros(0, np.int64)]
        lengths: list[np.ndarray] = [np.zeros(0, np.int64)]
        offset = 0
        for chunk in column.chunks:
            if not len(chunk):
                continue
            encoded = pc.run_end_encode(chunk)
            ends = encoded.run_ends.to_numpy().astype(np.int64)
            firsts = np.concatenate(([0], ends[:-1]))
            values.append(encoded.values)
            starts.append(firsts + offset)
            lengths.append(ends - firsts)
            offset += len(chunk)
        return cls(pa.concat_arrays(values), np.concatenate(starts), np.concatenate(lengths))

    def pick(self, positions: np.ndarray) -> _Runs:
        """The runs at ``positions``, in that order."""
        return _Runs(
            self.values.take(pa.array(positions, pa.int64())),
            self.starts[positions],
            self.lengths[positions],
        )

    def gather(self, table: pa.Table, min_stretch_rows: int) -> pa.Table:
        """The rows of ``table`` run after run: slices of the stretches of runs that
        continue one another when they are long enough on average, else a copy of each run."""
        starts, lengths = self.starts, self.lengths
        if not len(starts):
            return table.slice(0, 0)
        breaks = np.flatnonzero(starts[1:] != starts[:-1] + lengths[:-1]) + 1
        firsts = np.concatenate(([0], breaks))
        if int(lengths.sum()) < min_stretch_rows * len(firsts):
            return gather_runs(table, starts, lengths)
        sizes = np.add.reduceat(lengths, firsts)
        stretches = [
            table.slice(int(at), int(size)) for at, size in zip(starts[firsts], sizes, strict=True)
        ]
        return pa.concat_tables(stretches)


def _in_range(values: pa.Array, lo: str | None, hi: str | None) -> np.ndarray:
    """Positions of the ``values`` in ``[lo, hi)`` (None: unbounded)."""
    mask = in_range_mask(values, lo, hi)
    return (
        np.arange(len(values))
        if mask is None
        else np.flatnonzero(mask.to_numpy(zero_copy_only=False))
    )


def _in_range_runs(
    table: pa.Table, key: str, lo: str | None, hi: str | None, min_stretch_rows: int
) -> tuple[pa.Table, _Runs]:
    """The rows of ``table`` whose ``key`` is in ``[lo, hi)``, and their runs."""
    runs = _Runs.of(table.column(key))
    wanted = _in_range(runs.values, lo, hi)
    if len(wanted) == len(runs.values):
        return table, runs
    runs = runs.pick(wanted)
    if 2 * int(runs.lengths.sum()) < table.num_rows:
        kept = gather_runs(table, runs.starts, runs.lengths)  # a copy: the part can go
    else:  # slices keep the whole part in memory: only where most of it is wanted
        kept = runs.gather(table, min_stretch_rows)
    lengths = runs.lengths
    return kept, _Runs(runs.values, np.cumsum(lengths) - lengths, lengths)


def run_ordered(
    tables: Iterable[pa.Table],
    key: str,
    lo: str | None,
    hi: str | None,
    min_stretch_rows: int = MIN_STRETCH_ROWS,
) -> pa.Table:
    """The rows of ``tables`` (in this order) whose ``key`` is in ``[lo, hi)``, ordered by
    ``key`` run by run (see the module doc). Each table is cut to its rows in range before
    the next is read, so a bucket holds little more than its own rows."""
    kept: list[pa.Table] = []
    runs: list[_Runs] = []
    offset = 0
    for table in tables:
        rows, table_runs = _in_range_runs(table, key, lo, hi, min_stretch_rows)
        kept.append(rows)
        runs.append(_Runs(table_runs.values, table_runs.starts + offset, table_runs.lengths))
        offset += rows.num_rows
    if not kept:
        raise ValueError("run_ordered needs at least one table")
    every = _Runs(
        pa.concat_arrays([r.values for r in runs]),
        np.concatenate([r.starts for r in runs]),
        np.concatenate([r.lengths for r in runs]),
    )
    order = every.pick(pc.sort_indices(every.values).to_numpy())
    return order.gather(pa.concat_tables(kept), min_stretch_rows)
