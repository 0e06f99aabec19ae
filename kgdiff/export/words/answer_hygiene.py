"""Answers a model could say (docs/benchmark-export.md#what-is-left-out): a text made only of
symbols (the flag emoji 🇧🇪 that Wikidata lists as an alias of Belgium, "★") is no answer, and
the placeholders ``<novalue>`` and ``<somevalue>`` are no value to show anywhere: not among a
record's answers, its value keys, nor its options.

A group whose latest objects are only placeholders has nothing to ask: it is left out as
``no_value`` (Wikidata says there is none) or ``unknown_value`` (there is one, unknown), except
where a config asks for an abstention (the ``temporal`` config's unanswerable years).
"""

from __future__ import annotations

import re

import polars as pl

from kgdiff.valuetext import SPECIAL

NO_VALUE = "<novalue>"
UNKNOWN_VALUE = "<somevalue>"
PLACEHOLDERS = sorted(SPECIAL)
"""The value keys that name no value (docs/data-model.md)."""
NO_VALUE_REASON = "no_value"
UNKNOWN_VALUE_REASON = "unknown_value"

_WORD_CHARACTER = re.compile(r"[^\W_]")
"""A letter or a digit of any script (Python's ``\\w`` without the underscore)."""


def has_words(text: str) -> bool:
    """Whether ``text`` holds a letter or a digit: what a model could write. Emoji, flags,
    punctuation and other symbols alone (``🇷🇺``, ``★``, ``†``, ``!!!``) are not an answer."""
    return _WORD_CHARACTER.search(text) is not None


def without_placeholders(values: pl.Expr) -> pl.Expr:
    """A list column of value keys without ``<novalue>`` and ``<somevalue>``."""
    return values.list.eval(pl.element().filter(~pl.element().is_in(PLACEHOLDERS)))


def placeholder_reason(values: pl.Expr) -> pl.Expr:
    """Why a record whose list of objects ``values`` holds only placeholders has nothing to
    ask (``unknown_value`` when they are all ``<somevalue>``, else ``no_value``); null when
    the list is empty or names a value."""
    only = values.list.eval(pl.element().is_in(PLACEHOLDERS)).list.all()
    unknown = values.list.eval(pl.element() == UNKNOWN_VALUE).list.all()
    return (
        pl.when((values.list.len() > 0) & only & unknown)
        .then(pl.lit(UNKNOWN_VALUE_REASON))
        .when((values.list.len() > 0) & only)
        .then(pl.lit(NO_VALUE_REASON))
    )


def placeholder_reason_of(values: list[str]) -> str | None:
    """:func:`placeholder_reason` of one list of value keys."""
    if not values or any(value not in SPECIAL for value in values):
        return None
    return UNKNOWN_VALUE_REASON if all(v == UNKNOWN_VALUE for v in values) else NO_VALUE_REASON
