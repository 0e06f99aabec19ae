"""Shares of records that have what the benchmark advertises: labels instead of bare ids, a
Wikipedia context, and groups that Wikipedia ``supported``. Each finding counts the records
that have it; its examples are records that do not."""

from __future__ import annotations

import polars as pl

from kgdiff.export.audit.findings import Finding, finding
from kgdiff.export.audit.texts import is_bare_id

LABEL_TEXTS = ("subject_label",)
LABEL_LISTS = ("answer_labels", "hop_subject_labels", "hop_object_labels", "object_labels")


def _bare_id_in(column: str) -> pl.Expr:
    return pl.col(column).list.eval(is_bare_id(pl.element())).list.any().fill_null(False)


def labelled(frame: pl.DataFrame) -> Finding | None:
    """Records whose subject and answers are named by labels: no empty subject label, no
    bare id (``Q183``) where a label belongs, and answers that have words."""
    texts = [name for name in LABEL_TEXTS if name in frame.columns]
    lists = [name for name in LABEL_LISTS if name in frame.columns]
    if not texts and not lists:
        return None
    missing = pl.lit(False)
    for name in texts:
        missing = missing | pl.col(name).is_null() | is_bare_id(pl.col(name)).fill_null(False)
        missing = missing | (pl.col(name).str.strip_chars() == "").fill_null(False)
    for name in lists:
        missing = missing | _bare_id_in(name)
    if "answers" in frame.columns:
        missing = missing | (pl.col("answers").list.len().fill_null(0) == 0)
    bad = frame.filter(missing).select(_example(frame))
    return Finding(frame.height - bad.height, frame.height, finding(bad, 0).examples)


def _example(frame: pl.DataFrame) -> pl.Expr:
    label = (
        pl.col("subject_label").fill_null("(no label)")
        if "subject_label" in frame.columns
        else pl.lit("")
    )
    return pl.concat_str([pl.col("id"), pl.lit(": "), label]).alias("example")


def with_context(frame: pl.DataFrame) -> Finding | None:
    """Records with a Wikipedia context (``qa``, ``updates``: ``context``; ``multi_hop``: a
    context for some hop); None for configs without one."""
    if "context" in frame.columns:
        has = pl.col("context").is_not_null() & (pl.col("context").str.strip_chars() != "")
    elif "hop_contexts" in frame.columns:
        has = pl.col("hop_contexts").list.eval(pl.element().is_not_null()).list.any()
    else:
        return None
    count = frame.select(has.fill_null(False).sum()).item()
    return Finding(int(count), frame.height)


def supported(frame: pl.DataFrame, groups: pl.DataFrame | None) -> Finding | None:
    """Records whose group Wikipedia ``supported`` (EvoWiki's filter, docs/questions.md): the
    records' own ``supported`` field when they have one, else the classification's
    (``groups``: ``subject``, ``pid``, ``supported``) for ``qa``-like records; None when
    neither is known."""
    if "supported" in frame.columns:
        count = frame.select(pl.col("supported").fill_null(False).sum()).item()
        return Finding(int(count), frame.height)
    if groups is None or not {"subject", "pid"} <= set(frame.columns):
        return None
    joined = frame.select("subject", "pid").join(groups, on=["subject", "pid"], how="left")
    count = joined.select(pl.col("supported").fill_null(False).sum()).item()
    return Finding(int(count), frame.height)
