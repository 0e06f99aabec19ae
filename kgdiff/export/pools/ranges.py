"""The years a ``pools`` export asks about, read a range of subjects at a time.

Every group's years are read, their subjects named and the rules applied
(:mod:`kgdiff.export.pools.asked`, :mod:`kgdiff.export.rules.salience`) to count what is left
out and to know each group's state; but most groups end up in no record: the static ones are
sampled (``--pools-static balanced`` keeps as many as the dynamic ones, 2,428 of 122,652 at
3 × 25 M statements). So the first pass reads :data:`RANGE_GROUPS` groups at a time, whole
subjects in subject order, and keeps of each asked group its key, state and number of asked
years, with the counts; the sample is drawn on those keys; the second pass reads the years of
the groups kept alone. Each group's years, state and subject's reasons depend on that group
and subject only (``sql/export/pool_years.sql``, ``sql/export/pool_reads.sql``), so the second
pass gives the rows the first one would have kept. A store whose groups fit one range keeps the
rows of its one pass instead (and may have read them ahead:
:mod:`kgdiff.export.inputs.read_ahead`). At 3 × 25 M statements reading every group's years at
once held 3.2 M rows and DuckDB's working memory for them while the earlier configs' state was
in memory (bench/README.md, the export's memory step by step).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import polars as pl

from kgdiff.export.core.benchmark_model import BenchmarkRequest, Dates
from kgdiff.export.core.drop_counts import NO_SPLIT
from kgdiff.export.inputs.contexts import subject_popularity
from kgdiff.export.inputs.groups import Groups
from kgdiff.export.pools.asked import changing_years
from kgdiff.export.pools.groups import (
    PoolYears,
    asked_years,
    groups_by_snapshot,
    read_pool_years,
    substantive_states,
)
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.salience import Salience, asked_subjects, with_standing
from kgdiff.query.graph import KnowledgeGraph

GROUP_KEYS = ("subject", "pid", "change_nature")
"""What the passes read of each group (the rest of a group is in its years)."""
RANGE_GROUPS = 400_000
"""Groups whose years one step of the first pass reads (whole subjects: a range may hold a
few more). 341,007 groups at 3 × 5 M statements (one range), 1.7 M at 3 × 25 M (five)."""
POOLS_SPLITS = ("dynamic", "static")
NAMING = ("subject_label", "subject_phrase", "subject_plural", "popularity", "subject_needles")
"""What a pools record reads of its subject (:class:`~kgdiff.export.pools.frames.PoolsSetting`)."""
Tallies = dict[str, Counter[str]]


@dataclass
class AskedPools:
    """What the first pass kept: per asked group its ``group_id``, ``subject``, ``pid``,
    ``state`` and ``years`` (asked), and the counts of every group read."""

    keys: list[pl.DataFrame] = field(default_factory=list)
    rows: pl.DataFrame | None = None
    """Every asked year, when one range held every group."""
    subjects: pl.DataFrame | None = None
    """Their subjects' facts (:data:`NAMING`), with :attr:`rows`."""
    pooled: int = 0
    """Groups with a pool in some year."""
    group_years: int = 0
    by_snapshot: Counter[str] = field(default_factory=Counter)

    def key_frame(self) -> pl.DataFrame:
        """Every asked group's key, state and number of asked years."""
        schema = {"group_id": pl.String(), "subject": pl.String(), "pid": pl.String()}
        empty = pl.DataFrame(schema={**schema, "state": pl.String(), "years": pl.UInt32()})
        return pl.concat([empty, *self.keys], how="vertical_relaxed")

    def snapshots(self) -> dict[str, int]:
        """Groups per snapshot read, most first (:func:`groups_by_snapshot`)."""
        return dict(sorted(self.by_snapshot.items(), key=lambda item: (-item[1], item[0])))


def asked_year_count(keys: pl.DataFrame) -> int:
    """The asked years of the groups of ``keys`` (:meth:`AskedPools.key_frame`)."""
    return int(keys.get_column("years").cast(pl.Int64()).sum())


def subject_bounds(frame: pl.DataFrame | pl.LazyFrame, size: int) -> list[tuple[str, str]]:
    """The first and last subject of each range of whole subjects of ``frame``, in subject
    order, each of about ``size`` groups."""
    counts = frame.lazy().group_by("subject").len().collect().sort("subject")
    before = pl.col("len").cum_sum() - pl.col("len")
    ranged = counts.with_columns((before // max(size, 1)).alias("_range"))
    bounds = ranged.group_by("_range").agg(
        pl.col("subject").first().alias("first"), pl.col("subject").last().alias("last")
    )
    return list(bounds.sort("_range").select("first", "last").iter_rows())


def _unasked_years(years: pl.DataFrame, every: pl.DataFrame, dropped: Tallies) -> None:
    """Count the years :func:`read_pool_years` does not ask (empty, filled) in their group's
    state, or :data:`NO_SPLIT` when none of the group's years is asked."""
    states_of = every.select("group_id", "state").unique()
    unasked = years.filter(pl.col("reason").is_not_null()).join(
        states_of, on="group_id", how="left"
    )
    counted = unasked.group_by("state", "reason").len()
    for state, reason, count in counted.iter_rows():
        dropped[state or NO_SPLIT][reason] += count


def _subjects(
    kg: KnowledgeGraph,
    groups: Groups,
    years: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    objects: bool,
) -> pl.DataFrame:
    """The subjects of the asked ``years`` (:func:`~kgdiff.export.rules.salience.with_standing`),
    named as the export names them (the current snapshot), with their popularity; with
    ``objects`` the years' objects and the answers (the distractors' pool) named in the same
    pass."""
    snapshot = groups.snapshots.get("current")
    subjects = years.get_column("subject").unique()
    values = pl.Series(dtype=pl.String())
    if objects:
        values = years.get_column("objects").explode().drop_nulls()
    groups.naming.read(snapshot, values, subjects, answers=objects)
    entities = groups.naming.subjects(subjects, snapshot)
    with kg.connection() as connection:
        wiki = f"{request.lang}wiki"
        popularity = subject_popularity(
            connection, kg.layout, subjects.to_list(), wiki, dates.current
        )
    return with_standing(entities, popularity)


def _asked_subjects(
    every: pl.DataFrame,
    subjects: pl.DataFrame,
    request: BenchmarkRequest,
    catalogue: RelationCatalogue,
    dropped: Tallies,
    gone: pl.DataFrame,
) -> pl.DataFrame:
    """The asked years of a relation that changes, of a subject that still existed, whose
    subject is asked about (:mod:`kgdiff.export.pools.asked`, then
    :mod:`kgdiff.export.rules.salience`); the others counted per state and reason."""
    salience = Salience.of(request)
    unnamed = (*NAMING, "subject_ended")  # the records take them from the setting
    kept = []
    for state in POOLS_SPLITS:
        rows = every.filter(pl.col("state") == state)
        rows = changing_years(rows, gone, catalogue, dropped[state])
        kept.append(asked_subjects(rows, subjects, salience, catalogue, dropped[state], unnamed))
    return pl.concat(kept).sort("group_id", "year") if kept else every


@dataclass(frozen=True)
class PoolsRead:
    """What both passes read the groups' years with."""

    kg: KnowledgeGraph
    groups: Groups
    span: PoolYears
    request: BenchmarkRequest
    dates: Dates
    catalogue: RelationCatalogue

    def years(self, part: pl.DataFrame) -> pl.DataFrame:
        """Every year of the groups of ``part`` that have pools (:func:`read_pool_years`)."""
        return read_pool_years(self.kg, part, self.span, self.request, self.groups.naming.spill)

    def asked(
        self, frame: pl.DataFrame, years: pl.DataFrame, dropped: Tallies, objects: bool
    ) -> tuple[pl.DataFrame, pl.DataFrame]:
        """The asked years of ``frame``'s groups (their ``years`` read) and their subjects'
        facts; what is left out counted in ``dropped``."""
        every = substantive_states(asked_years(years), frame)
        _unasked_years(years, every, dropped)
        subjects = _subjects(self.kg, self.groups, every, self.request, self.dates, objects)
        gone = self.groups.naming.states.gone_years(every)
        rows = _asked_subjects(every, subjects, self.request, self.catalogue, dropped, gone)
        return rows, subjects


def _keys(rows: pl.DataFrame) -> pl.DataFrame:
    """One row per group of asked ``rows``: its key, state and number of asked years."""
    return rows.group_by("group_id", maintain_order=True).agg(
        pl.col("subject", "pid", "state").first(), pl.len().alias("years")
    )


def _add(
    found: AskedPools,
    read: PoolsRead,
    frame: pl.DataFrame,
    years: pl.DataFrame,
    dropped: Tallies,
    whole: bool,
) -> None:
    """Take the asked years of ``frame``'s groups (their ``years`` read) into ``found``: their
    keys and counts, and the rows themselves when ``frame`` is every group (``whole``)."""
    rows, subjects = read.asked(frame, years, dropped, objects=whole)
    found.pooled += years.get_column("group_id").n_unique()
    found.group_years += years.height
    found.by_snapshot.update(groups_by_snapshot(years))
    found.keys.append(_keys(rows))
    if whole:
        found.rows, found.subjects = rows, subjects


def first_pass(
    read: PoolsRead,
    dropped: Tallies,
    read_ahead: Callable[[], pl.DataFrame | None],
    on_step: Callable[[str], None],
) -> AskedPools:
    """Every group's years read and the rules applied, what is left out counted in
    ``dropped``: at once when they were read ahead (``read_ahead`` gives them, else None) or
    fit one range, else :data:`RANGE_GROUPS` groups at a time."""
    keys, found = read.groups.rows().select(GROUP_KEYS), AskedPools()
    ahead = read_ahead()
    bounds = subject_bounds(keys, RANGE_GROUPS) if ahead is None else []
    if len(bounds) <= 1:
        frame = keys.collect()
        years = read.years(frame) if ahead is None else ahead
        _add(found, read, frame, years, dropped, whole=True)
        return found
    for index, (first, last) in enumerate(bounds):
        on_step(f"pools: the groups of subjects {first} to {last} ({index + 1} of {len(bounds)})")
        part = read.groups.file.between(first, last).select(GROUP_KEYS).collect()
        years = read.years(part)
        _add(found, read, part, years, dropped, whole=False)
    return found


def second_pass(
    read: PoolsRead, found: AskedPools, chosen: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The asked years of the ``chosen`` groups (keys of :attr:`AskedPools.keys`), sorted by
    group and year, and their subjects' facts: from the first pass's rows when it kept them,
    else read again for those groups alone."""
    if found.rows is not None and found.subjects is not None:
        wanted = chosen.get_column("group_id").implode()
        return found.rows.filter(pl.col("group_id").is_in(wanted)), found.subjects
    keys = chosen.lazy().select("subject", "pid")
    # filtered before the join: a join over the file's scan reads every group first
    wanted = chosen.get_column("subject").unique().implode()
    of_subjects = read.groups.rows().select(GROUP_KEYS).filter(pl.col("subject").is_in(wanted))
    part = of_subjects.join(keys, on=["subject", "pid"]).collect()
    years = read.years(part)
    recount: Tallies = {name: Counter() for name in (*POOLS_SPLITS, NO_SPLIT)}
    rows, subjects = read.asked(part, years, recount, objects=True)
    expected = asked_year_count(chosen)
    if rows.height != expected:
        raise RuntimeError(
            f"pools: the chosen groups' years read again gave {rows.height:,} asked years,"
            f" the first pass {expected:,}; please report this with the store's manifest"
        )
    return rows, subjects
