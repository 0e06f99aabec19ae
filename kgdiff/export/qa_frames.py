"""The ``qa`` config's records built column by column, a batch of groups at once: the
subject's label, the answers' words, the options and the true/false statement, the relation's
templates, the evidence sentence and the popularity are joins and expressions over the batch
(the rules of docs/benchmark-export.md#the-qa-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from kgdiff.export.choice_frames import ChoiceSetting, answered_choices
from kgdiff.export.contexts import Context
from kgdiff.export.option_frames import mc_question
from kgdiff.export.relation_columns import rendered

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
    dates, the subjects' labels, the evidence sentences and the popularity."""

    choices: ChoiceSetting
    dates: Mapping[str, str]
    labels: pl.DataFrame
    contexts: pl.DataFrame
    popularity: pl.DataFrame


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
    ``_other``; why a group has none is counted in ``tally``."""
    labels = setting.labels.drop_nulls("subject_label")
    labelled = rows.join(labels, on="subject", how="inner", maintain_order="left")
    if rows.height > labelled.height:
        tally["unlabelled_subject"] += rows.height - labelled.height
    built = answered_choices(labelled, setting.choices, tally)
    subject, correct, wrong = pl.col("subject_label"), pl.col("correct"), pl.col("wrong")
    catalogue = setting.choices.catalogue
    built = built.with_columns(
        question=rendered(built, catalogue, "question", subject=subject),
        cloze=rendered(built, catalogue, "cloze", subject=subject),
        _true=rendered(built, catalogue, "statement", subject=subject, object=correct),
        _false=rendered(built, catalogue, "statement", subject=subject, object=wrong),
    )
    built = built.join(setting.contexts, on=["subject", "pid"], how="left", maintain_order="left")
    built = built.join(setting.popularity, on="subject", how="left", maintain_order="left")
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
