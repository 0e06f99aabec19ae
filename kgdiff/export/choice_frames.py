"""The answers and options of a batch of records, column by column, from what every record of
an export shares: the values' words, the distractor tiers and the relation catalogue. The
``qa`` and ``updates`` configs build their multiple-choice and true/false items through it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import polars as pl

from kgdiff.export.answer_frames import answer_columns
from kgdiff.export.column_draws import record_digests
from kgdiff.export.noise_frames import NoiseTiers
from kgdiff.export.option_frames import choice_columns
from kgdiff.export.relation_model import RelationCatalogue

NO_CLASSES = pl.lit([], pl.List(pl.String()))


@dataclass(frozen=True)
class ChoiceSetting:
    """The seed, the options' count, the catalogue, the values' words
    (:func:`kgdiff.export.word_frames.value_words`) and the distractors' tiers."""

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


def _answered(rows: pl.DataFrame, setting: ChoiceSetting, tally: Counter[str]) -> pl.DataFrame:
    """The rows whose latest objects have words, with their answers' words, relation, the
    correct value's classes (then the relation's object class) and the record's digests."""
    answered = answer_columns(rows, setting.words).filter(pl.col("correct").is_not_null())
    if rows.height > answered.height:
        tally["no_answer_text"] += rows.height - answered.height
    classes = setting.words.select(pl.col("value").alias("correct_value"), "classes")
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
    rows: pl.DataFrame, setting: ChoiceSetting, tally: Counter[str]
) -> pl.DataFrame:
    """The records of ``rows`` (``_id``, ``pid`` in the catalogue, lists ``latest``,
    ``outdated`` and ``all_answers``; ``_noise_key`` if records share distractors) that can
    be asked, in their order, with their answers'
    words (:data:`kgdiff.export.answer_frames.ANSWER_COLUMNS`), ``relation``, ``options``,
    ``choice_types``, ``gold``, ``wrong`` and ``truth``; why the others cannot
    (``no_answer_text``, ``too_few_options``) is counted in ``tally``."""
    built, too_few = choice_columns(_answered(rows, setting, tally), setting.tiers, setting.options)
    if too_few:
        tally["too_few_options"] += too_few
    return built
