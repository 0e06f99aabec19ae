"""Multiple-choice and true/false fields column by column, by the rules of
:mod:`kgdiff.export.records.options` (the correct option, the outdated one whenever the record has
one that reads differently, "I don't know", then distractors) for every record of a frame at once.
A record asked about a year is offered no person who was not alive in it
(:mod:`kgdiff.export.distractors.lifespans`): neither as a distractor nor as its outdated option,
which is then the next outdated object who was, or none (and one more distractor).

Order: :mod:`kgdiff.export.records.option_order`, the slots numbered by kind (correct,
outdated, unknown, distractors in the order drawn). The true/false choice is another bit of the
same digest.
"""

from __future__ import annotations

import polars as pl

from kgdiff.export.core.column_draws import mixed
from kgdiff.export.distractors.lifespans import living_outdated
from kgdiff.export.distractors.noise_frames import draw_noise
from kgdiff.export.distractors.noise_tiers import NoiseTiers
from kgdiff.export.records.items import MC_INSTRUCTION
from kgdiff.export.records.option_order import FIRST_NOISE_SLOT, KIND_SLOTS, shown_order
from kgdiff.export.records.options import UNKNOWN_OPTION
from kgdiff.export.words.forms import normalised

_TRUTH_SALT = 1 << 32
_SLOTS = pl.Schema(
    {
        "_id": pl.String(),
        "slot": pl.UInt32(),
        "text": pl.String(),
        "kind": pl.String(),
        "phrase": pl.String(),
    }
)


def _outdated_option(frame: pl.DataFrame, taken: pl.DataFrame) -> pl.DataFrame:
    """``_id``, ``outdated_option`` and its ``outdated_phrase``: the first outdated label that
    reads differently from every latest text (and is not empty once normalised)."""
    labels = frame.select(
        "_id",
        pl.col("outdated_labels").alias("text"),
        pl.col("outdated_label_forms").alias("form"),
        pl.col("outdated_label_phrases").alias("phrase"),
    ).explode(["text", "form", "phrase"])
    labels = labels.filter(pl.col("form").is_not_null() & (pl.col("form") != ""))
    labels = labels.join(taken, on=["_id", "form"], how="anti", maintain_order="left")
    return labels.group_by("_id", maintain_order=True).agg(
        pl.col("text").first().alias("outdated_option"),
        pl.col("phrase").first().alias("outdated_phrase"),
    )


def _with_noise(
    frame: pl.DataFrame, tiers: NoiseTiers, wanted: int, year: str | None = None
) -> pl.DataFrame:
    """``frame`` with its ``outdated_option`` and ``noise`` (the distractors it needs), none
    of them a person not alive in the column ``year`` (when given)."""
    unknown = normalised(UNKNOWN_OPTION)
    if year is not None:
        frame = living_outdated(frame, year, tiers.lifespans)
    taken = frame.select(
        "_id",
        pl.concat_list("answer_forms", pl.col("correct_form"), pl.lit(unknown)).alias("form"),
    ).explode("form")
    outdated = _outdated_option(frame, taken)
    frame = frame.join(outdated, on="_id", how="left", maintain_order="left")
    base = pl.col("outdated_option").is_not_null().cast(pl.Int64()) + 1
    requests = frame.select(
        "_id",
        pl.col("noise_digest").alias("digest"),
        "subject",
        "pid",
        pl.col("object_type").alias("kind"),
        "classes",
        pl.concat_list("all_answers", pl.col("subject")).alias("exclude"),
        pl.concat_list("answer_forms", "outdated_forms", pl.col("correct_form"), pl.lit(unknown))
        .alias("taken"),
        pl.max_horizontal(pl.lit(wanted) - base, pl.lit(0)).alias("need"),
        (pl.col(year) if year is not None else pl.lit(None, pl.Int64())).alias("year"),
    )  # fmt: skip
    noise = draw_noise(requests, tiers)
    frame = frame.join(noise, on="_id", how="left", maintain_order="left")
    empty = pl.lit([], pl.List(pl.String()))
    return frame.with_columns(pl.col("noise", "noise_phrases").fill_null(empty))


def _slots(frame: pl.DataFrame, wanted: int) -> pl.DataFrame:
    """Every option of every record as (``_id``, ``slot``, ``text``, ``kind``, ``phrase``):
    the correct one, then at most ``wanted`` others in the order the rules prefer them, each
    in the slot of its kind (:data:`~kgdiff.export.records.option_order.KIND_SLOTS`)."""
    noise = (
        frame.select("_id", pl.col("noise").alias("text"), pl.col("noise_phrases").alias("phrase"))
        .explode(["text", "phrase"])
        .drop_nulls("text")
    )
    first_noise = pl.int_range(pl.len()).over("_id") + FIRST_NOISE_SLOT
    noise = noise.with_columns(first_noise.alias("slot"))
    slot = {kind: pl.lit(number).alias("slot") for kind, number in KIND_SLOTS.items()}
    slots = pl.concat(
        [
            frame.select("_id", slot["correct"], pl.col("correct").alias("text"),
                         pl.lit("correct").alias("kind"), pl.col("correct_phrase").alias("phrase")),
            frame.drop_nulls("outdated_option").select(
                "_id", slot["outdated"], pl.col("outdated_option").alias("text"),
                pl.lit("outdated").alias("kind"), pl.col("outdated_phrase").alias("phrase")),
            frame.select("_id", slot["unknown"], pl.lit(UNKNOWN_OPTION).alias("text"),
                         pl.lit("unknown").alias("kind"), pl.lit(UNKNOWN_OPTION).alias("phrase")),
            noise.select("_id", "slot", "text", pl.lit("noise").alias("kind"), "phrase"),
        ],
        how="vertical_relaxed",
    ).cast(_SLOTS)  # fmt: skip
    slots = slots.sort("_id", "slot")
    return slots.filter(pl.int_range(pl.len()).over("_id") <= wanted)


def _ordered(slots: pl.DataFrame, digests: pl.DataFrame) -> pl.DataFrame:
    """Per record: ``options``, ``choice_types``, the ``gold`` letter, the lettered lines and
    the ``wrong`` text a false statement names (the outdated option, else the first
    distractor shown) with ``wrong_phrase``, how it reads in a sentence: the options in the
    order shown (:func:`~kgdiff.export.records.option_order.shown_order`)."""
    slots = shown_order(slots, digests)
    return slots.group_by("_id", maintain_order=True).agg(
        pl.col("text").alias("options"),
        pl.col("kind").alias("choice_types"),
        pl.col("_letter").filter(pl.col("kind") == "correct").first().alias("gold"),
        pl.concat_str(pl.col("_letter"), pl.lit(". "), pl.col("text"))
        .str.join("\n")
        .alias("_lines"),
        pl.coalesce(
            pl.col("text").filter(pl.col("kind") == kind).first() for kind in ("outdated", "noise")
        ).alias("wrong"),
        pl.coalesce(
            pl.col("phrase").filter(pl.col("kind") == kind).first()
            for kind in ("outdated", "noise")
        ).alias("wrong_phrase"),
    )


def choice_columns(
    frame: pl.DataFrame, tiers: NoiseTiers, size: int, year: str | None = None
) -> tuple[pl.DataFrame, int]:
    """The records of ``frame`` that can have ``size`` options (2 to 26), with ``options``,
    ``choice_types``, ``gold``, ``wrong``, ``wrong_phrase`` and ``truth`` (whether the
    true/false item states the correct option), and how many cannot (too few distinct
    options, or a correct text that is empty once normalised).

    ``frame``: ``_id``, ``subject``, ``pid``, ``object_type``, ``classes``, ``all_answers``,
    ``noise_digest``, ``options_digest`` and the columns of
    :data:`kgdiff.export.records.answer_frames.ANSWER_COLUMNS`; ``year``, the column of the year
    each record asks about, if any.
    """
    if not 2 <= size <= 26:
        raise ValueError(f"a multiple-choice item takes 2 to 26 options, not {size}")
    wanted = size - 1
    usable = frame.filter(pl.col("correct_form").is_not_null() & (pl.col("correct_form") != ""))
    slots = _slots(_with_noise(usable, tiers, wanted, year), wanted)
    full = slots.group_by("_id").agg(pl.len().alias("_n")).filter(pl.col("_n") == size)
    slots = slots.join(full, on="_id", how="semi")
    ordered = _ordered(slots, usable.select("_id", "options_digest"))
    built = usable.join(ordered, on="_id", how="inner", maintain_order="left")
    truth_bits = mixed(built.get_column("options_digest"), _TRUTH_SALT)
    built = built.with_columns(
        (pl.col("wrong").is_null() | (truth_bits < (1 << 63))).alias("truth")
    )
    return built, frame.height - built.height


def mc_question(question: pl.Expr) -> pl.Expr:
    """The question with its lettered options (column ``_lines``) and the instruction."""
    return pl.concat_str(question, pl.lit("\n"), pl.col("_lines"), pl.lit("\n" + MC_INSTRUCTION))
