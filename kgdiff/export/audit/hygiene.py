"""Answer hygiene: answers, outdated answers and options that are no words a model could say
(symbols or emoji only, ``<novalue>``), and options that repeat one another.

Each check is one pass over a split's list columns; a record counts once however many of its
texts are at fault, and its example names the first of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from kgdiff.export.audit.findings import Finding, finding
from kgdiff.export.audit.texts import PLACEHOLDER_KEYS, is_unsayable, option_form

ANSWER_TEXTS = ("answers", "answer_labels")
ANSWER_KEYS = ("latest", "objects")
OUTDATED_TEXTS = ("outdated_answers",)
OUTDATED_KEYS = ("outdated", "earlier_objects", "later_objects")


def _first_bad(column: str, is_bad: pl.Expr) -> pl.Expr:
    """The first element of a list column for which ``is_bad`` (over ``pl.element()``) holds."""
    return pl.col(column).list.eval(pl.element().filter(is_bad)).list.first()


def _unsayable(frame: pl.DataFrame, texts: Sequence[str], keys: Sequence[str]) -> Finding | None:
    """Records with an unsayable text in ``texts`` or a placeholder value key in ``keys``."""
    texts = [name for name in texts if name in frame.columns]
    keys = [name for name in keys if name in frame.columns]
    if not texts and not keys:
        return None
    culprits = [_first_bad(name, is_unsayable(pl.element())) for name in texts]
    culprits += [_first_bad(name, pl.element().is_in(PLACEHOLDER_KEYS)) for name in keys]
    bad = frame.select("id", pl.coalesce(culprits).alias("culprit"))
    flagged = bad.filter(pl.col("culprit").is_not_null())
    example = pl.concat_str([pl.col("id"), pl.lit(": "), pl.col("culprit")]).alias("example")
    return finding(flagged.select(example), frame.height)


def unsayable_answers(frame: pl.DataFrame) -> Finding | None:
    """Records with a gold answer that is symbols only or a placeholder."""
    return _unsayable(frame, ANSWER_TEXTS, ANSWER_KEYS)


def unsayable_outdated(frame: pl.DataFrame) -> Finding | None:
    """Records with an outdated answer that is symbols only, or a placeholder among the
    outdated value keys (``<novalue>`` offered as what no longer holds)."""
    return _unsayable(frame, OUTDATED_TEXTS, OUTDATED_KEYS)


def unsayable_options(frame: pl.DataFrame) -> Finding | None:
    """Multiple-choice records with an option that is symbols only or a placeholder."""
    if "options" not in frame.columns:
        return None
    return _unsayable(frame, ("options",), ())


def duplicate_options(frame: pl.DataFrame) -> Finding | None:
    """Multiple-choice records with two options of the same text once case and white space
    are set aside (``Paris`` and ``paris ``)."""
    if "options" not in frame.columns:
        return None
    texts = frame.select(pl.col("options").explode().unique().drop_nulls().alias("text"))
    forms = texts.with_columns(option_form(pl.col("text")).alias("form"))
    mapped = pl.col("options").list.eval(
        pl.element().replace_strict(forms["text"], forms["form"], default=pl.element())
    )
    repeated = mapped.list.eval(pl.element().filter(pl.element().is_duplicated())).list.first()
    bad = frame.select("id", repeated.alias("culprit")).filter(pl.col("culprit").is_not_null())
    example = pl.concat_str([pl.col("id"), pl.lit(": "), pl.col("culprit"), pl.lit(" twice")])
    return finding(bad.select(example.alias("example")), frame.height)
