"""The answers and options of a batch of records, column by column, from what every record of
an export shares: the values' words, the distractor tiers and the relation catalogue. The
``qa`` and ``updates`` configs build their multiple-choice and true/false items through it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import polars as pl

from kgdiff.export.core.column_draws import record_digests
from kgdiff.export.distractors.noise_tiers import NoiseTiers
from kgdiff.export.records.answer_frames import UNNAMED, answer_columns
from kgdiff.export.records.option_frames import choice_columns
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.subject_echo import ANSWER_NAMES_SUBJECT, without_naming
from kgdiff.export.rules.tautology import TAUTOLOGY, Asked, judge_frame, without_restating
from kgdiff.export.words.answer_hygiene import placeholder_reason, without_placeholders

NO_CLASSES = pl.lit([], pl.List(pl.String()))
GOLD_PARTLY_UNNAMED = "gold_partly_unnamed"
"""Why a record some of whose latest objects have no words is not asked: a model naming one of
them (Champollion's First French Empire, no English label in the store) would be scored
wrong."""


@dataclass(frozen=True)
class ChoiceSetting:
    """The seed, the options' count, the catalogue, the values' words
    (:func:`kgdiff.export.words.word_frames.value_words`) and the distractors' tiers."""

    seed: int
    options: int
    catalogue: RelationCatalogue
    words: pl.DataFrame
    tiers: NoiseTiers

    def relations(self) -> pl.DataFrame:
        """``pid``, its ``relation`` label, ``object_type`` and ``object_class``."""
        found = list(self.catalogue)
        return pl.DataFrame(
            {
                "pid": [relation.pid for relation in found],
                "relation": [relation.label for relation in found],
                "object_type": [relation.object_type.value for relation in found],
                "object_class": [relation.object_class for relation in found],
            },
            schema={
                name: pl.String() for name in ("pid", "relation", "object_type", "object_class")
            },
        )


VALUE_LISTS = ("latest", "outdated", "offered_outdated", "all_answers")
"""The lists of value keys a record shows, which never hold a placeholder."""


def _count(tally: Counter[str], reasons: pl.Series) -> None:
    for reason, count in reasons.drop_nulls().value_counts().iter_rows():
        tally[reason] += count


def _with_values(rows: pl.DataFrame, tally: Counter[str]) -> pl.DataFrame:
    """The rows whose latest objects are not only placeholders (the others counted as
    ``no_value`` or ``unknown_value``), with no placeholder left in their value lists."""
    reasons = rows.select(placeholder_reason(pl.col("latest"))).to_series()
    _count(tally, reasons)
    kept = rows.filter(reasons.is_null())
    lists = [name for name in VALUE_LISTS if name in kept.columns]
    return kept.with_columns(without_placeholders(pl.col(name)).alias(name) for name in lists)


def _not_tautologies(
    answered: pl.DataFrame, asked: Asked | None, tally: Counter[str]
) -> pl.DataFrame:
    """The rows that do not give their answer away in their ``asked`` columns (the others
    counted as ``tautology``), without the aliases that restate their question."""
    if asked is None or not answered.height:
        return answered
    given, restating = judge_frame(
        answered, "answers", "answer_labels", asked.slots, asked.texts, values="latest"
    )
    if given.len():
        tally[TAUTOLOGY] += given.len()
        answered = answered.filter(~pl.col("_id").is_in(given.implode()))
    return without_restating(answered, restating, ("answers", "answer_forms"))


def _answered(
    rows: pl.DataFrame, setting: ChoiceSetting, tally: Counter[str], asked: Asked | None = None
) -> pl.DataFrame:
    """The rows whose latest objects have words and whose ``asked`` texts do not give them
    away, with their answers' words, relation, the kind keys a distractor of the correct
    value may have (its own, then the relation's object class:
    :mod:`kgdiff.export.words.option_kinds`) and the record's digests."""
    rows = _with_values(rows, tally)
    answered = answer_columns(rows, setting.words).filter(pl.col("correct").is_not_null())
    if rows.height > answered.height:
        tally["no_answer_text"] += rows.height - answered.height
    answered = _not_tautologies(answered, asked, tally)
    # a true answer without words would be scored wrong: the record is not asked
    partly = pl.col(UNNAMED) > 0
    if unnamed := answered.filter(partly).height:
        tally[GOLD_PARTLY_UNNAMED] += unnamed
        answered = answered.filter(~partly)
    answered = answered.drop(UNNAMED)
    answered, naming = without_naming(answered, "answer_labels", "subject_needles")
    if naming:
        tally[ANSWER_NAMES_SUBJECT] += naming
    classes = setting.words.select(
        pl.col("value").alias("correct_value"), pl.col("wanted").alias("classes")
    )
    answered = answered.join(setting.relations(), on="pid", maintain_order="left")
    answered = answered.join(classes, on="correct_value", how="left", maintain_order="left")
    own_class = pl.concat_list(pl.col("object_class")).list.drop_nulls()
    ids = answered.get_column("_id")
    # records that share a noise key (a pools group's years) are offered the same distractors
    noise_keys = answered.get_column("_noise_key" if "_noise_key" in answered.columns else "_id")
    return answered.with_columns(
        pl.concat_list(pl.col("classes").fill_null(NO_CLASSES), own_class).alias("classes"),
        record_digests(None, noise_keys, "noise").alias("noise_digest"),
        record_digests(setting.seed, ids, "options").alias("options_digest"),
    )


def answered_choices(
    rows: pl.DataFrame,
    setting: ChoiceSetting,
    tally: Counter[str],
    asked: Asked | None = None,
    year: str | None = None,
) -> pl.DataFrame:
    """The records of ``rows`` (``_id``, ``subject``, ``pid`` in the catalogue, lists
    ``latest``, ``outdated`` and ``all_answers``; ``_noise_key`` if records share
    distractors; the text columns of ``asked``) that can be asked, in their order, with their
    answers' words (:data:`kgdiff.export.records.answer_frames.ANSWER_COLUMNS`), ``relation``,
    ``options``, ``choice_types``, ``gold``, ``wrong`` and ``truth``, and no placeholder in
    their value lists; why the others cannot (``no_value``, ``unknown_value``,
    ``no_answer_text``, :data:`GOLD_PARTLY_UNNAMED`, ``tautology``:
    :func:`~kgdiff.export.rules.tautology.judge`,
    ``answer_names_subject``: :mod:`kgdiff.export.rules.subject_echo`, when the rows have the
    column ``subject_needles``, ``too_few_options``) is counted in ``tally``; an alias that
    restates the question is no answer; ``year``: the column of the year each record asks
    about, in which every person offered but the gold was alive
    (:mod:`kgdiff.export.distractors.lifespans`)."""
    answered = _answered(rows, setting, tally, asked)
    built, too_few = choice_columns(answered, setting.tiers, setting.options, year)
    if too_few:
        tally["too_few_options"] += too_few
    return built
