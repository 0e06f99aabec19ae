"""The multiple-choice fields as the audit reads them: which option is the gold, and the
options exploded one row each."""

from __future__ import annotations

import string

import polars as pl

LETTERS = {letter: index for index, letter in enumerate(string.ascii_uppercase)}
DISTRACTOR_TYPES = ("noise", "outdated")
"""The ``choice_types`` of the options that are meant to be wrong (``unknown``, "I don't
know", is the abstention, not a distractor)."""


def has_options(frame: pl.DataFrame) -> bool:
    """Whether the split's records are multiple-choice items."""
    return {"options", "choice_types", "gold"} <= set(frame.columns)


def gold_index() -> pl.Expr:
    """The gold option's index (``gold`` ``B`` is 1), null without a gold letter."""
    return pl.col("gold").replace_strict(LETTERS, default=None, return_dtype=pl.Int64)


def gold_type(frame: pl.DataFrame) -> pl.Expr:
    """The ``choice_types`` entry of the gold option (``correct``, or ``unknown`` when the
    gold is the abstention); null when the records have no options."""
    if not has_options(frame):
        return pl.lit(None, dtype=pl.String)
    return pl.col("choice_types").list.get(gold_index(), null_on_oob=True)


def gold_text(frame: pl.DataFrame) -> pl.Expr:
    """The gold option's text; null when the records have no options."""
    if not has_options(frame):
        return pl.lit(None, dtype=pl.String)
    return pl.col("options").list.get(gold_index(), null_on_oob=True)


def exploded_options(frame: pl.DataFrame) -> pl.DataFrame:
    """One row per option: ``row`` (the record's position), ``option``, ``choice_type``,
    ``slot`` (its index)."""
    rows = frame.with_row_index("row").select("row", "options", "choice_types")
    rows = rows.with_columns(pl.int_ranges(0, pl.col("options").list.len()).alias("slot"))
    exploded = rows.explode("options", "choice_types", "slot")
    renamed = exploded.rename({"options": "option", "choice_types": "choice_type"})
    return renamed.filter(pl.col("option").is_not_null())
