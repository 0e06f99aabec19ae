"""Questions that give their answer away (docs/benchmark-export.md#what-is-left-out): "Which
country is Brazil in?" → Brazil, "Malta is in Malta.". A record is a tautology when a gold
answer is its subject, when a gold text (a label or an alias of a gold object, or the words of a
gold value) appears as whole words in what the record names (its subject's label; for a
``temporal`` date, also the object's), or when a gold's label appears in its question, cloze or
statement. An alias that only the template's own words spell out (Lisbon's "Capital of
Portugal" in "Which city is the capital of Portugal?") restates the question: the record is
kept and the alias is no accepted answer (echoing the question is no answer).

Whole words, in two ways:

- a text with a lower-case letter ("Brazil", "the Netherlands", "1 October 1949") is compared
  as scoring compares answers (:func:`~kgdiff.export.scoring.text_match.normalise`: case, accents,
  punctuation and articles aside), as a run of whole words: "Chile" is in "University of
  Chile" but not in "Chilean Navy";
- a code (a text without a lower-case letter, "US", "NL", "III", "1949"), or a text of at most
  two letters once normalised, is compared in its own case, its letters and digits only:
  India's alias "IN" is not the "in" of "Which country is Rome in?", nor Italy's "IT" an "it".

:func:`judge` decides for one record; :func:`judge_frame` for a frame of records at once, by
the same rule (tested against each other).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import polars as pl

from kgdiff.export.scoring.text_match import normalise
from kgdiff.export.words.word_frames import normalised_texts

TAUTOLOGY = "tautology"
"""The reason a record that gives its answer away is left out."""
SHORT = 2
"""A gold text of at most this many letters and digits (normalised) is compared as a code."""
_NOT_WORD = re.compile(r"[\W_]+")
_ASCII_NOT_WORD = r"[^A-Za-z0-9]+"
_BREAK = "\x00"
"""Between the texts of a record: no whole word runs across two of them."""


def code_form(text: str) -> str:
    """``text``'s letters and digits, in their own case (NFKC), one space between runs."""
    return " ".join(_NOT_WORD.split(unicodedata.normalize("NFKC", text))).strip()


def is_code(text: str) -> bool:
    """Whether a gold text is compared in its own case: it has no lower-case letter, or at
    most :data:`SHORT` letters and digits once normalised."""
    return text == text.upper() or len(normalise(text).replace(" ", "")) <= SHORT


def _runs(form: str) -> list[str]:
    return form.split()


def _within(needle: list[str], haystack: list[str]) -> bool:
    size = len(needle)
    if not size:
        return False
    starts = range(len(haystack) - size + 1)
    return any(haystack[start : start + size] == needle for start in starts)


@dataclass(frozen=True)
class Asked:
    """The text columns of a record that must not give its answer away: ``slots``, what it
    names (its subject's label), and ``texts`` (its question, cloze, statement)."""

    slots: tuple[str, ...]
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Verdict:
    """Whether a record gives its answer away, and the aliases that restate its question."""

    tautology: bool
    restating: tuple[str, ...] = ()


def _named_in(gold: str, haystacks: tuple[list[list[str]], list[list[str]]]) -> bool:
    words, codes = haystacks
    if is_code(gold):
        needle, found = _runs(code_form(gold)), codes
    else:
        needle, found = _runs(normalise(gold)), words
    return any(_within(needle, haystack) for haystack in found)


def _haystacks_of(texts: Sequence[str]) -> tuple[list[list[str]], list[list[str]]]:
    return [_runs(normalise(t)) for t in texts], [_runs(code_form(t)) for t in texts]


def judge(
    golds: Sequence[str],
    labels: Collection[str],
    slots: Sequence[str],
    texts: Sequence[str],
    subject: str = "",
    gold_values: Collection[str] = (),
) -> Verdict:
    """Whether a record gives its answer away: ``subject`` is one of its ``gold_values``, a
    gold text appears as whole words in one of ``slots`` (what the record names: its
    subject's label), or one of its gold ``labels`` in one of ``texts`` (its question,
    cloze, statement); and the other golds (aliases) that ``texts`` spell out."""
    if subject and subject in gold_values:
        return Verdict(True)
    named, asked = _haystacks_of(slots), _haystacks_of(texts)
    restating = []
    for gold in golds:
        if _named_in(gold, named):
            return Verdict(True)
        if _named_in(gold, asked):
            if gold in labels:
                return Verdict(True)
            restating.append(gold)
    return Verdict(False, tuple(restating))


def code_texts(texts: pl.Series) -> pl.Series:
    """:func:`code_form` of each text: ASCII texts column-wise, the others one by one."""
    frame = pl.DataFrame({"text": texts}).with_row_index("_row")
    ascii_only = pl.col("text").str.contains(r"^[\x00-\x7f]*$")
    plain = frame.filter(ascii_only).select(
        "_row",
        pl.col("text").str.replace_all(_ASCII_NOT_WORD, " ").str.strip_chars(" ").alias("form"),
    )
    other = frame.filter(~ascii_only & pl.col("text").is_not_null())
    forms = [code_form(text) for text in other.get_column("text")]
    other = other.select("_row", pl.Series("form", forms, dtype=pl.String()))
    found = frame.select("_row").join(pl.concat([plain, other]), on="_row", how="left")
    return found.sort("_row").get_column("form").alias(texts.name)


def _haystacks(records: pl.DataFrame, texts: Sequence[str]) -> pl.DataFrame:
    """``_id`` with ``_words`` and ``_codes``: each of the record's ``texts`` normalised (and
    as a code), between spaces, joined by :data:`_BREAK`."""
    words, codes = [], []
    for name in texts:
        column = records.get_column(name).fill_null("")
        words.append(pl.concat_str(pl.lit(" "), pl.lit(normalised_texts(column)), pl.lit(" ")))
        codes.append(pl.concat_str(pl.lit(" "), pl.lit(code_texts(column)), pl.lit(" ")))
    return records.select(
        "_id",
        pl.concat_str(words, separator=_BREAK).alias("_words"),
        pl.concat_str(codes, separator=_BREAK).alias("_codes"),
    )


def _gold_rows(records: pl.DataFrame, golds: str, labels: str) -> pl.DataFrame:
    """Each (``_id``, ``gold``) of the records' lists ``golds``, with ``_label`` (whether it
    is in the list ``labels``) and the ``_needle`` it is looked for as (``_coded``: in its
    own case)."""
    exploded = records.select("_id", pl.col(golds).alias("gold"), pl.col(labels).alias("_labels"))
    exploded = exploded.explode("gold").drop_nulls("gold")
    gold = exploded.get_column("gold")
    words, codes = normalised_texts(gold), code_texts(gold)
    short = words.str.replace_all(" ", "").str.len_chars() <= SHORT
    coded = (gold == gold.str.to_uppercase()) | short
    return exploded.select(
        "_id",
        "gold",
        pl.col("_labels").list.contains(pl.col("gold")).alias("_label"),
        pl.when(coded).then(codes).otherwise(words).alias("_needle"),
        coded.alias("_coded"),
    ).filter(pl.col("_needle").is_not_null() & (pl.col("_needle") != ""))


def _found(rows: pl.DataFrame, haystacks: pl.DataFrame) -> pl.Series:
    """Whether each gold row is named in its record's ``haystacks``."""
    found = rows.select("_id", "_needle", "_coded").join(
        haystacks, on="_id", how="left", maintain_order="left"
    )
    spaced = pl.concat_str(pl.lit(" "), pl.col("_needle"), pl.lit(" "))
    hay = pl.when(pl.col("_coded")).then(pl.col("_codes")).otherwise(pl.col("_words"))
    return found.select(hay.str.contains(spaced, literal=True).fill_null(False)).to_series()


def judge_frame(
    records: pl.DataFrame,
    golds: str,
    labels: str,
    slots: Sequence[str],
    texts: Sequence[str],
    values: str | None = None,
) -> tuple[pl.Series, pl.DataFrame]:
    """:func:`judge` of every record of ``records`` (``_id``, ``subject``, the lists
    ``golds``, ``labels`` and ``values``, the text columns ``slots`` and ``texts``): the
    ``_id`` of each tautology, and (``_id``, ``gold``) of each alias that restates the
    question of a record that is not one."""
    own = pl.Series("_id", [], dtype=pl.String())
    if values is not None:
        own = records.filter(pl.col(values).list.contains(pl.col("subject"))).get_column("_id")
    rows = _gold_rows(records, golds, labels)
    if not rows.height:
        return own, rows.select("_id", "gold")
    named = _found(rows, _haystacks(records, slots))
    asked = _found(rows, _haystacks(records, texts))
    rows = rows.with_columns(_named=named, _asked=asked)
    given = rows.filter(pl.col("_named") | (pl.col("_asked") & pl.col("_label")))
    tautologies = pl.concat([own, given.get_column("_id")]).unique(maintain_order=True)
    restating = rows.filter(pl.col("_asked") & ~pl.col("_named") & ~pl.col("_label"))
    restating = restating.filter(~pl.col("_id").is_in(tautologies.implode()))
    return tautologies, restating.select("_id", "gold")


def without_restating(
    records: pl.DataFrame, restating: pl.DataFrame, aligned: Sequence[str]
) -> pl.DataFrame:
    """``records`` without the ``restating`` (``_id``, ``gold``) texts in the first of the
    ``aligned`` list columns (and the same places of the others: a text's normalised form)."""
    if not restating.height:
        return records
    first = aligned[0]
    touched = records.join(restating.select("_id").unique(), on="_id", how="semi")
    pairs = touched.select("_id", *aligned).explode(list(aligned))
    pairs = pairs.join(
        restating.rename({"gold": first}), on=["_id", first], how="anti", maintain_order="left"
    )
    fixed = pairs.group_by("_id", maintain_order=True).agg(*aligned)
    kept = records.join(fixed, on="_id", how="left", maintain_order="left", suffix="_kept")
    return kept.with_columns(
        pl.coalesce(f"{name}_kept", name).alias(name) for name in aligned
    ).drop(f"{name}_kept" for name in aligned)
