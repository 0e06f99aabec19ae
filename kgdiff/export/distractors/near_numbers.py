"""No number a scorer would take for the gold is its distractor: a quantity offered to a
record within :data:`~kgdiff.portable.number_match.NUMBER_TOLERANCE` of one of the record's
own quantities of the same unit (its gold, its outdated values, what its subject holds) is
left out, as an exact repeat is. Los Angeles's population of 3,857,799 was offered
Singapore's 3,844,800 (0.34 % off): stating either is a right answer (docs/scoring.md#numbers),
and the options no longer tell a model that knows from one that does not."""

from __future__ import annotations

import polars as pl

from kgdiff.portable.number_match import NUMBER_TOLERANCE, QUANTITY_KEY

_QUANTITY = f"^{QUANTITY_KEY.pattern}$"


def _amounts(frame: pl.DataFrame, *keep: str) -> pl.DataFrame:
    """The rows of ``frame`` whose ``value`` is a quantity, with its ``_amount`` and ``_unit``."""
    quantities = frame.filter(pl.col("value").str.contains("|", literal=True))
    parts = quantities.with_columns(
        pl.col("value").str.extract(_QUANTITY, 1).cast(pl.Float64, strict=False).alias("_amount"),
        pl.col("value").str.extract(_QUANTITY, 2).alias("_unit"),
    )
    return parts.drop_nulls(["_amount", "_unit"]).select(*keep, "_amount", "_unit")


def own_quantities(blocked: pl.DataFrame) -> pl.DataFrame:
    """``_id``, ``_amount``, ``_unit``: the quantities among each request's own values
    (``blocked``: ``_id``, ``value``)."""
    return _amounts(blocked, "_id").unique()


def near_own(offered: pl.DataFrame, own: pl.DataFrame) -> pl.DataFrame:
    """``_id``, ``cand``: the offered quantities (``_id``, ``cand``, ``value``) within the
    tolerance of one of their request's ``own`` quantities of the same unit (not themselves:
    exact repeats are left out anyway)."""
    if not own.height:
        return pl.DataFrame(schema={"_id": pl.String(), "cand": pl.UInt32()})
    drawn = _amounts(offered, "_id", "cand")
    paired = drawn.join(own, on=["_id", "_unit"], suffix="_own")
    gap = (pl.col("_amount") - pl.col("_amount_own")).abs()
    near = paired.filter(gap <= NUMBER_TOLERANCE * pl.col("_amount_own").abs())
    return near.select("_id", "cand").unique()
