"""The ``temporal`` config: EvolveBench-style questions from the timelines of the
classification's groups, in valid time (the start and end qualifiers of the snapshot read for
``current``), one split per kind: ``timestamp``, ``interval``, ``implicit`` and
``unanswerable`` (docs/benchmark-export.md#the-temporal-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import date
from typing import Any

import polars as pl

from kgdiff.export.core.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.dataset.frame_chunks import BuildFrame, frame_chunks
from kgdiff.export.dataset.schema import TEMPORAL_SCHEMA
from kgdiff.export.inputs.contexts import subject_popularity
from kgdiff.export.inputs.groups import Groups
from kgdiff.export.inputs.shared_naming import answer_pairs
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.existence import existence_ids, read_existence
from kgdiff.export.rules.salience import Salience, with_standing
from kgdiff.export.temporal import rows
from kgdiff.export.temporal.items import Built, interval_records, timestamp_records
from kgdiff.export.temporal.setting import TemporalSetting
from kgdiff.export.temporal.years import implicit_records, unanswerable_records
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.sqlfiles import load_sql

TEMPORAL_KINDS = ("timestamp", "interval", "implicit", "unanswerable")
"""The splits, one per kind of item."""
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
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The dated groups' statements in the snapshot read, and their periods."""
    with kg.connection() as connection:
        connection.register("temporal_groups", groups.frame.select("subject", "pid").to_arrow())
        facts = connection.sql(
            load_sql("export/temporal_statements"), params={"current": dates.current}
        ).pl()
        connection.register("temporal_facts", facts.to_arrow())
        periods = connection.sql(
            load_sql("export/temporal_periods"), params={"last_year": last_whole_year(facts)}
        ).pl()
    return facts, periods


def last_whole_year(facts: pl.DataFrame) -> int:
    """The last year the snapshot read knows whole (0 when nothing was read)."""
    if facts.is_empty():
        return 0
    day: date = facts.get_column("snapshot_date")[0]
    return day.year if (day.month, day.day) == (12, 31) else day.year - 1


def _setting(
    kg: KnowledgeGraph,
    groups: Groups,
    facts: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
) -> TemporalSetting:
    pids = facts.get_column("pid").unique().to_list()
    pairs = answer_pairs(groups.frame.filter(pl.col("pid").is_in(pids)))
    pairs = pl.concat([pairs, facts.select("pid", "value")]).unique()
    groups.naming.add_pairs(facts.select("pid", "value"))
    values = pairs.get_column("value")
    subjects = facts.get_column("subject").unique()
    snapshot = None if facts.is_empty() else str(facts.get_column("snapshot")[0])
    # the statements' objects and subjects, and the distractors' pool, in one pass
    groups.naming.read(snapshot, values, subjects, answers=True)
    with kg.connection() as connection:
        popularity = subject_popularity(
            connection, kg.layout, subjects.to_list(), f"{request.lang}wiki", dates.current
        )
        statements = facts.select("subject", "pid", pl.concat_list("value").alias("objects"))
        existence = read_existence(connection, existence_ids(statements, "objects", catalogue))
    words = groups.naming.words_named(values, snapshot)
    choices = groups.naming.choices(snapshot, request.seed, request.options, words)
    return TemporalSetting(
        dates=dates.iso(), seed=request.seed, options=request.options,
        subjects=with_standing(groups.naming.subjects(subjects, snapshot), popularity),
        salience=Salience.of(request), catalogue=catalogue, snapshot=snapshot,
        choices=choices, existence=existence,
    )  # fmt: skip


def _sources(
    facts: pl.DataFrame, periods: pl.DataFrame, tallies: dict[str, Counter[str]]
) -> dict[str, tuple[pl.DataFrame, pl.Expr]]:
    """Per kind, the rows its items are built from and the expression of their ids."""
    snapshot_date = None if facts.is_empty() else facts.get_column("snapshot_date")[0]
    summary = rows.group_summary(facts)
    undoubted = periods.select("subject", "pid").unique().height
    tallies["implicit"]["no_year_without_doubt"] += summary.height - undoubted
    implicit, unknown = rows.known_value_rows(rows.implicit_rows(periods, summary))
    # No year after the data is asked: it is unanswerable from the store only, and a
    # model trained later knows it (docs/benchmark-export.md#unanswerable-years).
    unanswerable = pl.concat([rows.before_subject_rows(summary, tallies["unanswerable"]), unknown])
    return {
        "timestamp": (rows.timestamp_rows(facts, snapshot_date), rows.TIMESTAMP_KEY),
        "interval": (rows.interval_rows(facts, snapshot_date), rows.INTERVAL_KEY),
        "implicit": (implicit, rows.YEAR_KEY["implicit"]),
        "unanswerable": (unanswerable, rows.YEAR_KEY["unanswerable"]),
    }


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


def temporal_config(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    on_step: Callable[[str], None] = lambda _: None,
) -> ConfigExport:
    """The ``temporal`` config of the classification's catalogued groups."""
    facts, periods = groups.ahead.take(
        "temporal", lambda: read_dated(kg, groups, request, dates, catalogue)
    )
    dated = facts.select("subject", "pid").unique().height
    on_step(f"temporal: {facts.height:,} statements of {dated:,} groups with dates")
    setting = _setting(kg, groups, facts, request, dates, catalogue)
    tallies: dict[str, Counter[str]] = {kind: Counter() for kind in TEMPORAL_KINDS}
    sources = _sources(facts, periods, tallies)
    splits = {
        kind: frame_chunks(
            frame, key, _batch_builder(kind, setting), request, TEMPORAL_SCHEMA, tallies[kind]
        )
        for kind, (frame, key) in sources.items()
    }
    counts: dict[str, Any] = {
        "snapshot": setting.snapshot,
        "groups": groups.frame.height,
        "groups_not_in_catalogue": groups.uncatalogued(groups.counts),
        "groups_without_dates": groups.frame.height - dated,
        "statements": facts.height,
        "periods": periods.height,
        "left_out": tallies,  # filled as the splits are written
        "dropped": tallies,
    }
    return ConfigExport("temporal", TEMPORAL_SCHEMA, splits, counts, TEMPORAL_DESCRIPTION)
