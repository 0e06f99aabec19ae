"""The ``pools`` config: ChroKnowBench's shape — per (subject, property) group of the
classification, the yearly object pools (``kg.pools``, valid time in the latest snapshot), the
group's state, and per year a generation, a multiple-choice and a true/false item; split by
state, ``dynamic`` and ``static``, the static groups sampled by ``--pools-static`` (by default
as many as the dynamic ones, ChroKnowBench's balance) before any record is built
(docs/benchmark-export.md#the-pools-config)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import polars as pl

from kgdiff.errors import UsageError
from kgdiff.export.benchmark_model import (
    POOLS_STATIC_POLICIES,
    BenchmarkRequest,
    ConfigExport,
    Dates,
)
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
NOT_SAMPLED = "static_group_not_sampled"
"""Why the years of a static group left out of the sample (``--pools-static``) have no record."""


def pools_static_policy(value: str | int) -> str | int:
    """``balanced``, ``all`` or a number of static groups, at least 1 (also given as text); a
    usage error naming ``--pools-static`` and the values it takes for anything else."""
    if isinstance(value, str) and value.strip() in POOLS_STATIC_POLICIES:
        return value.strip()
    if isinstance(value, str) and re.fullmatch(r"[0-9]+", value.strip()):
        value = int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    raise UsageError(
        f"--pools-static {value}: give balanced (as many static groups as dynamic ones, the"
        " default), all (every static group) or N (at most N static groups, N at least 1)"
    )


@dataclass(frozen=True)
class StaticSample:
    """Which static groups the ``static`` split keeps: ``kept`` of ``of``, by ``policy``."""

    policy: str | int
    kept: int
    of: int
    dynamic: int
    """The dynamic groups (the ``balanced`` policy keeps as many static ones)."""

    def counts(self) -> dict[str, Any]:
        """For ``kgdiff_build.json``."""
        return {"policy": self.policy, "kept": self.kept, "of": self.of}

    def sentence(self) -> str:
        """What the dataset card says of the sample."""
        if self.kept == self.of:
            return f" The `static` split holds every static group ({self.of:,})."
        rule = (
            "as many static groups as dynamic ones, as ChroKnowBench balances them"
            if self.policy == "balanced"
            else f"at most {self.policy:,} static groups"
        )
        return (
            f" The `static` split is a sample: {rule} ({self.kept:,} of {self.of:,}), the first"
            " in the seed's order (`--pools-static all` keeps every one)."
        )

    def note(self) -> str | None:
        """What the command says of the sample, when it left static groups out."""
        if self.kept == self.of:
            return None
        rule = (
            "as many as the dynamic groups (--pools-static balanced, the default)"
            if self.policy == "balanced"
            else f"--pools-static {self.policy}"
        )
        return (
            f"pools: the static split is a sample of {self.kept:,} of {self.of:,} static groups,"
            f" {rule}, chosen by the seed; --pools-static all keeps every one"
        )


def sample_static(
    asked: pl.DataFrame, policy: str | int, seed: int
) -> tuple[pl.DataFrame, StaticSample]:
    """The asked years of every dynamic group and of the static groups ``policy`` keeps
    (``balanced``: as many as the dynamic groups; ``all``; or at most N): those first in the
    seed's order (:func:`~kgdiff.export.seeded.seeded_rank`, ties by group id)."""
    static = asked.filter(pl.col("state") == "static").get_column("group_id").unique()
    dynamic = asked.filter(pl.col("state") == "dynamic").get_column("group_id").n_unique()
    wanted = {"all": static.len(), "balanced": dynamic}.get(str(policy))
    wanted = min(static.len(), int(policy) if wanted is None else wanted)
    if wanted == static.len():
        return asked, StaticSample(policy, wanted, static.len(), dynamic)
    ranks = pl.DataFrame(
        {"group_id": static, "_rank": [seeded_rank(seed, i) for i in static]},
        schema={"group_id": pl.String(), "_rank": pl.UInt64()},
    )
    kept = ranks.sort("_rank", "group_id").head(wanted).get_column("group_id")
    chosen = asked.filter((pl.col("state") != "static") | pl.col("group_id").is_in(kept.implode()))
    return chosen, StaticSample(policy, wanted, static.len(), dynamic)


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
    groups: Groups,
    years: pl.DataFrame,
    by_state: dict[str, int],
    sample: StaticSample,
    span: PoolYears,
) -> dict[str, Any]:
    pooled = years.get_column("group_id").n_unique()
    return {
        "years": {"from": span.first, "to": span.last},
        "years_after_the_data": list(span.after_the_data),
        "groups": groups.frame.height,
        "groups_by_state": by_state,
        "static_groups": sample.counts(),
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
    every = asked_years(years)
    by_state = states(every)
    asked, sample = sample_static(every, pools_static_policy(request.pools_static), request.seed)
    on_step(
        f"pools: {sample.dynamic:,} dynamic groups, {sample.kept:,} of {sample.of:,} static"
        f" groups kept (--pools-static {sample.policy})"
    )
    left_out = reasons(years)
    if every.height > asked.height:
        left_out[NOT_SAMPLED] = every.height - asked.height
    setting = _setting(kg, groups, asked, request, dates)

    def build(rows: list[dict[str, Any]]) -> list[Built]:
        return group_items(rows, catalogue[rows[0]["pid"]], setting)

    splits = {
        name: pool_chunks(asked.filter(pl.col("state") == name), build, request, left_out)
        for name in POOLS_SPLITS
    }
    counts = {**_counts(groups, years, by_state, sample, span), "left_out": left_out}
    # left_out is filled as the splits are written
    description = POOLS_DESCRIPTION + sample.sentence()
    notes = tuple(note for note in (sample.note(),) if note)
    return ConfigExport("pools", POOLS_SCHEMA, splits, counts, description, notes=notes)
