"""Building a large split's records in several processes (``kgdiff export benchmark
--workers N``): chunks of rows handed to forked workers, their records handed back as Arrow
tables, in order.

A record depends on its row and on the export's setting alone (every random choice is seeded
by the record's id: :mod:`kgdiff.export.seeded`), so building chunks side by side gives the
same records, in the same order, as building them one after the other: the files are the
same bytes. The workers are forked once the setting (names, distractors, contexts) is built,
so they share it with the exporting process instead of receiving a copy; but CPython writes
the reference count of every object it reads, so each worker ends up copying much of what
it reads (measured on 3 × 5 M statements: 2 workers take the ``qa`` config from 63 to 51 s
and its peak PSS from 1.45 to 2.9 GB). Hence ``--workers`` is 1 unless asked. Workers use
Python and pyarrow only: polars and DuckDB keep thread pools that a forked child must not
touch.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.pool import AsyncResult
from typing import Any

import polars as pl
import pyarrow as pa

from kgdiff.export.dataset_schema import arrow_type

MAX_WORKERS = 64
Build = Callable[[dict[str, Any]], Any]
"""A record's builder: a row (as a dict) to a ``QaItem``, or why the row has none, or a list
of those (a row that stands for several records, as a group's years)."""
Finish = Callable[[list[Any]], list[Any]]
"""What is done to the first chunk's items before they are written (both true/false
labels: :func:`kgdiff.export.splits.balance_truth`)."""
ChunkResult = tuple[pa.Table, Counter[str]]

_job: tuple[Build, pa.Schema, Finish] | None = None
"""The job of the workers about to be forked (a global: a fork inherits it unpickled)."""


def usable_cores() -> int:
    """The cores this process may run on (what ``--workers`` is best at, memory allowing)."""
    return len(os.sched_getaffinity(0))


def arrow_schema(schema: pl.Schema) -> pa.Schema:
    """The Arrow schema records of ``schema`` are built in."""
    return pa.schema([(name, arrow_type(dtype)) for name, dtype in schema.items()])


def records_table(records: Sequence[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    """``records`` as an Arrow table, column by column (much faster than row by row)."""
    arrays = [pa.array([record[f.name] for record in records], type=f.type) for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema)


def table_frame(table: pa.Table, schema: pl.Schema) -> pl.DataFrame:
    """An Arrow table of records as a polars frame of ``schema``."""
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return frame.cast(schema)


def kept_items(built: Any, tally: Counter[str]) -> Iterator[Any]:
    """The records of one :data:`Build` result (an item, a reason, or a list of those), each
    reason counted in ``tally``."""
    for item in built if isinstance(built, list) else (built,):
        if isinstance(item, str):
            tally[item] += 1
        else:
            yield item


def build_chunk(
    rows: list[dict[str, Any]], build: Build, schema: pa.Schema, finish: Finish | None
) -> ChunkResult:
    """The records ``build`` makes of ``rows`` as a table, sorted by id, and why the others
    have none."""
    tally: Counter[str] = Counter()
    items = [item for row in rows for item in kept_items(build(row), tally)]
    if finish is not None:
        items = finish(items)
    records = sorted((item.record for item in items), key=lambda record: record["id"])
    return records_table(records, schema), tally


def _work(first: bool, chunk: pa.Table) -> ChunkResult:
    assert _job is not None, "a chunk worker runs only in a pool that parallel_chunks forked"
    build, schema, finish = _job
    return build_chunk(chunk.to_pylist(), build, schema, finish if first else None)


def parallel_chunks(
    rows: pl.DataFrame,
    size: int,
    build: Build,
    schema: pl.Schema,
    finish: Finish,
    workers: int,
) -> Iterator[tuple[pl.DataFrame, Counter[str]]]:
    """The records of ``rows``, ``size`` rows at a time, each chunk built by one of
    ``workers`` forked processes; yielded in order with the tally of what was left out. At
    most two chunks per worker are in flight, so memory holds a few chunks, not the split."""
    global _job
    arrow = arrow_schema(schema)
    _job = (build, arrow, finish)
    pool = multiprocessing.get_context("fork").Pool(workers)
    try:
        offsets = iter(range(0, rows.height, size))
        pending: deque[AsyncResult[ChunkResult]] = deque()

        def submit() -> None:
            offset = next(offsets, None)
            if offset is not None:
                chunk = rows.slice(offset, size).to_arrow()
                pending.append(pool.apply_async(_work, (offset == 0, chunk)))

        for _ in range(2 * workers):
            submit()
        while pending:
            table, tally = pending.popleft().get()
            submit()
            yield table_frame(table, schema), tally
    finally:
        pool.terminate()
        pool.join()
        _job = None
