"""The ``pools`` config: ChroKnowBench's shape — per (subject, property) group of the
classification, the yearly object pools (``kg.pools``, valid time in the latest snapshot), the
group's state, and per year a generation, a multiple-choice and a true/false item; split by
state, ``dynamic`` and ``static`` (docs/benchmark-export.md#the-pools-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from itertools import groupby
from typing import Any

import polars as pl

from kgdiff.export.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.chunk_workers import kept_items
from kgdiff.export.contexts import subject_popularity
from kgdiff.export.dataset_schema import POOLS_SCHEMA
from kgdiff.export.groups import Groups
from kgdiff.export.pool_groups import (
    PoolYears,
    asked_years,
    pool_years,
    read_pool_years,
    reasons,
    states,
)
from kgdiff.export.pool_records import Built, group_items
from kgdiff.export.qa_config import value_ids
from kgdiff.export.qa_records import QaItem, QaSetting
from kgdiff.export.relation_model import RelationCatalogue
from kgdiff.export.seeded import seeded_rank
from kgdiff.export.splits import balance_truth, columns_frame, record_chunks
from kgdiff.query.graph import KnowledgeGraph

POOLS_SPLITS = ("dynamic", "static")
POOLS_DESCRIPTION = (
    "ChroKnowBench's chronological object pools: per (subject, property) group, the objects"
    " that may be valid in each year of the window (valid time, read from the latest"
    " snapshot), one record per year that has a pool of its own, asked in that year as an open"
    " question, a cloze, a multiple-choice item and a true/false statement. Split by the"
    " group's state: `dynamic` (the pools of its years differ) or `static`. `earlier_objects`"
    " and `later_objects` are the group's objects of other years only; their labels and aliases"
    " are the `outdated_answers`. Score with `kgdiff score --config pools` (ChroKnowBench's"
    " known / unknown / cut-off / partial-known patterns)."
)
Build = Callable[[list[dict[str, Any]]], list[Built]]


def _setting(
    kg: KnowledgeGraph, groups: Groups, years: pl.DataFrame, request: BenchmarkRequest, dates: Dates
) -> QaSetting:
    """Names (the export's, shared with its other configs), distractors (the classification's
    answers, as for ``qa``) and popularity of an export's asked years."""
    frame = groups.frame
    snapshot = frame.get_column("current_snapshot")[0] if frame.height else None
    pooled = years.select("pid", pl.col("objects").alias("value")).explode("value")
    subjects = years.get_column("subject").unique()
    names = groups.naming.names(value_ids(pooled.drop_nulls(), subjects).to_list(), snapshot)
    noise = groups.naming.noise(snapshot)
    with kg.connection() as connection:
        wiki = f"{request.lang}wiki"
        popularity = subject_popularity(
            connection, kg.layout, subjects.to_list(), wiki, dates.current
        )
    return QaSetting(dates.iso(), request.seed, request.options, names, noise, {}, popularity)


def _groups(years: pl.DataFrame) -> Iterator[list[dict[str, Any]]]:
    """The asked years of each group, in the order of ``years`` (grouped by group id)."""
    rows = years.iter_rows(named=True)
    for _, group in groupby(rows, key=lambda row: row["group_id"]):
        yield list(group)


def _limited(
    years: pl.DataFrame, build: Build, request: BenchmarkRequest, tally: Counter[str]
) -> pl.DataFrame:
    """Whole groups in the seed's order, each taken when all its records fit in ``--limit``."""
    ids = years.get_column("group_id").unique()
    ranks = pl.DataFrame({"group_id": ids, "_rank": [seeded_rank(request.seed, i) for i in ids]})
    ordered = years.join(ranks, on="group_id").sort("_rank", "group_id", "year")
    kept: list[QaItem] = []
    for rows in _groups(ordered):
        items: list[QaItem] = list(kept_items(build(rows), tally))
        if len(kept) + len(items) <= (request.limit or 0):
            kept += items
        if len(kept) == request.limit:
            break
    kept = balance_truth(kept, request.seed)
    return columns_frame(sorted((i.record for i in kept), key=lambda r: r["id"]), POOLS_SCHEMA)


def pool_chunks(
    years: pl.DataFrame, build: Build, request: BenchmarkRequest, tally: Counter[str]
) -> Iterator[pl.DataFrame]:
    """The records of a split's asked ``years``, sorted by id, in frames of the records of
    :data:`~kgdiff.export.splits.CHUNK` groups (built on every core when there are more:
    :func:`~kgdiff.export.splits.record_chunks`); both true/false labels among the first
    frame's whenever they can be. Why a year has no record is counted in ``tally``."""
    if request.limit is not None:
        yield _limited(years, build, request, tally)
        return
    # one row per group (its years as lists), so that a chunk holds whole groups
    grouped = years.group_by("group_id", maintain_order=True).agg(pl.all())
    columns = [name for name in years.columns if name != "group_id"]

    def build_group(row: dict[str, Any]) -> list[Built]:
        rows = [
            {"group_id": row["group_id"], **dict(zip(columns, values, strict=True))}
            for values in zip(*(row[name] for name in columns), strict=True)
        ]
        return build(rows)

    yield from record_chunks(grouped, pl.col("group_id"), build_group, request, POOLS_SCHEMA, tally)


def _counts(
    groups: Groups, years: pl.DataFrame, asked: pl.DataFrame, span: PoolYears
) -> dict[str, Any]:
    pooled = years.get_column("group_id").n_unique()
    return {
        "years": {"from": span.first, "to": span.last},
        "years_after_the_data": list(span.after_the_data),
        "groups": groups.frame.height,
        "groups_by_state": states(asked),
        "groups_left_out": {
            "no_pool": groups.frame.height - pooled,
            "relation_not_in_catalogue": groups.uncatalogued(groups.counts),
        },
        "group_years": years.height,
    }


def pools_config(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    on_step: Callable[[str], None] = lambda _: None,
) -> ConfigExport:
    """The ``pools`` config of a classification's groups, from init's year to current's."""
    span = pool_years(dates, kg.answers.span()[1])
    on_step(f"pools: object pools of {groups.frame.height:,} groups, {span.first}–{span.last}")
    years = read_pool_years(kg, groups.frame, span, request)
    asked = asked_years(years)
    setting = _setting(kg, groups, asked, request, dates)
    left_out = reasons(years)

    def build(rows: list[dict[str, Any]]) -> list[Built]:
        return group_items(rows, catalogue[rows[0]["pid"]], setting)

    splits = {
        name: pool_chunks(asked.filter(pl.col("state") == name), build, request, left_out)
        for name in POOLS_SPLITS
    }
    counts = {**_counts(groups, years, asked, span), "left_out": left_out}  # filled as written
    return ConfigExport("pools", POOLS_SCHEMA, splits, counts, POOLS_DESCRIPTION)
