"""The options of items whose gold is the abstention ("I don't know": the ``temporal``
config's unanswerable years), column by column: besides the abstention, the first label of an
object the data hold for an earlier year (the outdated option; a year before the subject
existed has none: every object of its group is a later one), then distractors of the kind of
the group's objects that read as none of those objects' texts (drawn as for every other
item: :mod:`kgdiff.export.distractors.noise_frames`). Neither is a person not alive in the year
asked about (:mod:`kgdiff.export.distractors.lifespans`): the outdated option is then the next
object who was, or none."""

from __future__ import annotations

from collections import Counter

import polars as pl

from kgdiff.export.core.column_draws import record_digests
from kgdiff.export.distractors.lifespans import living_outdated
from kgdiff.export.distractors.noise_frames import draw_noise
from kgdiff.export.records.answer_frames import answer_columns
from kgdiff.export.records.choice_frames import NO_CLASSES, ChoiceSetting
from kgdiff.export.records.options import UNKNOWN_OPTION
from kgdiff.export.words.forms import normalised
from kgdiff.export.words.word_frames import TEXTS, words_of

ABSTAINED = normalised(UNKNOWN_OPTION)


def _first_classes(rows: pl.DataFrame, setting: ChoiceSetting) -> pl.DataFrame:
    """``_id`` and ``classes``: the kind keys a distractor of the first of its
    ``group_objects`` that has words may have, then the relation's object class."""
    values = words_of(rows, "group_objects", setting.words).drop_nulls("main")
    first = values.group_by("_id", maintain_order=True).agg(
        pl.col("wanted").first().alias("classes")
    )
    found = rows.select("_id", "pid").join(first, on="_id", how="left", maintain_order="left")
    found = found.join(setting.relations(), on="pid", maintain_order="left")
    own = pl.concat_list(pl.col("object_class")).list.drop_nulls()
    return found.select(
        "_id",
        pl.col("object_type").alias("kind"),
        pl.concat_list(pl.col("classes").fill_null(NO_CLASSES), own).alias("classes"),
    )


def _outdated_option() -> pl.Expr:
    """The first outdated label that is not empty, nor the abstention, once normalised."""
    usable = pl.element().is_not_null() & (pl.element() != "") & (pl.element() != ABSTAINED)
    mask = pl.col("outdated_label_forms").list.eval(usable)
    found = pl.col("outdated_labels").list.get(mask.list.arg_max(), null_on_oob=True)
    return pl.when(mask.list.any()).then(found).alias("_outdated")


def _others(frame: pl.DataFrame) -> pl.DataFrame:
    """``_others`` and ``_other_types``: the outdated option (if any), then the distractors."""
    noise = pl.col("noise").fill_null(pl.lit([], TEXTS))
    outdated = pl.concat_list(pl.col("_outdated")).list.drop_nulls()
    return frame.with_columns(
        pl.concat_list(outdated, noise).alias("_others"),
        pl.concat_list(outdated.list.eval(pl.lit("outdated")), noise.list.eval(pl.lit("noise")))
        .alias("_other_types"),
    )  # fmt: skip


def abstention_others(
    rows: pl.DataFrame, setting: ChoiceSetting, tally: Counter[str]
) -> pl.DataFrame:
    """The rows of ``rows`` (``_id``, ``subject``, ``pid``, ``group_objects``, ``reason``,
    ``year``) that can have ``setting.options`` options with the abstention, with ``_others``
    and ``_other_types`` (the options besides the abstention, unordered) and
    ``outdated_answers``; the others are counted in ``tally`` (``too_few_options``)."""
    wanted = setting.options - 1
    earlier = pl.when(pl.col("reason") == "before_subject").then(pl.lit([], TEXTS))
    asked = rows.with_columns(
        latest=pl.lit([], TEXTS),
        outdated=earlier.otherwise(pl.col("group_objects")),  # before: every value is later
        offered_outdated=earlier.otherwise(pl.col("group_objects")),
    )
    texts = living_outdated(answer_columns(asked, setting.words), "year", setting.tiers.lifespans)
    texts = texts.with_columns(_outdated_option())
    requests = texts.join(_first_classes(rows, setting), on="_id", maintain_order="left").select(
        "_id",
        record_digests(None, texts.get_column("_id"), "noise").alias("digest"),
        "subject", "pid", "kind", "classes",
        pl.concat_list("group_objects", pl.col("subject")).alias("exclude"),
        pl.concat_list("outdated_forms", pl.lit(ABSTAINED)).alias("taken"),
        (pl.lit(wanted) - pl.col("_outdated").is_not_null().cast(pl.Int64())).alias("need"),
        "year",
    )  # fmt: skip
    noise = draw_noise(requests, setting.tiers)
    built = _others(texts.join(noise, on="_id", how="left", maintain_order="left"))
    full = built.filter(pl.col("_others").list.len() == wanted)
    if built.height > full.height:
        tally["too_few_options"] += built.height - full.height
    return full.drop("noise", "_outdated")
