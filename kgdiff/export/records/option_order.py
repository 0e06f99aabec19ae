"""The order a record's options are shown in, one rule for every config: each option has a
slot, its key is mixed from the record's seeded digest (``options_digest``, the blake2b of the
seed, the record's id and ``options``: :func:`~kgdiff.export.core.column_draws.record_digests`)
and its slot, and the options are shown by key. Every permutation, and so every place of the
gold letter, is equally likely, and the order does not depend on the order records are built
in; which options a record gets never depends on the seed, only their order.

The configs differ in one thing, how they number the slots, and each keeps its own so that an
export's options stay where they were:

- by kind (:data:`KIND_SLOTS`), the records whose options
  :mod:`~kgdiff.export.records.option_frames` chooses (``qa``, ``updates``, ``pools``, the
  ``temporal`` ``implicit`` items): the correct option 0, the outdated one 1, "I don't know"
  2, the distractors from :data:`FIRST_NOISE_SLOT` on in the order drawn, so that a record
  without an outdated option leaves slot 1 empty;
- by place (:func:`ordered_lists`), the ``temporal`` ``timestamp``, ``interval`` and
  ``unanswerable`` items: the gold 0, then the others from 1 on, most wanted first.
"""

from __future__ import annotations

import polars as pl

from kgdiff.export.core.column_draws import mixed

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
KIND_SLOTS = {"correct": 0, "outdated": 1, "unknown": 2}
"""The slot of each kind of option but the distractors, numbered by kind."""
FIRST_NOISE_SLOT = 3
"""The slot of a record's first distractor, numbered by kind (the next ones follow)."""


def shown_order(options: pl.DataFrame, digests: pl.DataFrame) -> pl.DataFrame:
    """``options`` (a row per option: ``_id``, its ``slot`` and any other columns) with their
    record's ``options_digest`` (from ``digests``: ``_id``, ``options_digest``), sorted by
    record and in the order shown, with ``_pos`` (0 first) and ``_letter``. Keys are 64-bit:
    two options of a record all but never tie, and a tie goes to the lower slot."""
    options = options.join(digests, on="_id")
    keys = mixed(options.get_column("options_digest"), options.get_column("slot"))
    options = options.with_columns(keys.alias("_key")).sort("_id", "_key", "slot")
    options = options.with_columns(pl.int_range(pl.len()).over("_id").alias("_pos"))
    return options.with_columns(pl.lit(LETTERS).str.slice(pl.col("_pos"), 1).alias("_letter"))


def ordered_lists(frame: pl.DataFrame, digests: pl.Series, gold_type: str) -> pl.DataFrame:
    """``frame`` (a row per record: ``_id``, its ``_gold`` option, and ``_others`` with their
    ``_other_types``, most wanted first) with ``options``, ``choice_types`` and the ``gold``
    letter in the order shown, the slots numbered by place; ``digests`` holds each row's
    ``options_digest``, in the frame's order."""
    texts = pl.concat_list(pl.col("_gold"), pl.col("_others")).alias("text")
    kinds = pl.concat_list(pl.lit(gold_type), pl.col("_other_types")).alias("kind")
    options = frame.select("_id", texts, kinds).explode(["text", "kind"])
    options = options.with_columns(pl.int_range(pl.len()).over("_id").alias("slot"))
    keyed = frame.select("_id", digests.alias("options_digest"))
    shown = (
        shown_order(options, keyed)
        .group_by("_id", maintain_order=True)
        .agg(
            pl.col("text").alias("options"),
            pl.col("kind").alias("choice_types"),
            pl.col("_letter").filter(pl.col("slot") == 0).first().alias("gold"),
        )
    )
    return frame.join(shown, on="_id", how="left", maintain_order="left")
