"""The words of a split's answers, column by column: what
:func:`kgdiff.export.records.items.answer_texts` works out for one record, for every record of a
frame at once (the same rules: an outdated text that reads as a latest one, once normalised,
is not an outdated answer)."""

from __future__ import annotations

import polars as pl

from kgdiff.export.words.word_frames import TEXTS, words_of

ANSWER_COLUMNS = pl.Schema(
    {
        "answers": TEXTS,
        "answer_labels": TEXTS,
        "answer_forms": TEXTS,
        "correct_value": pl.String(),
        "correct": pl.String(),
        "correct_form": pl.String(),
        "correct_phrase": pl.String(),
        "outdated_answers": TEXTS,
        "outdated_forms": TEXTS,
        "outdated_labels": TEXTS,
        "outdated_label_forms": TEXTS,
        "outdated_label_phrases": TEXTS,
        "outdated_label_values": TEXTS,
    }
)
"""What :func:`answer_columns` adds: the latest objects' texts, labels and forms, the value
and label the correct option shows (null: no latest object has words) and how it reads in a
sentence, and the outdated objects' texts and labels with their forms, phrases and values.

The outdated option is chosen among ``outdated_labels``: the labels of the column
``offered_outdated`` when the rows have it (values that may be offered as outdated: e.g. a
pools year's earlier objects, never a later year's), else of ``outdated``."""


def _texts(values: pl.DataFrame) -> pl.DataFrame:
    """Each (``_id``, text, form) of exploded values' words, in order, each text once."""
    pairs = values.select("_id", "texts", "forms").explode(["texts", "forms"])
    pairs = pairs.drop_nulls("texts").rename({"texts": "text", "forms": "form"})
    return pairs.unique(["_id", "text"], keep="first", maintain_order=True)


def _mains(values: pl.DataFrame) -> pl.DataFrame:
    """Each (``_id``, main text, its form) of exploded values, in order, each text once."""
    mains = values.drop_nulls("main").select("_id", "value", "main", "main_form", "phrase")
    return mains.unique(["_id", "main"], keep="first", maintain_order=True)


UNNAMED = "_unnamed_latest"
"""The column :func:`answer_columns` adds: how many of a row's latest values have no words."""


def _latest(rows: pl.DataFrame, words: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    values = words_of(rows, "latest", words)
    texts, mains = _texts(values), _mains(values)
    unnamed = values.filter(pl.col("main").is_null()).group_by("_id").len(name=UNNAMED)
    answers = texts.group_by("_id", maintain_order=True).agg(
        pl.col("text").alias("answers"), pl.col("form").alias("answer_forms")
    )
    labels = mains.group_by("_id", maintain_order=True).agg(
        pl.col("main").alias("answer_labels"),
        pl.col("value").first().alias("correct_value"),
        pl.col("main").first().alias("correct"),
        pl.col("main_form").first().alias("correct_form"),
        pl.col("phrase").first().alias("correct_phrase"),
    )
    answers = answers.join(labels, on="_id", how="left")
    return answers.join(unnamed, on="_id", how="full", coalesce=True), texts.select("_id", "form")


def _outdated(rows: pl.DataFrame, words: pl.DataFrame, current: pl.DataFrame) -> pl.DataFrame:
    values = words_of(rows, "outdated", words)
    texts = _texts(values).join(current, on=["_id", "form"], how="anti", maintain_order="left")
    offered = "offered_outdated" if "offered_outdated" in rows.columns else "outdated"
    options = values if offered == "outdated" else words_of(rows, offered, words)
    mains = _mains(options).join(
        current.rename({"form": "main_form"}), on=["_id", "main_form"], how="anti",
        maintain_order="left",
    )  # fmt: skip
    answers = texts.group_by("_id", maintain_order=True).agg(
        pl.col("text").alias("outdated_answers"), pl.col("form").alias("outdated_forms")
    )
    labels = mains.group_by("_id", maintain_order=True).agg(
        pl.col("main").alias("outdated_labels"),
        pl.col("main_form").alias("outdated_label_forms"),
        pl.col("phrase").alias("outdated_label_phrases"),
        pl.col("value").alias("outdated_label_values"),
    )
    return answers.join(labels, on="_id", how="full", coalesce=True)


def answer_columns(rows: pl.DataFrame, words: pl.DataFrame) -> pl.DataFrame:
    """``rows`` (with ``_id``, lists ``latest`` and ``outdated``) with :data:`ANSWER_COLUMNS`
    (empty lists where there are none) and :data:`UNNAMED`, from the values' ``words``
    (:func:`kgdiff.export.words.word_frames.value_words`)."""
    latest, current = _latest(rows, words)
    outdated = _outdated(rows, words, current)
    joined = rows.join(latest, on="_id", how="left", maintain_order="left")
    joined = joined.join(outdated, on="_id", how="left", maintain_order="left")
    lists = [name for name, dtype in ANSWER_COLUMNS.items() if dtype == TEXTS]
    return joined.with_columns(
        pl.col(lists).fill_null(pl.lit([], dtype=TEXTS)), pl.col(UNNAMED).fill_null(0)
    )
