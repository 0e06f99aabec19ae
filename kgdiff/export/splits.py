"""A split's records, from built items to frames: ``--limit``, both true/false labels, the
order by id, and, for a large split, chunks of :data:`CHUNK` records written one after the
other (so that an export's memory does not grow with its largest split)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import partial
from typing import Any

import polars as pl

from kgdiff.export.benchmark_model import BenchmarkRequest
from kgdiff.export.chunk_workers import (
    arrow_schema,
    build_chunk,
    kept_items,
    parallel_chunks,
    records_table,
    table_frame,
)
from kgdiff.export.qa_records import QaItem
from kgdiff.export.seeded import seeded_rank

CHUNK = 50_000
"""Records built and written at a time (the Parquet files' row groups are as large)."""
Build = Callable[[dict[str, Any]], QaItem | str | list[QaItem | str]]


def balance_truth(items: list[QaItem], seed: int) -> list[QaItem]:
    """The items with both true/false labels occurring (when there are two items or more
    and one can change): if all agree, the first in the seed's order that can be swapped
    takes its other statement."""
    if len(items) < 2 or len({item.record["tf_label"] for item in items}) == 2:
        return items
    swappable = [item for item in items if item.other_statement is not None]
    if not swappable:
        return items
    pick = min(swappable, key=lambda item: seeded_rank(seed, item.record["id"]))
    record = dict(pick.record)
    record["tf_statement"], record["tf_label"] = pick.other_statement, not record["tf_label"]
    swapped = replace(pick, record=record, other_statement=pick.record["tf_statement"])
    return [swapped if item is pick else item for item in items]


def columns_frame(records: list[dict[str, Any]], schema: pl.Schema) -> pl.DataFrame:
    """``records`` as a frame of ``schema``, built column by column through Arrow (polars
    would build a Series for every list of every record: ~10 times slower)."""
    return table_frame(records_table(records, arrow_schema(schema)), schema)


def split_frame(
    items: Iterable[QaItem], request: BenchmarkRequest, schema: pl.Schema
) -> pl.DataFrame:
    """A split's records: at most ``--limit`` (the first in the seed's order), both
    true/false labels when they can be, sorted by id, in ``schema``."""
    kept = list(items)
    if request.limit is not None:
        kept.sort(key=lambda item: seeded_rank(request.seed, item.record["id"]))
        kept = kept[: request.limit]
    kept = balance_truth(kept, request.seed)
    return columns_frame(sorted((i.record for i in kept), key=lambda r: r["id"]), schema)


def _built(rows: pl.DataFrame, build: Build, tally: Counter[str]) -> Iterator[QaItem]:
    for row in rows.to_arrow().to_pylist():  # as the chunk workers see rows
        yield from kept_items(build(row), tally)


def _limited(
    rows: pl.DataFrame, build: Build, request: BenchmarkRequest, tally: Counter[str]
) -> list[QaItem]:
    """The first ``--limit`` records in the seed's order (later rows are not looked at)."""
    ranks = [seeded_rank(request.seed, key) for key in rows.get_column("_id")]
    rows = rows.with_columns(pl.Series("_rank", ranks, dtype=pl.UInt64())).sort("_rank", "_id")
    items: list[QaItem] = []
    for offset in range(0, rows.height, CHUNK):
        for item in _built(rows.slice(offset, CHUNK), build, tally):
            items.append(item)
            if len(items) == request.limit:
                return items
    return items


def record_chunks(
    rows: pl.DataFrame,
    key: pl.Expr,
    build: Build,
    request: BenchmarkRequest,
    schema: pl.Schema,
    tally: Counter[str],
) -> Iterator[pl.DataFrame]:
    """The records ``build`` makes of ``rows`` (whose ids ``key`` computes), sorted by id,
    in frames of at most :data:`CHUNK`; why a row has none is counted in ``tally``. Both
    true/false labels occur among the first chunk's records whenever they can."""
    rows = rows.with_columns(key.alias("_id")).sort("_id")
    if request.limit is not None:
        yield split_frame(_limited(rows, build, request, tally), request, schema)
        return
    finish = partial(balance_truth, seed=request.seed)
    workers = request.workers
    if workers > 1 and rows.height > CHUNK:
        for frame, counts in parallel_chunks(rows, CHUNK, build, schema, finish, workers):
            tally.update(counts)
            yield frame
        return
    arrow = arrow_schema(schema)
    for offset in range(0, max(rows.height, 1), CHUNK):
        chunk = rows.slice(offset, CHUNK).to_arrow().to_pylist()
        table, counts = build_chunk(chunk, build, arrow, finish if offset == 0 else None)
        tally.update(counts)
        yield table_frame(table, schema)
