"""How the audit reads texts: its own normal forms and its tests for words a model could say.

Every function takes and returns a polars expression, so a check runs over a whole column at
once. The forms are the audit's own (the export's answer matching is not reused: an audit that
shared the generators' normalisation would share their blind spots).
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

WORD_CHARACTER = r"[\p{L}\p{N}]"
"""A letter or a digit, in any script: a text without one is only symbols (🇧🇪, ``…``, ``—``)."""
PLACEHOLDER = r"^\s*<[^<>]*>\s*$"
"""A token in angle brackets standing for no words: ``<novalue>``, ``<somevalue>``."""
PLACEHOLDER_KEYS = ("<novalue>", "<somevalue>")
"""The value keys of Wikidata's "no value" and "unknown value"."""
BARE_ID = r"^[QPL][1-9][0-9]*$"
"""An entity id standing where a label should be."""
SHORT_NEEDLE = 3
"""Answers shorter than this many characters are looked for with their case (``US`` is not
``us``); shorter than 2, not at all (a lone digit or letter is found everywhere)."""


def option_form(text: pl.Expr) -> pl.Expr:
    """A text compared as options are: compatibility-normalised (NFKC), lower case, every run
    of white space one space, trimmed. Two options of the same form are duplicates."""
    folded = text.str.normalize("NFKC").str.to_lowercase()
    return folded.str.replace_all(r"\s+", " ").str.strip_chars()


def word_form(text: pl.Expr, keep_case: bool = False) -> pl.Expr:
    """A text as a run of words, for finding one text inside another on word boundaries:
    NFKC, lower case (unless ``keep_case``), every run of characters that are neither letters
    (with their combining marks) nor digits one space, with one space before and after (so
    ``" brazil "`` is found in ``" which country is brazil in "``, not in ``" brazilian "``)."""
    normal = text.str.normalize("NFKC")
    if not keep_case:
        normal = normal.str.to_lowercase()
    spaced = normal.str.replace_all(r"[^\p{L}\p{M}\p{N}]+", " ").str.strip_chars()
    return pl.concat_str([pl.lit(" "), spaced, pl.lit(" ")])


def bare_form(text: pl.Expr) -> pl.Expr:
    """A text without case or accents: compatibility-decomposed (NFKD), its combining marks
    dropped, lower case (``Zürich`` → ``zurich``, ``Poznań`` → ``poznan``)."""
    return text.str.normalize("NFKD").str.replace_all(r"\p{M}", "").str.to_lowercase()


def is_symbol_only(text: pl.Expr) -> pl.Expr:
    """Whether a text has no letter and no digit (emoji, flags, punctuation, an empty text)."""
    return ~text.str.contains(WORD_CHARACTER)


def is_placeholder(text: pl.Expr) -> pl.Expr:
    """Whether a text is a placeholder token such as ``<novalue>``."""
    return text.str.contains(PLACEHOLDER)


def is_unsayable(text: pl.Expr) -> pl.Expr:
    """Whether a text is no words a model could say: symbols only, or a placeholder."""
    return is_symbol_only(text) | is_placeholder(text)


def is_bare_id(text: pl.Expr) -> pl.Expr:
    """Whether a text is an entity id instead of a label (``Q183``)."""
    return text.str.strip_chars().str.contains(BARE_ID)


def with_form(
    frame: pl.DataFrame, column: str, alias: str, form: Callable[[pl.Expr], pl.Expr]
) -> pl.DataFrame:
    """``frame`` with ``alias``, the ``form`` of its text ``column``, worked out once per
    distinct text (answers and options repeat across records: a real export's hundreds of
    thousands of them are a few thousand texts)."""
    distinct = frame.select(pl.col(column).unique().drop_nulls())
    forms = distinct.with_columns(form(pl.col(column)).alias(alias))
    return frame.join(forms, on=column, how="left", maintain_order="left")
