"""Questions that give their answer away: a gold answer (a label or an alias) in the question,
the cloze or the true/false statement, or the subject itself among the answers ("Which country
is Brazil in?" → Brazil).

Answers are found on word boundaries, whatever the case (``Brazil`` in "Which country is
Brazil in?", not in "Brazilian"); answers of two characters with their case (``US``), of one
not at all. A true/false statement names an option as its object: it gives the answer away
when it holds a gold answer more often than the option it names does ("Malta is in Malta.").
Items whose gold is the abstention ("I don't know") are not looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import polars as pl

from kgdiff.export.audit.choices import exploded_options, gold_index, gold_type, has_options
from kgdiff.export.audit.findings import Finding, finding, quoted
from kgdiff.export.audit.texts import SHORT_NEEDLE, option_form, with_form, word_form

TEXT_COLUMNS = ("question", "cloze", "tf_statement")
KEY_COLUMNS = ("latest", "objects")
"""Where a record keeps the value keys of its gold answers (the first present)."""
CASED = partial(word_form, keep_case=True)


def _needles(rows: pl.DataFrame) -> pl.DataFrame:
    """One row per (record, answer) worth looking for: ``needle`` in word form (with its
    case when ``short``)."""
    answers = rows.select("row", pl.col("answers").alias("answer")).explode("answer")
    answers = answers.with_columns(pl.col("answer").str.strip_chars().alias("bare"))
    answers = answers.filter(pl.col("bare").str.len_chars() >= 2)
    answers = with_form(with_form(answers, "bare", "folded", word_form), "bare", "cased", CASED)
    short = pl.col("bare").str.len_chars() < SHORT_NEEDLE
    needle = pl.when(short).then(pl.col("cased")).otherwise(pl.col("folded"))
    found = answers.select("row", "answer", needle.alias("needle"), short.alias("short"))
    return found.filter(pl.col("needle").str.len_chars() > 2)


def _named_option(frame: pl.DataFrame, form: Callable[[pl.Expr], pl.Expr]) -> pl.DataFrame:
    """Per record, the option its true/false statement names, in ``form``: the gold option
    when the statement is true, else the longest other option it holds."""
    if not has_options(frame) or not {"tf_statement", "tf_label"} <= set(frame.columns):
        return pl.DataFrame(schema={"row": pl.UInt32, "named": pl.String})
    statements = frame.with_row_index("row").select(
        "row", "tf_statement", "tf_label", gold_index().alias("g")
    )
    options = exploded_options(frame).filter(pl.col("choice_type") != "unknown")
    options = options.join(statements, on="row").filter(
        (pl.col("slot") == pl.col("g")) == pl.col("tf_label").fill_null(False)
    )
    options = options.filter(pl.col("tf_statement").str.contains(pl.col("option"), literal=True))
    options = with_form(options, "option", "named", form)
    options = options.sort("row", pl.col("option").str.len_chars(), descending=[False, True])
    return options.group_by("row", maintain_order=True).first().select("row", "named")


def _longest_word(needle: pl.Expr) -> pl.Expr:
    """The longest word of a needle in word form."""
    words = needle.str.strip_chars().str.split(" ")
    return words.list.eval(pl.element().sort_by(pl.element().str.len_chars())).list.last()


def _written(text: pl.Expr, short: bool) -> pl.Expr:
    """A text as written, lower-cased unless ``short``."""
    return text.fill_null("") if short else text.fill_null("").str.to_lowercase()


def _candidates(
    rows: pl.DataFrame, wanted: pl.DataFrame, texts: list[str], named: pl.DataFrame, short: bool
) -> pl.DataFrame:
    """The needles that may be in their record's texts: those whose longest word is in the
    question or the cloze as written (lower-cased unless ``short``), or more often in the
    statement than in the option it names; and all those of records with a character beyond
    ASCII. Word forms (NFKC, a regex) are the audit's dearest step; on ASCII, where NFKC
    changes nothing, a needle in a text's word form has each of its words in the text as
    written, so the others are set aside before it."""
    plain = [~pl.col(name).fill_null("").str.contains(r"[^\x00-\x7f]") for name in texts]
    raw = rows.select(
        "row",
        pl.all_horizontal(plain).alias("ascii"),
        *(_written(pl.col(name), short).alias(f"raw_{name}") for name in texts),
    )
    raw = raw.join(
        named.select("row", _written(pl.col("named"), short).alias("raw_named")),
        on="row",
        how="left",
    )
    joined = with_form(wanted, "needle", "key", _longest_word).join(raw, on="row")
    key = pl.col("key")
    inside = [
        pl.col(f"raw_{name}").str.contains(key, literal=True)
        for name in texts
        if name != "tf_statement"
    ]
    if "tf_statement" in texts:
        stated = pl.col("raw_tf_statement").str.count_matches(key, literal=True)
        inside.append(
            stated > pl.col("raw_named").fill_null("").str.count_matches(key, literal=True)
        )
    return joined.filter(~pl.col("ascii") | pl.any_horizontal(inside)).select(wanted.columns)


def _found(
    frame: pl.DataFrame,
    rows: pl.DataFrame,
    needles: pl.DataFrame,
    named: pl.DataFrame,
    short: bool,
) -> pl.DataFrame:
    """The (row, answer) of ``needles`` (all short, or none) found in their record's texts;
    ``named``, the option each true/false statement names."""
    form = CASED if short else word_form
    texts = [name for name in TEXT_COLUMNS if name in frame.columns]
    wanted = _candidates(rows, needles.filter(pl.col("short") == short), texts, named, short)
    if not wanted.height:
        return wanted.select("row", "answer")
    hay = rows.join(wanted.select("row").unique(), on="row").select(
        "row", *(form(pl.col(name)).fill_null("").alias(name) for name in texts)
    )
    joined = wanted.join(hay, on="row")
    hit = pl.lit(False)
    for name in (name for name in texts if name != "tf_statement"):
        hit = hit | pl.col(name).str.contains(pl.col("needle"), literal=True)
    if "tf_statement" in texts:
        named_form = named.with_columns(form(pl.col("named")).alias("named"))
        joined = joined.join(named_form, on="row", how="left")
        in_named = pl.col("named").fill_null("").str.count_matches(pl.col("needle"), literal=True)
        stated = pl.col("tf_statement").str.count_matches(pl.col("needle"), literal=True)
        hit = hit | (stated > in_named)
    return joined.filter(hit).select("row", "answer")


def _subject_answers(frame: pl.DataFrame, rows: pl.DataFrame) -> pl.DataFrame:
    """Records whose gold answers hold the subject itself (its id, or its label)."""
    keys = next((name for name in KEY_COLUMNS if name in frame.columns), None)
    same = pl.lit(False)
    if keys is not None and "subject" in frame.columns:
        same = same | pl.col(keys).list.contains(pl.col("subject")).fill_null(False)
    found = rows.filter(same).select("row", pl.col("subject").alias("answer"))
    if "subject_label" not in frame.columns:
        return found
    answers = rows.select("row", "subject_label", pl.col("answers").alias("a")).explode("a")
    answers = with_form(
        with_form(answers, "a", "form", option_form), "subject_label", "label", option_form
    )
    labelled = answers.filter(pl.col("form") == pl.col("label"))
    return pl.concat([found, labelled.select("row", pl.col("subject_label").alias("answer"))])


def tautologies(frame: pl.DataFrame) -> Finding | None:
    """The records of a split that give their answer away (None: the split has no answers or
    no question to look in)."""
    texts = [name for name in TEXT_COLUMNS if name in frame.columns]
    if "answers" not in frame.columns or not texts:
        return None
    rows = frame.with_row_index("row")
    if has_options(frame):  # (a literal predicate fails on a frame of several chunks)
        rows = rows.filter(gold_type(frame).fill_null("correct") != "unknown")
    needles = _needles(rows)
    named = _named_option(frame, lambda text: text)
    found = [_found(frame, rows, needles, named, short) for short in (False, True)]
    hits = pl.concat([*found, _subject_answers(frame, rows)]).sort("row")
    hits = hits.unique("row", keep="first", maintain_order=True)
    shown = pl.col("question") if "question" in frame.columns else pl.col(texts[0])
    flagged = hits.join(rows, on="row").sort("row")
    example = [pl.col("id"), pl.lit(": "), quoted(shown), pl.lit(" → "), pl.col("answer")]
    return finding(flagged.select(pl.concat_str(example).alias("example")), rows.height)
