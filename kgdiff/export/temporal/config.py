"""The ``temporal`` config: EvolveBench-style questions from the timelines of the
classification's groups, in valid time (the start and end qualifiers of the snapshot read for
``current``), one split per kind: ``timestamp``, ``interval``, ``implicit`` and
``unanswerable`` (docs/benchmark-export.md#the-temporal-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import polars as pl

from kgdiff.export.core.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.dataset.frame_chunks import BuildFrame, ByParts, sorted_chunks
from kgdiff.export.dataset.schema import TEMPORAL_SCHEMA
from kgdiff.export.inputs.contexts import subject_popularity
from kgdiff.export.inputs.groups import Groups
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.existence import existence_ids
from kgdiff.export.rules.salience import Salience, with_standing
from kgdiff.export.temporal.dated_rows import TEMPORAL_KINDS, DatedRows, read_dated_rows
from kgdiff.export.temporal.items import Built, interval_records, timestamp_records
from kgdiff.export.temporal.setting import TemporalSetting
from kgdiff.export.temporal.years import implicit_records, unanswerable_records
from kgdiff.query.graph import KnowledgeGraph

TEMPORAL_DESCRIPTION = (
    "Questions about when facts held, EvolveBench-style, from the start and end qualifiers of"
    " the latest snapshot at or before `current` (valid time), one split per kind:"
    " `timestamp` (when a fact started or ended, at the precision of its qualifier),"
    " `interval` (for how many years or months it held), `implicit` (what held in a year"
    " whose objects the data know without doubt; the group's other objects are outdated) and"
    " `unanswerable` (a year before the subject was born: the gold is the abstention,"
    ' "I don\'t know").'
)


def read_dated(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
) -> DatedRows:
    """The rows of every kind of the dated groups' statements in the snapshot read, on disk
    (:func:`~kgdiff.export.temporal.dated_rows.read_dated_rows`)."""
    return read_dated_rows(kg, groups, dates.current)


LOOKED_UP = ("value", "earlier_values", "objects", "group_objects")
"""The columns of values (one, or a list) whose words and existence a kind's rows look up."""


def _looked_up(rows: pl.DataFrame) -> pl.DataFrame:
    """Each row's ``subject``, ``pid`` and every value it looks up (``objects``)."""
    # a null list would make the whole row's list null
    empty = pl.lit([], dtype=pl.List(pl.String()))
    lists = [
        pl.col(name).fill_null(empty)
        if isinstance(rows.schema[name], pl.List)
        else pl.concat_list(pl.col(name).cast(pl.String()))
        for name in LOOKED_UP
        if name in rows.columns
    ]
    objects = pl.concat_list(lists).list.drop_nulls().alias("objects")
    return rows.select("subject", "pid", objects)


def _name_all(groups: Groups, dated: DatedRows) -> None:
    """Take the statements' values into the distractors' pool and name every value and
    subject the records look up, in one pass over the store's names."""
    if dated.snapshot is None:
        return
    groups.naming.add_pairs(dated.value_pairs())
    # the statements' objects and subjects, and the distractors' pool, in one pass
    groups.naming.read(dated.snapshot, subjects=dated.all_subjects(), answers=True)
    # named: let go of them before the tiers are built again with the values
    dated.pairs.clear()
    dated.subjects.clear()


def _setting(
    kg: KnowledgeGraph,
    groups: Groups,
    rows: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    snapshot: str | None,
) -> TemporalSetting:
    """The setting of a part's records (``rows``: of one kind), read for them alone."""
    subjects = rows.get_column("subject").unique()
    looked_up = _looked_up(rows)
    with kg.connection() as connection:
        popularity = subject_popularity(
            connection, kg.layout, subjects.to_list(), f"{request.lang}wiki", dates.current
        )
        existence = groups.naming.states.existence(existence_ids(looked_up, "objects", catalogue))
    values = looked_up.get_column("objects").explode().drop_nulls().unique()
    words = groups.naming.words_named(values, snapshot)
    choices = groups.naming.choices(snapshot, request.seed, request.options, words)
    return TemporalSetting(
        dates=dates.iso(), seed=request.seed, options=request.options,
        subjects=with_standing(groups.naming.subjects_named(subjects, snapshot), popularity),
        salience=Salience.of(request), catalogue=catalogue, snapshot=snapshot,
        choices=choices, existence=existence,
    )  # fmt: skip


Build = Callable[[pl.DataFrame, TemporalSetting], Built]
"""A kind's builder: rows (with their ids, ``_id``) to records and the reasons of the rest."""
BUILDERS: dict[str, Build] = {
    "timestamp": timestamp_records,
    "interval": interval_records,
    "implicit": implicit_records,
    "unanswerable": unanswerable_records,
}


def _batch_builder(kind: str, setting: TemporalSetting) -> BuildFrame:
    """A kind's builder as :func:`~kgdiff.export.dataset.frame_chunks.frame_chunks` calls it."""
    build = BUILDERS[kind]

    def batch(rows: pl.DataFrame, tally: Counter[str]) -> pl.DataFrame:
        records, reasons = build(rows, setting)
        tally.update(reasons.to_list())
        renamed: pl.DataFrame = records.rename({"_other_statement": "_other"})
        return renamed

    return batch


def _builders(
    kg: KnowledgeGraph,
    groups: Groups,
    kind: str,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    snapshot: str | None,
) -> ByParts:
    """A kind's builder of a part's batches, with the setting read for the part."""

    def builder_of(rows: pl.DataFrame) -> BuildFrame:
        setting = _setting(kg, groups, rows, request, dates, catalogue, snapshot)
        return _batch_builder(kind, setting)

    return ByParts(builder_of)


def temporal_config(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    on_step: Callable[[str], None] = lambda _: None,
) -> ConfigExport:
    """The ``temporal`` config of the classification's catalogued groups."""
    dated = groups.ahead.take("temporal", lambda: read_dated(kg, groups, request, dates, catalogue))
    on_step(
        f"temporal: {dated.statements:,} statements of {dated.dated_groups:,} groups with dates"
    )
    _name_all(groups, dated)
    tallies = dated.tallies
    splits = {
        kind: sorted_chunks(
            dated.kinds[kind],
            _builders(kg, groups, kind, request, dates, catalogue, dated.snapshot),
            request,
            TEMPORAL_SCHEMA,
            tallies[kind],
        )
        for kind in TEMPORAL_KINDS
    }
    counts: dict[str, Any] = {
        "snapshot": dated.snapshot,
        "groups": groups.size,
        "groups_not_in_catalogue": groups.uncatalogued(groups.counts),
        "groups_without_dates": groups.size - dated.dated_groups,
        "statements": dated.statements,
        "periods": dated.periods,
        "left_out": tallies,  # filled as the splits are written
        "dropped": tallies,
    }
    return ConfigExport("temporal", TEMPORAL_SCHEMA, splits, counts, TEMPORAL_DESCRIPTION)
