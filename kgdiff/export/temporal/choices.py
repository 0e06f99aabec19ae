"""The multiple-choice and true/false fields of ``temporal`` records, a whole frame at once.

A frame comes with its options unordered: ``_gold`` (the option that is right: the correct
answer, or "I don't know" for an unanswerable item) and ``_others`` with their
``_other_types``, most wanted first. The seed orders them as every config's
(:mod:`kgdiff.export.records.option_order`, the slots numbered by place: a uniformly random
permutation per record, so the gold's place is uniform) and picks which truth the true/false
statement states; which options a record gets never depends on it
(docs/benchmark-export.md#the-temporal-config).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from kgdiff.export.core.column_draws import coins, digests, record_digests, slots
from kgdiff.export.records.items import MC_INSTRUCTION
from kgdiff.export.records.option_order import LETTERS, ordered_lists


def ordered_options(frame: pl.DataFrame, seed: int, gold_type: str) -> pl.DataFrame:
    """``options``, ``choice_types`` and ``gold`` of a frame whose rows have their options
    (``_gold``, of ``gold_type``, and ``_others``), in the seed's order
    (:func:`~kgdiff.export.records.option_order.ordered_lists`); ``_draw`` is the record's
    seeded digest (:func:`truth` tosses its coin from it)."""
    draws = record_digests(seed, frame.get_column("_id"), "options").alias("_draw")
    return ordered_lists(frame, draws, gold_type).with_columns(draws)


def mc_question(size: int) -> pl.Expr:
    """The question with its ``size`` options lettered, one a line, and the instruction (as
    :func:`kgdiff.export.records.items.mc_question`)."""
    lines: list[pl.Expr] = [pl.col("question")]
    for index in range(size):
        lines += [pl.lit(f"\n{LETTERS[index]}. "), pl.col("options").list.get(index)]
    return pl.concat_str(*lines, pl.lit(f"\n{MC_INSTRUCTION}"))


def truth(frame: pl.DataFrame) -> pl.DataFrame:
    """``tf_statement`` and ``tf_label`` from ``_true_statement`` and ``_false_statement``
    (null when the record cannot be false): a coin of the record's seeded digest (``_draw``,
    from :func:`ordered_options`) says which one it states,
    and ``_other_statement`` keeps the one it does not (for
    :func:`kgdiff.export.dataset.frame_chunks.balance_truth_frame`)."""
    heads = coins(frame.get_column("_draw").to_numpy())
    said_true = pl.Series("_heads", heads, pl.Boolean) | pl.col("_false_statement").is_null()
    return frame.with_columns(
        tf_statement=pl.when(said_true)
        .then(pl.col("_true_statement"))
        .otherwise(pl.col("_false_statement")),
        tf_label=said_true,
        _other_statement=pl.when(said_true)
        .then(pl.col("_false_statement"))
        .otherwise(pl.col("_true_statement")),
    )


def offsets_order(ids: pl.Series, steps: int) -> np.ndarray:
    """Per record, the offsets ±1 … ±``steps`` in an order fixed by its id (no seed moves
    it): the order its date or duration distractors are tried in."""
    candidates = np.array([sign * step for step in range(1, steps + 1) for sign in (1, -1)])
    keys = slots(digests(ids, "fixed", purpose="noise"), len(candidates))
    return candidates[np.argsort(keys, axis=1, kind="stable")]
