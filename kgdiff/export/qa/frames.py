"""The ``qa`` config's records built column by column, a batch of groups at once: the
subject's label, the answers' words, the options and the true/false statement, the relation's
templates, the evidence sentence and the popularity are joins and expressions over the batch
(the rules of docs/benchmark-export.md#the-qa-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

import polars as pl

from kgdiff.export.inputs.contexts import Context
from kgdiff.export.inputs.groups import FIXED_FACT_CORRECTED, corrected
from kgdiff.export.records.asked import ASKED, asked_texts, worded
from kgdiff.export.records.choice_frames import ChoiceSetting, answered_choices
from kgdiff.export.records.option_frames import mc_question
from kgdiff.export.rules.existence import EXISTENCE_SCHEMA, without_not_yet
from kgdiff.export.rules.salience import Salience, asked_subjects
from kgdiff.export.rules.series_years import SERIES_YEARS_SCHEMA

CONTEXT_SCHEMA = pl.Schema(
    {
        "subject": pl.String(),
        "pid": pl.String(),
        "context": pl.String(),
        "context_page": pl.String(),
        "context_revision": pl.Int64(),
        "context_sentence": pl.Int64(),
    }
)


@dataclass(frozen=True)
class FrameSetting:
    """What every ``qa`` record of an export shares, as frames: the choices' setting, the
    dates, the subjects (labels, sitelinks, classes, popularity:
    :func:`~kgdiff.export.rules.salience.subject_facts`) and which are asked about, and the
    evidence sentences, the existence dates of the subjects and objects of dated
    relations, and the years counts are asked in."""

    choices: ChoiceSetting
    dates: Mapping[str, str]
    subjects: pl.DataFrame
    salience: Salience
    contexts: pl.DataFrame
    existence: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=EXISTENCE_SCHEMA))
    """When the subjects and gold objects of dated relations began and ended
    (:mod:`kgdiff.export.rules.existence`)."""
    years: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=SERIES_YEARS_SCHEMA))
    """The year each count is asked in (:mod:`kgdiff.export.rules.series_years`)."""


def context_frame(contexts: Mapping[tuple[str, str], Context]) -> pl.DataFrame:
    """The evidence sentences of (subject, pid) groups as a frame."""
    rows = [
        (subject, pid, found.sentence, found.page, found.revision, found.index)
        for (subject, pid), found in contexts.items()
    ]
    return pl.DataFrame(rows, schema=CONTEXT_SCHEMA, orient="row")


def popularity_frame(popularity: Mapping[str, float]) -> pl.DataFrame:
    """Subjects' popularity as a frame."""
    return pl.DataFrame(
        {"subject": list(popularity), "popularity": list(popularity.values())},
        schema={"subject": pl.String(), "popularity": pl.Float64()},
    )


def qa_frame(rows: pl.DataFrame, setting: FrameSetting, tally: Counter[str]) -> pl.DataFrame:
    """The records of classified groups (``_id`` and ``subject``, ``pid``, ``level``,
    ``change_kind``, ``latest``, ``outdated``, ``all_answers``), in their order, with
    ``_other``; why a group has none is counted in ``tally`` (an evolved group of a ``fixed``
    relation: :data:`~kgdiff.export.inputs.groups.FIXED_FACT_CORRECTED`)."""
    catalogue = setting.choices.catalogue
    fixed = corrected(catalogue, pl.col("level") == "evolved")
    if corrections := rows.filter(fixed).height:
        tally[FIXED_FACT_CORRECTED] += corrections
        rows = rows.filter(~fixed)
    asked = asked_subjects(rows, setting.subjects, setting.salience, catalogue, tally)
    asked = without_not_yet(asked, "latest", setting.existence, catalogue, tally)
    asked = asked.join(setting.years, on=["subject", "pid"], how="left", maintain_order="left")
    built = answered_choices(asked_texts(asked, catalogue), setting.choices, tally, ASKED)
    built = built.with_columns(
        _true=worded(built, catalogue, "statement", object=pl.col("correct_phrase")),
        _false=worded(built, catalogue, "statement", object=pl.col("wrong_phrase")),
    )
    built = built.join(setting.contexts, on=["subject", "pid"], how="left", maintain_order="left")
    truth = pl.col("truth")
    return built.with_columns(
        pl.col("_id").alias("id"),
        pl.when(pl.col("level") == "evolved").then(pl.col("change_kind")).alias("change_kind"),
        mc_question(pl.col("question")).alias("mc_question"),
        pl.when(truth).then(pl.col("_true")).otherwise(pl.col("_false")).alias("tf_statement"),
        truth.alias("tf_label"),
        pl.when(truth).then(pl.col("_false")).otherwise(pl.col("_true")).alias("_other"),
        *[pl.lit(value).alias(name) for name, value in setting.dates.items()],
    )
