"""The ``pools`` config's records built column by column: a batch of groups (one row each,
their asked years as lists) becomes one record per year (:func:`year_rows`), whose answers and
options come from :func:`~kgdiff.export.choice_frames.answered_choices` (a group's years share
its distractors) and whose texts from the relation's in-a-year templates."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from kgdiff.export.choice_frames import ChoiceSetting, answered_choices
from kgdiff.export.option_frames import mc_question
from kgdiff.export.pool_records import year_rows
from kgdiff.export.relation_columns import rendered


@dataclass(frozen=True)
class PoolsSetting:
    """What every ``pools`` record of an export shares: the choices' setting, the dates, the
    subjects' labels and their popularity."""

    choices: ChoiceSetting
    dates: Mapping[str, str]
    labels: pl.DataFrame
    popularity: pl.DataFrame


def pools_frame(groups: pl.DataFrame, setting: PoolsSetting, tally: Counter[str]) -> pl.DataFrame:
    """The records of the asked years of ``groups`` (rows of
    :func:`~kgdiff.export.pool_groups.asked_years` grouped by ``group_id``), sorted by id,
    with ``_other``; why a year has none is counted in ``tally``."""
    labels = setting.labels.drop_nulls("subject_label")
    labelled = groups.join(labels, on="subject", how="inner", maintain_order="left")
    unlabelled = groups.join(labels, on="subject", how="anti")
    if unlabelled.height:
        tally["unlabelled_subject"] += int(unlabelled.get_column("year").list.len().sum())
    rows = year_rows(labelled.drop("subject_label"))
    rows = rows.join(labels, on="subject", maintain_order="left")
    built = answered_choices(rows.with_columns(pl.col("group_id").alias("_noise_key")),
                             setting.choices, tally)  # fmt: skip
    subject, year, catalogue = pl.col("subject_label"), pl.col("year"), setting.choices.catalogue
    correct, wrong = pl.col("correct"), pl.col("wrong")
    built = built.with_columns(
        question=rendered(built, catalogue, "question_at", subject=subject, year=year),
        cloze=rendered(built, catalogue, "cloze_at", subject=subject, year=year),
        _true=rendered(
            built, catalogue, "statement_at", subject=subject, object=correct, year=year
        ),
        _false=rendered(built, catalogue, "statement_at", subject=subject, object=wrong, year=year),
    )
    built = built.join(setting.popularity, on="subject", how="left", maintain_order="left")
    truth = pl.col("truth")
    return built.with_columns(
        pl.col("_id").alias("id"),
        mc_question(pl.col("question")).alias("mc_question"),
        pl.when(truth).then(pl.col("_true")).otherwise(pl.col("_false")).alias("tf_statement"),
        truth.alias("tf_label"),
        pl.when(truth).then(pl.col("_false")).otherwise(pl.col("_true")).alias("_other"),
        *[pl.lit(value).alias(name) for name, value in setting.dates.items()],
    ).sort("id")
