"""A split whose records are built column by column, a batch of rows at a time: ``--limit``,
both true/false labels, the order by id, and frames of at most :data:`CHUNK` records (the
Parquet row groups), so that an export's memory does not grow with its largest split.

A batch builder returns its records in the config's schema plus ``_other``: the true/false
statement of the other truth value (null when the record cannot be made false). A config
whose records need a setting read for their rows (their words, their subjects' names, their
evidence) gives :class:`ByParts`: the setting is read for a part of the split at a time
(:data:`PART_BATCHES` batches), so that what it holds does not grow with the store either.
Rows that themselves grow with the store are kept on disk in id order and read back a part
at a time (:func:`sorted_chunks`, :mod:`kgdiff.export.dataset.sorted_rows`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import polars as pl

from kgdiff.export.core.benchmark_model import BenchmarkRequest
from kgdiff.export.core.seeded import seeded_rank
from kgdiff.export.dataset.sorted_rows import ID, SortedRows

BATCH = 50_000
"""Rows built at a time: large enough that the per-batch joins are cheap per record, small
enough that a batch's intermediate frames stay a few hundred megabytes."""
CHUNK = 50_000
"""Records written at a time (the Parquet files' row groups are as large)."""
PART_BATCHES = 10
"""Batches whose records share one setting read for their rows alone (:class:`ByParts`). A
part's boundaries are those of its batches, so the records are the same whatever the part's
size; 500,000 rows' words, names and evidence are a few hundred megabytes at most."""
BuildFrame = Callable[[pl.DataFrame, Counter[str]], pl.DataFrame]


@dataclass(frozen=True)
class ByParts:
    """Records whose setting is read for the rows of a part of the split alone:
    ``builder_of(rows)`` reads it and gives the builder of those rows' batches."""

    builder_of: Callable[[pl.DataFrame], BuildFrame]


def _by_parts(build: BuildFrame | ByParts) -> ByParts:
    return build if isinstance(build, ByParts) else ByParts(lambda _: build)


def balance_truth_frame(frame: pl.DataFrame, seed: int) -> pl.DataFrame:
    """The records with both true/false labels occurring (when there are two or more and one
    can change): if all agree, the first in the seed's order that can be swapped states its
    other statement (as :func:`kgdiff.export.dataset.splits.balance_truth` does for items)."""
    if frame.height < 2 or frame.get_column("tf_label").n_unique() == 2:
        return frame
    swappable = frame.filter(pl.col("_other").is_not_null()).get_column("id").to_list()
    if not swappable:
        return frame
    pick = min(swappable, key=lambda record_id: seeded_rank(seed, record_id))
    chosen = pl.col("id") == pick
    return frame.with_columns(
        pl.when(chosen)
        .then(pl.col("_other"))
        .otherwise(pl.col("tf_statement"))
        .alias("tf_statement"),
        pl.when(chosen).then(~pl.col("tf_label")).otherwise(pl.col("tf_label")).alias("tf_label"),
        pl.when(chosen).then(pl.col("tf_statement")).otherwise(pl.col("_other")).alias("_other"),
    )


def _limited(
    rows: pl.DataFrame, parts: ByParts, request: BenchmarkRequest, tally: Counter[str]
) -> pl.DataFrame:
    """The first ``--limit`` records in the seed's order (later rows are not looked at; each
    chunk of rows a part)."""
    ranks = [seeded_rank(request.seed, key) for key in rows.get_column("_id")]
    rows = rows.with_columns(pl.Series("_rank", ranks, dtype=pl.UInt64())).sort("_rank", "_id")
    built: list[pl.DataFrame] = []
    count = 0
    for offset in range(0, max(rows.height, 1), CHUNK):  # an empty split builds one empty frame
        batch = rows.slice(offset, CHUNK).drop("_rank")
        frame = parts.builder_of(batch)(batch, tally)
        ranked = rows.slice(offset, CHUNK).select(pl.col("_id").alias("id"), "_rank")
        built.append(frame.join(ranked, on="id"))
        count += frame.height
        if count >= (request.limit or 0):
            break
    kept = pl.concat(built).sort("_rank", "id").head(request.limit or 0).drop("_rank")
    return balance_truth_frame(kept, request.seed).sort("id")


def frame_chunks(
    rows: pl.DataFrame | pl.LazyFrame,
    key: pl.Expr,
    build: BuildFrame | ByParts,
    request: BenchmarkRequest,
    schema: pl.Schema,
    tally: Counter[str],
    within: str | None = None,
) -> Iterator[pl.DataFrame]:
    """The records ``build`` makes of ``rows`` (whose ids ``key`` computes), sorted by id, in
    frames of at most :data:`CHUNK` of ``schema``; why a row has none is counted in ``tally``
    by the builder. Both true/false labels occur among the first batch's records whenever
    they can. Lazy ``rows`` are collected only when the split is written, sorted in the same
    step, a part at a time (:func:`id_ordered_parts`, narrowed by ``within``): a config's
    splits are then not all held at once, nor each twice."""
    size = BATCH * PART_BATCHES
    if isinstance(rows, pl.LazyFrame) and request.limit is None:
        parts: Iterable[pl.DataFrame] = id_ordered_parts(rows, key, size, within)
        yield from _parts_chunks(parts, _by_parts(build), request, schema, tally)
        return
    rows = rows.with_columns(key.alias(ID)).sort(ID)
    if isinstance(rows, pl.LazyFrame):
        rows = rows.collect()
    if request.limit is not None:
        yield _limited(rows, _by_parts(build), request, tally).select(schema.names()).cast(schema)
        return
    parts = (rows.slice(offset, size) for offset in range(0, rows.height, size))
    yield from _parts_chunks(parts, _by_parts(build), request, schema, tally)


def id_ordered_parts(
    rows: pl.LazyFrame, key: pl.Expr, size: int, within: str | None = None
) -> Iterator[pl.DataFrame]:
    """The ``rows`` with their ids (``key``, unique) as :data:`ID`, in id order, ``size`` at a
    time: the parts of one sorted frame of them, but only the ids are sorted whole, and a
    part's rows are read from ``rows`` as it comes, as those whose id is in the part's range
    (sorting the ``qa`` split of the stable groups whole, their answer lists with them, raised
    the export's RSS by 1.0 GB at 3 × 100 M statements). With ``within``, a column of
    ``rows``, a part's rows are first narrowed to the least and greatest ``within`` of the
    part: a file sorted by it (the export's groups, by subject:
    :mod:`kgdiff.export.inputs.group_file`) is then read only in the row groups that hold
    the part."""
    for first, last, least, most in _part_bounds(rows, key, size, within):
        part = rows
        if within is not None:
            part = part.filter(pl.col(within).is_between(pl.lit(least), pl.lit(most)))
        inside = pl.col(ID).is_between(pl.lit(first), pl.lit(last))
        part = part.with_columns(key.alias(ID)).filter(inside)
        yield part.collect(engine="streaming").sort(ID)


def _part_bounds(
    rows: pl.LazyFrame, key: pl.Expr, size: int, within: str | None
) -> list[tuple[str, str, object, object]]:
    """Each part's first and last id and least and greatest ``within`` (None without): the
    ids are sorted whole once and let go before the parts are read (held while the parts
    were built, the ids of the ``qa`` split of the stable groups were ~0.25 GB at 3 × 200 M
    statements)."""
    columns = [key.alias(ID), *([pl.col(within)] if within is not None else [])]
    order = rows.select(columns).collect().sort(ID)
    bounds: list[tuple[str, str, object, object]] = []
    for offset in range(0, order.height, size):
        wanted = order.slice(offset, size)
        ids = wanted.get_column(ID)
        least = most = None
        if within is not None:
            least, most = wanted.get_column(within).min(), wanted.get_column(within).max()
        bounds.append((ids[0], ids[-1], least, most))
    return bounds


def sorted_chunks(
    rows: SortedRows,
    build: BuildFrame | ByParts,
    request: BenchmarkRequest,
    schema: pl.Schema,
    tally: Counter[str],
) -> Iterator[pl.DataFrame]:
    """:func:`frame_chunks` of rows kept on disk in id order (their ids made), read a part
    at a time (all at once for ``--limit``, which draws from every row); the rows are removed
    once the split is written."""
    try:
        if request.limit is None:
            parts = rows.parts(BATCH * PART_BATCHES)
            yield from _parts_chunks(parts, _by_parts(build), request, schema, tally)
            return
        whole = rows.collect()
        if whole is None:
            yield pl.DataFrame(schema=schema)
            return
        kept = _limited(whole, _by_parts(build), request, tally)
        yield kept.select(schema.names()).cast(schema)
    finally:
        rows.close()


def _parts_chunks(
    parts: Iterable[pl.DataFrame],
    builders: ByParts,
    request: BenchmarkRequest,
    schema: pl.Schema,
    tally: Counter[str],
) -> Iterator[pl.DataFrame]:
    """The records of the rows' ``parts`` (in id order), one empty frame when there is none."""
    first = True
    for part in parts:
        yield from _part_chunks(part, builders.builder_of(part), first, request, schema, tally)
        first = False
    if first:
        yield pl.DataFrame(schema=schema)


def _part_chunks(
    part: pl.DataFrame,
    build: BuildFrame,
    first: bool,
    request: BenchmarkRequest,
    schema: pl.Schema,
    tally: Counter[str],
) -> Iterator[pl.DataFrame]:
    """The records of a part's batches (``first``: the split's first part, whose first batch
    has both true/false labels when it can)."""
    for offset in range(0, part.height, BATCH):
        frame = build(part.slice(offset, BATCH), tally).sort("id")
        if first and offset == 0:
            frame = balance_truth_frame(frame, request.seed)
        frame = frame.select(schema.names()).cast(schema)
        for start in range(0, max(frame.height, 1), CHUNK):
            yield frame.slice(start, CHUNK)
