"""The ``pools`` config: ChroKnowBench's shape — per (subject, property) group of the
classification, the yearly object pools (``kg.pools``, valid time in the latest snapshot), the
group's state, and per year a generation, a multiple-choice and a true/false item; split by
state, ``dynamic`` and ``static``, the static groups sampled by ``--pools-static`` (by default
as many as the dynamic ones, ChroKnowBench's balance) before any record is built
(docs/benchmark-export.md#the-pools-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import polars as pl

from kgdiff.export.core.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.core.drop_counts import NO_SPLIT, split_tallies
from kgdiff.export.core.seeded import seeded_rank
from kgdiff.export.dataset.frame_chunks import balance_truth_frame, frame_chunks
from kgdiff.export.dataset.schema import POOLS_SCHEMA
from kgdiff.export.inputs.groups import Groups
from kgdiff.export.pools.frames import PoolsSetting, pools_frame
from kgdiff.export.pools.groups import (
    PoolYears,
    pool_years,
    read_note,
    read_pool_years,
    states,
)
from kgdiff.export.pools.held import read_held_values
from kgdiff.export.pools.ranges import (
    NAMING,
    POOLS_SPLITS,
    AskedPools,
    PoolsRead,
    asked_year_count,
    first_pass,
    second_pass,
)
from kgdiff.export.pools.sample import (
    NOT_SAMPLED,
    StaticSample,
    pools_static_policy,
    sample_static,
)
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.existence import existence_ids
from kgdiff.query.graph import KnowledgeGraph

POOLS_DESCRIPTION = (
    "ChroKnowBench's chronological object pools: per (subject, property) group, the objects"
    " that may be valid in each year of the window (valid time, read from the latest"
    " snapshot that holds the subject: `snapshot`), one record per year that has a pool of"
    " its own, asked in that year as an open question, a cloze, a multiple-choice item and a"
    " true/false statement. Split by the group's state: `dynamic` (the pools of its years"
    " differ) or `static`. `earlier_objects` and `later_objects` are the group's objects of"
    " other years only; the labels and aliases of the earlier ones are the"
    " `outdated_answers` (a later object was not yet the value). Score with"
    " `kgdiff score --config pools` (ChroKnowBench's known / unknown / cut-off / partial-known"
    " patterns)."
)


def _setting(
    groups: Groups,
    years: pl.DataFrame,
    subjects: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    existence: pl.DataFrame,
    held: pl.DataFrame,
) -> PoolsSetting:
    """Names and words (the export's, shared with its other configs), distractors (the
    classification's answers, as for ``qa``) and subjects of an export's asked years."""
    snapshot = groups.snapshots.get("current")
    pooled = years.select("pid", pl.col("objects").alias("value")).explode("value").drop_nulls()
    words = groups.naming.words_for(pooled.get_column("value"), snapshot)
    return PoolsSetting(
        choices=groups.naming.choices(snapshot, request.seed, request.options, words),
        dates=dates.iso(),
        subjects=subjects.select("subject", *NAMING),
        existence=existence,
        held=held,
    )


def _by_group(years: pl.DataFrame) -> pl.DataFrame:
    """One row per group of asked ``years``: its years' columns as lists, in year order."""
    ordered = years.sort("group_id", "year")
    return ordered.group_by("group_id", maintain_order=True).agg(
        pl.col("subject", "pid", "state", "change_nature", "snapshot").first(),
        pl.col("year", "objects", "precision_only"),
    )


def _limited(
    groups: pl.DataFrame, setting: PoolsSetting, request: BenchmarkRequest, tally: Counter[str]
) -> pl.DataFrame:
    """Whole groups in the seed's order, each taken when all its records fit in ``--limit``."""
    built = pools_frame(groups, setting, tally)
    sizes = built.group_by("group_id").len()
    ranks = [seeded_rank(request.seed, group) for group in sizes.get_column("group_id")]
    sizes = sizes.with_columns(pl.Series("_rank", ranks, dtype=pl.UInt64())).sort(
        "_rank", "group_id"
    )
    kept, count = [], 0
    for group, size in sizes.select("group_id", "len").iter_rows():
        if count + size <= (request.limit or 0):
            kept.append(group)
            count += size
        if count == request.limit:
            break
    chosen = built.filter(pl.col("group_id").is_in(pl.Series(kept, dtype=pl.String()).implode()))
    return balance_truth_frame(chosen, request.seed)


def pool_chunks(
    years: pl.DataFrame, setting: PoolsSetting, request: BenchmarkRequest, tally: Counter[str]
) -> Iterator[pl.DataFrame]:
    """The records of a split's asked ``years``, sorted by id, built a batch of whole groups
    at a time (:func:`~kgdiff.export.dataset.frame_chunks.frame_chunks`); both true/false labels
    among the first batch's whenever they can be. Why a year has none is counted in
    ``tally``."""
    groups = _by_group(years)
    if request.limit is not None:
        yield (
            _limited(groups, setting, request, tally)
            .select(POOLS_SCHEMA.names())
            .cast(POOLS_SCHEMA)
        )
        return

    def build(rows: pl.DataFrame, counted: Counter[str]) -> pl.DataFrame:
        return pools_frame(rows.drop("_id"), setting, counted)

    yield from frame_chunks(groups, pl.col("group_id"), build, request, POOLS_SCHEMA, tally)


def _counts(
    groups: Groups,
    found: AskedPools,
    by_state: dict[str, int],
    sample: StaticSample,
    span: PoolYears,
) -> dict[str, Any]:
    return {
        "years": {"from": span.first, "to": span.last},
        "years_after_the_data": list(span.after_the_data),
        "groups": groups.size,
        "groups_by_state": by_state,
        "static_groups": sample.counts(),
        "groups_left_out": {
            "no_pool": groups.size - found.pooled,
            "relation_not_in_catalogue": groups.uncatalogued(groups.counts),
        },
        "group_years": found.group_years,
        "groups_by_snapshot": found.snapshots(),
    }


def read_pools(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
) -> tuple[PoolYears, pl.DataFrame]:
    """The years a pools export asks about, and every year of every group that has pools
    (:func:`~kgdiff.export.pools.groups.read_pool_years`)."""
    span = pool_years(dates, kg.answers.span()[1])
    keys = groups.rows().select("subject", "pid").collect()
    return span, read_pool_years(kg, keys, span, request, groups.naming.spill)


def pools_config(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    on_step: Callable[[str], None] = lambda _: None,
) -> ConfigExport:
    """The ``pools`` config of a classification's groups, from init's year to current's."""
    on_step(f"pools: object pools of {groups.size:,} groups")
    span = pool_years(dates, kg.answers.span()[1])
    read = PoolsRead(kg, groups, span, request, dates, catalogue)
    left_out: Counter[str] = Counter()
    dropped = split_tallies((*POOLS_SPLITS, NO_SPLIT), left_out)
    found = first_pass(read, dropped, partial(_every_year, read), on_step)
    keys = found.key_frame()
    by_state = states(keys)
    chosen, sample = sample_static(keys, pools_static_policy(request.pools_static), request.seed)
    on_step(
        f"pools: {sample.dynamic:,} dynamic groups, {sample.kept:,} of {sample.of:,} static"
        f" groups kept (--pools-static {sample.policy})"
    )
    if (unsampled := asked_year_count(keys) - asked_year_count(chosen)) > 0:
        dropped["static"][NOT_SAMPLED] += unsampled
    asked, subjects = second_pass(read, found, chosen)
    with kg.connection() as connection:
        existence = groups.naming.states.existence(existence_ids(asked, "objects", catalogue))
        held = read_held_values(connection, asked)
    setting = _setting(groups, asked, subjects, request, dates, existence, held)
    splits = {
        name: pool_chunks(asked.filter(pl.col("state") == name), setting, request, dropped[name])
        for name in POOLS_SPLITS
    }
    counts = {
        **_counts(groups, found, by_state, sample, span),
        "left_out": left_out,  # filled as the splits are written
        "dropped": dropped,
    }
    description = POOLS_DESCRIPTION + sample.sentence()
    notes = tuple(note for note in (sample.note(), read_note(found.snapshots())) if note)
    return ConfigExport("pools", POOLS_SCHEMA, splits, counts, description, notes=notes)


def _every_year(read: PoolsRead) -> pl.DataFrame | None:
    """Every group's years as read ahead (``READS_AHEAD`` of :mod:`kgdiff.export.benchmark`),
    or None when they were not: the first pass then reads them itself."""
    if not read.groups.ahead.submitted("pools"):
        return None
    args = (read.kg, read.groups, read.request, read.dates, read.catalogue)
    years: pl.DataFrame = read.groups.ahead.take("pools", partial(read_pools, *args))[1]
    return years
