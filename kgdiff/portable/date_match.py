"""The date-aware match of the ``temporal`` config's timestamp and interval answers
(docs/scoring.md#dates-and-durations).

A timestamp answer matches when the first date it names, read at least as precisely as the
gold, falls on the gold at the gold's precision: for a gold month ``2015-03``, "March 2015",
"in March 2015", "15 March 2015" and "2015-03-15" match, "2015" does not (it says less than
the gold), nor does "April 2015". Dates are read in words ("15 March 2015", "March 15, 2015",
"Mar 2015"), in ISO form ("2015-03-15", "2015-03") or as a bare year ("2015"); all-numeric
day/month orders ("03/15/2015") are not read, being ambiguous. An interval answer matches when
the first number it names (in digits or words up to twenty) is the gold count, in the gold's
unit or with no unit: for a gold of 8 years, "8", "8 years" and "eight years" match, "96
months" and "8 months" do not. A record of another config whose gold objects are dates (a
`qa` record of an inception or a date of death) is matched as a timestamp is
(:func:`time_key_dates`). The end of a fact at a day's precision is also matched by the day
after it (:func:`end_dates`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from .time_keys import GREGORIAN_QID, TimeValueError, key_fields

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
            ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
            ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}  # fmt: skip
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(\d{1,4})(\s*(?:bce|bc)\b)?"
_PATTERNS = [
    ("dmy", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\s*,?\s+{_YEAR}")),
    ("mdy", re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?\s*,?\s+{_YEAR}")),
    ("my", re.compile(rf"\b{_MONTH}\s*,?\s+{_YEAR}")),
    ("iso", re.compile(r"(?<![\d-])(-?)(\d{4})-(\d\d)(?:-(\d\d))?(?!\d)")),
    ("y", re.compile(r"(?<![\d.,/-])(\d{1,4})(\s*(?:bce|bc)\b)?(?![\d.,/]*\d)")),
]
_NUMBER_WORDS = {
    word: number
    for number, word in enumerate(
        [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
            "seventeen", "eighteen", "nineteen", "twenty",
        ]
    )
}  # fmt: skip
_COUNT = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?|" + "|".join(_NUMBER_WORDS) + r")\b(?:\s*(years?|months?)\b)?"
)


@dataclass(frozen=True)
class ReadDate:
    """A date read from an answer: its year (negative before the common era), month and
    day (0 when not given)."""

    year: int
    month: int = 0
    day: int = 0


def _year(text: str, era: str | None) -> int:
    return -int(text) if era else int(text)


def _read(kind: str, found: re.Match[str]) -> ReadDate:
    groups = found.groups()
    if kind == "dmy":
        return ReadDate(_year(groups[2], groups[3]), _MONTHS[groups[1]], int(groups[0]))
    if kind == "mdy":
        return ReadDate(_year(groups[2], groups[3]), _MONTHS[groups[0]], int(groups[1]))
    if kind == "my":
        return ReadDate(_year(groups[1], groups[2]), _MONTHS[groups[0]])
    if kind == "iso":
        sign, year, month, day = groups
        return ReadDate(-int(year) if sign else int(year), int(month), int(day or 0))
    return ReadDate(_year(groups[0], groups[1]))


def first_date(answer: str) -> ReadDate | None:
    """The first date an answer names, read as precisely as it is written there."""
    text = answer.casefold()
    best: tuple[int, int, ReadDate] | None = None
    for rank, (kind, pattern) in enumerate(_PATTERNS):
        found = pattern.search(text)
        if found is not None and (best is None or found.start() < best[0]):
            best = (found.start(), rank, _read(kind, found))
    return best[2] if best else None


def date_matches(answer: str, gold: str, precision: str) -> bool:
    """Whether ``answer`` names the ``gold`` date (``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``,
    a leading ``-`` before the common era) at its ``precision`` (year, month or day)."""
    read = first_date(answer)
    if read is None:
        return False
    sign = -1 if gold.startswith("-") else 1
    parts = [int(part) for part in gold.lstrip("-").split("-")]
    wanted = ReadDate(sign * parts[0], *parts[1:])
    if read.year != wanted.year:
        return False
    if precision in ("month", "day") and read.month != wanted.month:
        return False
    return precision != "day" or read.day == wanted.day


def duration_matches(answer: str, count: int, unit: str) -> bool:
    """Whether the first number ``answer`` names is ``count``, in ``unit`` (years or
    months) or with no unit."""
    found = _COUNT.search(answer.casefold())
    if found is None:
        return False
    number, named_unit = found.groups()
    value = _NUMBER_WORDS.get(number)
    if value is None and float(number) != int(float(number)):
        return False
    value = value if value is not None else int(float(number))
    return value == count and (named_unit is None or named_unit.rstrip("s") == unit.rstrip("s"))


_PRECISIONS = {9: "year", 10: "month", 11: "day"}


def time_key_dates(keys: list[object]) -> list[tuple[str, str]] | None:
    """The gold dates (``YYYY[-MM[-DD]]``, a leading ``-`` before the common era, and the
    precision) of time value keys (:func:`~kgdiff.portable.time_keys.key_fields`), when every key
    is a Gregorian date at the precision of a year, a month or a day (a record of a time
    relation asked in ``qa``: "When did Boston come into being?"); None otherwise. A month or
    day written 0 lowers the precision, as the ``temporal`` config reads it."""
    found = []
    for key in keys:
        try:
            parsed = key_fields(key) if isinstance(key, str) else None
        except TimeValueError:
            return None
        if parsed is None or parsed.calendar_qid != GREGORIAN_QID or parsed.precision < 9:
            return None
        precision = min(parsed.precision, 9 if not parsed.month else 10 if not parsed.day else 11)
        parts = [f"{abs(parsed.year):04d}", f"{parsed.month:02d}", f"{parsed.day:02d}"]
        iso = ("-" if parsed.year < 0 else "") + "-".join(parts[: precision - 8])
        found.append((iso, _PRECISIONS[precision]))
    return found or None


def end_dates(gold: str, precision: str) -> list[str]:
    """The dates that answer when a fact stopped holding, given its end ``gold`` (an ISO date,
    a leading ``-`` before the common era): a day-precision end is also answered by the day
    after it. Wikidata writes some ends as the last day a fact held (Bonn, the capital of
    Germany "until 2 October 1990") and others as the day it stopped (the next holder's
    first day), and "When did Germany's capital stop being Bonn?" is answered by both."""
    if precision != "day" or gold.startswith("-"):
        return [gold]
    try:
        day = date.fromisoformat(gold)
    except ValueError:
        return [gold]
    return [gold] if day == date.max else [gold, (day + timedelta(days=1)).isoformat()]
