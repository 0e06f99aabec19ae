"""Gold answers that spell their subject's name: "At which address is the official website of
Wikipedia?" → ``https://www.wikipedia.org/``, the one option that says "Wikipedia", is
answered by matching strings, not by knowing anything.

A record is at fault when a gold label (``answer_labels``) holds, case and accents aside, a
word of four letters or digits or more of the subject's label, or the whole label with its
spaces and punctuation removed; inside a longer word too, as web addresses run words together
(``barackobama.com``). The subject is the one the question asks about: the record's, or for a
chain its last hop's. Items whose gold is the abstention are not looked at.
"""

from __future__ import annotations

import polars as pl

from kgdiff.export.audit.choices import gold_type, has_options
from kgdiff.export.audit.findings import Finding, finding
from kgdiff.export.audit.texts import bare_form

SHORTEST = 4
"""A subject's word of fewer letters and digits is not looked for ("of", "USA")."""
HOP_SUBJECTS = "hop_subject_labels"


def _subjects(frame: pl.DataFrame) -> pl.Expr | None:
    """The label of the subject each record asks about (None: the records name none)."""
    if HOP_SUBJECTS in frame.columns:
        return pl.col(HOP_SUBJECTS).list.last()
    return pl.col("subject_label") if "subject_label" in frame.columns else None


def _words(rows: pl.DataFrame) -> pl.DataFrame:
    """``row`` and each ``word`` looked for: the subject's words and its label run together."""
    runs = bare_form(pl.col("label")).str.replace_all(r"[^\p{L}\p{N}]+", " ").str.strip_chars()
    split = rows.select("row", runs.alias("runs")).drop_nulls("runs")
    words = split.select("row", pl.col("runs").str.split(" ").alias("word")).explode("word")
    joined = split.select("row", pl.col("runs").str.replace_all(" ", "").alias("word"))
    found = pl.concat([words, joined]).filter(pl.col("word").str.len_chars() >= SHORTEST)
    return found.unique(maintain_order=True)


def spelled_subjects(frame: pl.DataFrame) -> Finding | None:
    """The records of a split whose gold spells the name of the subject they ask about (None:
    the split has no gold labels or no subject)."""
    subject = _subjects(frame)
    if "answer_labels" not in frame.columns or subject is None:
        return None
    rows = frame.with_row_index("row").with_columns(subject.alias("label"))
    if has_options(frame):
        rows = rows.filter(gold_type(frame).fill_null("correct") != "unknown")
    golds = rows.select("row", pl.col("answer_labels").alias("gold")).explode("gold")
    golds = golds.drop_nulls("gold").with_columns(bare_form(pl.col("gold")).alias("bare"))
    pairs = golds.join(_words(rows), on="row")
    hits = pairs.filter(pl.col("bare").str.contains(pl.col("word"), literal=True))
    hits = hits.unique("row", keep="first").sort("row").join(rows, on="row")
    example = [pl.col("id"), pl.lit(": "), pl.col("label"), pl.lit(" → "), pl.col("gold")]
    return finding(hits.select(pl.concat_str(example).alias("example")), rows.height)
