"""Distractors of the gold's kind: each wrong option is read as a value and compared with the
gold's kind (docs/benchmark-export.md#the-quality-audit).

- a date: a date in words at the gold's precision (a year among years, a day among days);
- a number: a number with the gold's unit (the words after the gold's number);
- a duration (``temporal`` ``interval``): a count in the gold's unit;
- a coordinate, a URL: the same; a monolingual text: words; another string (an external id):
  the same shape (``tt0111161`` and ``tt0068646``);
- an item: an item of the store sharing a class (P31 or P279) with a gold item, or, when no
  gold item has a class in the store, an object of the same property somewhere in the store
  (:mod:`kgdiff.export.audit.item_kinds`). Without the store, an item's distractors are judged
  only when the gold's words are a number or a date (an ordinal's distractors must be numbers);
  the others are counted as not checked.

The reference of an abstention item (``temporal`` ``unanswerable``) is the group's outdated
objects, which its distractors stand beside.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from kgdiff.export.audit.choices import DISTRACTOR_TYPES, exploded_options, gold_text, has_options
from kgdiff.export.audit.findings import Finding, finding, quoted
from kgdiff.export.audit.value_kinds import (
    COORDINATE_TEXT,
    URL,
    date_class,
    duration_unit,
    is_number,
    key_detail,
    key_kind,
    shape,
    unit_words,
)

KEY_COLUMNS = ("latest", "objects")


def _reference_keys(frame: pl.DataFrame) -> pl.Expr:
    """The value keys the gold stands for: the latest objects or the year's objects, and for
    an abstention item the group's outdated objects."""
    column = next((name for name in KEY_COLUMNS if name in frame.columns), None)
    keys = pl.col(column) if column else pl.lit([], dtype=pl.List(pl.String))
    if "kind" in frame.columns and "outdated" in frame.columns:
        return pl.when(pl.col("kind") == "unanswerable").then(pl.col("outdated")).otherwise(keys)
    return keys


def _reference_text(frame: pl.DataFrame) -> pl.Expr:
    """The words the distractors are compared with: the gold option, or for an abstention
    item its outdated option (null without one)."""
    outdated = pl.col("options").list.get(
        pl.col("choice_types").list.eval(pl.element() == "outdated").list.arg_max(),
        null_on_oob=True,
    )
    has_outdated = pl.col("choice_types").list.contains("outdated")
    abstaining = pl.col("kind") == "unanswerable" if "kind" in frame.columns else pl.lit(False)
    return (
        pl.when(abstaining).then(pl.when(has_outdated).then(outdated)).otherwise(gold_text(frame))
    )


def _reference(frame: pl.DataFrame) -> pl.DataFrame:
    """Per record: ``pid``, ``subject``, ``ref_kind``, ``ref_detail``, ``ref_text`` and
    ``gold_items``."""
    keys = _reference_keys(frame)
    first = keys.list.first()
    kind, detail = key_kind(first), key_detail(first)
    if "kind" in frame.columns:
        dated = pl.col("kind") == "timestamp"
        timed = pl.col("kind") == "interval"
        precision = pl.col("date_precision") if "date_precision" in frame.columns else pl.lit(None)
        unit = (
            pl.col("duration_unit").str.strip_suffix("s")
            if "duration_unit" in frame.columns
            else pl.lit(None)
        )
        kind = (
            pl.when(dated).then(pl.lit("date")).when(timed).then(pl.lit("duration")).otherwise(kind)
        )
        detail = pl.when(dated).then(precision).when(timed).then(unit).otherwise(detail)
    items = keys.list.eval(pl.element().filter(key_kind(pl.element()) == "item"))
    pid = pl.col("pid") if "pid" in frame.columns else pl.lit(None, dtype=pl.String)
    subject = pl.col("subject") if "subject" in frame.columns else pl.lit(None, dtype=pl.String)
    return frame.with_row_index("row").select(
        "row",
        "id",
        pid.alias("pid"),
        subject.alias("subject"),
        kind.alias("ref_kind"),
        detail.alias("ref_detail"),
        _reference_text(frame).alias("ref_text"),
        items.alias("gold_items"),
    )


def distractor_rows(frame: pl.DataFrame) -> pl.DataFrame | None:
    """One row per distractor (an option of type noise or outdated) of a split's records, with
    its record's reference; None when the records have no options."""
    if not has_options(frame) or "id" not in frame.columns:
        return None
    options = exploded_options(frame).filter(pl.col("choice_type").is_in(DISTRACTOR_TYPES))
    rows = options.join(_reference(frame), on="row").sort("row", "slot")
    # judged once per distinct (distractor, reference): records repeat them by the thousand
    pairs = ["option", "ref_text", "ref_kind", "ref_detail"]
    judged = rows.select(pairs).unique().with_columns(text_agreement().alias("agree"))
    return rows.join(judged, on=pairs, how="left", nulls_equal=True, maintain_order="left")


def text_agreement() -> pl.Expr:
    """Whether a distractor's words are of its reference's kind; null when words cannot
    tell (an item's distractor, judged with the store, or ``none``)."""
    option, reference = pl.col("option"), pl.col("ref_text")
    kind, detail = pl.col("ref_kind"), pl.col("ref_detail")
    item_text = (
        pl.when(is_number(reference))
        .then(is_number(option))
        .when(date_class(reference).is_not_null())
        .then(date_class(option) == date_class(reference))
    )
    same_unit = unit_words(option) == unit_words(reference)
    return (
        pl.when(kind == "date")
        .then(date_class(option).fill_null("") == detail)
        .when(kind == "quantity")
        .then(same_unit.fill_null(False) & (reference.is_not_null()))
        .when(kind == "duration")
        .then(duration_unit(option).fill_null("") == detail)
        .when(kind == "coordinate")
        .then(option.str.contains(COORDINATE_TEXT))
        .when(kind == "url")
        .then(option.str.contains(URL))
        .when(kind == "text")
        .then(option.str.contains(r"\p{L}"))
        .when(kind == "string")
        .then(shape(option) == shape(reference))
        .when(kind == "item")
        .then(item_text)
    )


KEPT = (
    "row", "slot", "id", "option", "choice_type", "ref_text", "ref_kind", "gold_items", "pid",
    "subject", "agree",
)  # fmt: skip
"""What is kept of the distractors not yet judged of the gold's kind: enough to judge items
with the store and to quote those that are not."""


@dataclass
class Distractors:
    """A split's distractors, held small: those of the gold's kind only counted, the others
    (not of its kind, or not judged yet) kept."""

    agreeing: int
    rows: pl.DataFrame


def tally(rows: pl.DataFrame | None) -> Distractors | None:
    """The distractors of :func:`distractor_rows`, those of the gold's kind counted."""
    if rows is None:
        return None
    agreeing = rows.filter(pl.col("agree").fill_null(False)).height
    return Distractors(agreeing, rows.filter(~pl.col("agree").fill_null(False)).select(KEPT))


def option_kind_finding(distractors: Distractors | None) -> Finding | None:
    """The agreement of a split's distractors: ``count`` of the ``checked`` distractors are
    of the gold's kind; the examples are those that are not."""
    if distractors is None:
        return None
    rows = distractors.rows.sort("row", "slot")
    wrong = rows.filter(~pl.col("agree").fill_null(True))
    example = pl.concat_str(
        [
            pl.col("id"),
            pl.lit(": gold "),
            quoted(
                pl.coalesce("ref_text", pl.col("gold_items").list.first(), pl.lit("(none)")), 40
            ),
            pl.lit(" ("),
            pl.col("ref_kind"),
            pl.lit("), distractor "),
            quoted(pl.col("option"), 40),
        ]
    ).alias("example")
    checked = distractors.agreeing + wrong.height
    unchecked = rows.height - wrong.height
    return Finding(
        distractors.agreeing, checked, finding(wrong.select(example), 0).examples, unchecked
    )
