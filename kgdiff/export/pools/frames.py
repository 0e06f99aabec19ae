"""The ``pools`` config's records built column by column: a batch of groups (one row each,
their asked years as lists) becomes one record per year (:func:`year_rows`), whose answers and
options come from :func:`~kgdiff.export.records.choice_frames.answered_choices` (a group's years
share its distractors, but for a person not alive in a year:
:mod:`kgdiff.export.distractors.lifespans`) and whose texts from the relation's in-a-year
templates."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

import polars as pl

from kgdiff.export.pools.held import HELD_SCHEMA, with_held
from kgdiff.export.pools.records import year_rows
from kgdiff.export.records.choice_frames import ChoiceSetting, answered_choices
from kgdiff.export.records.option_frames import mc_question
from kgdiff.export.relations.columns import rendered
from kgdiff.export.rules.existence import EXISTENCE_SCHEMA, without_not_yet
from kgdiff.export.rules.tautology import Asked
from kgdiff.export.words.answer_hygiene import without_placeholders

BLANK = "\x00"
"""The object of a statement checked for tautologies (:data:`kgdiff.export.records.asked.BLANK`)."""
ASKED = Asked(("subject_label",), ("question", "cloze", "_blank_statement"))
"""The texts of a record that must not name its answer (:mod:`kgdiff.export.rules.tautology`)."""
OBJECT_LISTS = ("objects", "precision_only", "earlier_objects", "later_objects")
"""The value lists of a year's record besides those :func:`answered_choices` cleans."""


@dataclass(frozen=True)
class PoolsSetting:
    """What every ``pools`` record of an export shares: the choices' setting, the dates, and
    the subjects asked about (``subject``, ``subject_label``, ``subject_phrase``,
    ``subject_plural``, ``popularity``, ``subject_needles``), the existence dates of dated
    relations and the values each group holds."""

    choices: ChoiceSetting
    dates: Mapping[str, str]
    subjects: pl.DataFrame
    existence: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=EXISTENCE_SCHEMA))
    """When the subjects and objects of dated relations began and ended
    (:mod:`kgdiff.export.rules.existence`)."""
    held: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=HELD_SCHEMA))
    """Every value each group holds in any snapshot and year, which no distractor of its
    records may be (:mod:`kgdiff.export.pools.held`)."""


def pools_frame(groups: pl.DataFrame, setting: PoolsSetting, tally: Counter[str]) -> pl.DataFrame:
    """The records of the asked years of ``groups`` (rows of
    :func:`~kgdiff.export.pools.groups.asked_years` grouped by ``group_id``), sorted by id,
    with ``_other``; why a year has none is counted in ``tally``."""
    labels = setting.subjects.drop_nulls("subject_label")
    labelled = groups.join(
        labels.select("subject"), on="subject", how="semi", maintain_order="left"
    )
    unlabelled = groups.join(labels, on="subject", how="anti")
    if unlabelled.height:
        tally["unlabelled_subject"] += int(unlabelled.get_column("year").list.len().sum())
    rows = year_rows(labelled).with_columns(
        without_placeholders(pl.col(name)).alias(name) for name in OBJECT_LISTS
    )
    rows = rows.join(labels, on="subject", maintain_order="left")
    rows = with_held(rows, setting.held)
    catalogue = setting.choices.catalogue
    said = {"subject": pl.col("subject_phrase"), "year": pl.col("year")}
    plural = pl.col("subject_plural")
    rows = rows.with_columns(
        pl.col("group_id").alias("_noise_key"),
        question=rendered(rows, catalogue, "question_at", plural=plural, **said),
        cloze=rendered(rows, catalogue, "cloze_at", plural=plural, **said),
        _blank_statement=rendered(
            rows, catalogue, "statement_at", plural=plural, object=pl.lit(BLANK), **said
        ),
    )
    rows = without_not_yet(rows, "latest", setting.existence, catalogue, tally, year="year")
    built = answered_choices(rows, setting.choices, tally, ASKED, year="year")
    correct, wrong = pl.col("correct_phrase"), pl.col("wrong_phrase")
    built = built.with_columns(
        _true=rendered(built, catalogue, "statement_at", plural=plural, object=correct, **said),
        _false=rendered(built, catalogue, "statement_at", plural=plural, object=wrong, **said),
    )
    truth = pl.col("truth")
    return built.with_columns(
        pl.col("_id").alias("id"),
        mc_question(pl.col("question")).alias("mc_question"),
        pl.when(truth).then(pl.col("_true")).otherwise(pl.col("_false")).alias("tf_statement"),
        truth.alias("tf_label"),
        pl.when(truth).then(pl.col("_false")).otherwise(pl.col("_true")).alias("_other"),
        *[pl.lit(value).alias(name) for name, value in setting.dates.items()],
    ).sort("id")
