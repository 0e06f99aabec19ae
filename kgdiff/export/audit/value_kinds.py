"""The kind of a value, read by the audit from a value key (what the gold is) or from an
option's words (what a distractor is): an item, a date at a precision, a number with a unit,
a duration, a coordinate, a URL, a text or another string.

The patterns are the audit's own, written from the documented forms (docs/data-model.md,
docs/benchmark-export.md), not taken from the code that renders values.
"""

from __future__ import annotations

import polars as pl

MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_ERA = r"(?: B?CE)?(?: \(Julian\))?"
DATE_TEXTS = {
    "day": rf"^(?:\d{{1,2}} (?:{MONTHS}) \d+{_ERA}|-?\d{{4,}}-\d\d-\d\d)$",
    "month": rf"^(?:(?:{MONTHS}) \d+{_ERA}|\d{{4,}}-\d\d)$",
    "year": r"^\d+(?: B?CE)?$",
    "decade": r"^\d*0s(?: B?CE)?$",
    "century": r"^\d+(?:st|nd|rd|th) century(?: BCE)?$",
    "millennium": r"^\d+(?:st|nd|rd|th) millennium(?: BCE)?$",
    "deep": r"^(?:[\d.]+ (?:thousand|million|billion) years|\d{1,3}(?:,\d{3})+)(?: BCE)?$",
}
"""A date in words at each precision class (``26 July 1887``, ``July 1887``, ``1887``,
``1880s``, ``19th century``, ``2nd millennium``, ``66 million years BCE``; a year of the
common era below 1000 marked ``CE``), and the ISO forms
of a day and a month."""
NUMBER = r"^[+-]?\d[\d,]*(?:\.\d+)?(?:[eE][+-]?\d+)?"
DURATION = r"^\d+ (?:year|month)s?$"
COORDINATE_TEXT = r"^-?\d+(?:\.\d+)?, -?\d+(?:\.\d+)?$"
URL = r"^[A-Za-z][A-Za-z0-9+.-]*://"

ITEM_KEY = r"^[QPL][1-9]\d*$"
TIME_KEY = r"^[+-]\d+-\d\d-\d\dT[^|]*\|(\d+)\|"
QUANTITY_KEY = r"^[+-]?\d[\d.]*(?:[eE][+-]?\d+)?\|(.+)$"
COORDINATE_KEY = r"^-?[\d.]+(?:e-?\d+)?,-?[\d.]+(?:e-?\d+)?,"
MONOLINGUAL_KEY = r"^[a-z]{2,3}(?:-[a-z0-9]+)*:"


def precision_class(precision: pl.Expr) -> pl.Expr:
    """A Wikidata time precision (11 a day … 9 a year … 6 a millennium) as the name of its
    class in :data:`DATE_TEXTS`."""
    return (
        pl.when(precision >= 11)
        .then(pl.lit("day"))
        .when(precision == 10)
        .then(pl.lit("month"))
        .when(precision == 9)
        .then(pl.lit("year"))
        .when(precision == 8)
        .then(pl.lit("decade"))
        .when(precision == 7)
        .then(pl.lit("century"))
        .when(precision == 6)
        .then(pl.lit("millennium"))
        .otherwise(pl.lit("deep"))
    )


def key_kind(key: pl.Expr) -> pl.Expr:
    """The kind of a value key: ``item``, ``date``, ``quantity``, ``coordinate``, ``url``,
    ``text`` (monolingual), ``none`` (``<novalue>``, ``<somevalue>``) or ``string``."""
    return (
        pl.when(key.is_null() | key.str.starts_with("<"))
        .then(pl.lit("none"))
        .when(key.str.contains(ITEM_KEY))
        .then(pl.lit("item"))
        .when(key.str.contains(TIME_KEY))
        .then(pl.lit("date"))
        .when(key.str.contains(QUANTITY_KEY))
        .then(pl.lit("quantity"))
        .when(key.str.contains(COORDINATE_KEY))
        .then(pl.lit("coordinate"))
        .when(key.str.contains(URL))
        .then(pl.lit("url"))
        .when(key.str.contains(MONOLINGUAL_KEY))
        .then(pl.lit("text"))
        .otherwise(pl.lit("string"))
    )


def key_detail(key: pl.Expr) -> pl.Expr:
    """What a value of the kind must share beyond its kind: a date's precision class, a
    quantity's unit (``1`` for none); null for the other kinds."""
    precision = key.str.extract(TIME_KEY, 1).cast(pl.Int64, strict=False)
    unit = key.str.extract(QUANTITY_KEY, 1)
    return pl.when(key.str.contains(TIME_KEY)).then(precision_class(precision)).otherwise(unit)


def date_class(text: pl.Expr) -> pl.Expr:
    """The precision class of a date written in words, null when the text is no date."""
    stripped = text.str.strip_chars()
    result = pl.lit(None, dtype=pl.String)
    for name, pattern in reversed(DATE_TEXTS.items()):
        result = pl.when(stripped.str.contains(pattern)).then(pl.lit(name)).otherwise(result)
    return result


def is_number(text: pl.Expr) -> pl.Expr:
    """Whether a text is a number alone (``3``, ``623,966``, ``-1.5e3``)."""
    return text.str.strip_chars().str.contains(NUMBER + "$")


def unit_words(text: pl.Expr) -> pl.Expr:
    """The words after a quantity's leading number (its unit; empty for none); null when the
    text does not start with a number."""
    stripped = text.str.strip_chars()
    rest = stripped.str.replace(NUMBER, "").str.strip_chars()
    return pl.when(stripped.str.contains(NUMBER)).then(rest)


def duration_unit(text: pl.Expr) -> pl.Expr:
    """``year`` or ``month`` for a duration in words (``40 years``), null otherwise."""
    stripped = text.str.strip_chars()
    return pl.when(stripped.str.contains(DURATION)).then(stripped.str.extract(r"(year|month)", 1))


def shape(text: pl.Expr) -> pl.Expr:
    """A string's shape: each run of letters ``a``, of digits ``9``, of white space one space,
    other characters kept (``tt0111161`` → ``a9``, ``0000 0001 2138 0055`` → ``9 9 9 9``)."""
    letters = text.str.replace_all(r"\p{L}+", "a")
    return letters.str.replace_all(r"\p{N}+", "9").str.replace_all(r"\s+", " ")
