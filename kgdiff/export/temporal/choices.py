"""The multiple-choice and true/false fields of ``temporal`` records, a whole frame at once.

A frame comes with its options unordered: ``_gold`` (the option that is right: the correct
answer, or "I don't know" for an unanswerable item) and ``_others`` with their
``_other_types``, most wanted first. The seed orders them (a uniformly random permutation per
record, so the gold's place is uniform) and picks which truth the true/false statement
states; which options a record gets never depends on it
(docs/benchmark-export.md#the-temporal-config).
"""

from __future__ import annotations

import string

import numpy as np
import polars as pl

from kgdiff.export.core.column_draws import coins, digests, orders, slots
from kgdiff.export.records.items import MC_INSTRUCTION

_LETTERS = np.array(list(string.ascii_uppercase))


def ordered_options(frame: pl.DataFrame, seed: int, size: int, gold_type: str) -> pl.DataFrame:
    """``options``, ``choice_types`` and ``gold`` of a frame whose rows have ``size``
    options (``_gold`` and ``size - 1`` ``_others``), in the seed's order; ``_draw`` is the
    record's seeded digest (:func:`truth` tosses its coin from it)."""
    if frame.is_empty():
        return frame.with_columns(
            options=pl.lit([], pl.List(pl.String)),
            choice_types=pl.lit([], pl.List(pl.String)),
            gold=pl.lit(None, pl.String),
            _draw=pl.lit(None, pl.UInt64),
        )
    draws = digests(frame.get_column("_id"), str(seed), purpose="options")
    order = orders(draws, size)
    place = np.argmax(order == 0, axis=1)
    gather = pl.Series("_order", order.astype(np.uint32)).cast(pl.List(pl.UInt32))
    texts = pl.concat_list(pl.col("_gold"), pl.col("_others"))
    types = pl.concat_list(pl.lit(gold_type), pl.col("_other_types"))
    return frame.with_columns(gather, pl.Series("_draw", draws)).with_columns(
        options=texts.list.gather(pl.col("_order")),
        choice_types=types.list.gather(pl.col("_order")),
        gold=pl.Series(_LETTERS[place]),
    )


def mc_question(size: int) -> pl.Expr:
    """The question with its ``size`` options lettered, one a line, and the instruction (as
    :func:`kgdiff.export.records.items.mc_question`)."""
    lines: list[pl.Expr] = [pl.col("question")]
    for index in range(size):
        lines += [pl.lit(f"\n{_LETTERS[index]}. "), pl.col("options").list.get(index)]
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
