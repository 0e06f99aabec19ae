"""Value keys as the words a question's answer is written in.

An item's answer is its label; every other value key (docs/data-model.md) is rendered here:
a time at its precision ("26 July 1887", "July 1887", "1887", "1880s", "19th century"), a
quantity's amount (with its unit's label when the unit is an item), a monolingual text's text,
a coordinate pair, a string as itself. ``<somevalue>`` and ``<novalue>`` are no answer a model
could give, so they render to nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

ENTITY_ID = re.compile(r"[QPL][1-9][0-9]*")
SPECIAL = frozenset({"<somevalue>", "<novalue>"})
_TIME = re.compile(r"([+-])(\d+)-(\d\d)-(\d\d)T[^|]*\|(\d+)\|(.*)")
# monolingual text is ``lang:text`` (a URL's scheme is longer than a language code, and is
# followed by //); a coordinate is ``lat,lon,globe``
_MONOLINGUAL = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]+)*:(?!//)(.+)", re.DOTALL)
_COORDINATE = re.compile(r"(-?[0-9.]+(?:e-?[0-9]+)?),(-?[0-9.]+(?:e-?[0-9]+)?),(?:Q[0-9]+)?")
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def is_entity(value: str) -> bool:
    """Whether a value key names an entity (item, property or lexeme)."""
    return ENTITY_ID.fullmatch(value) is not None


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10)
    return f"{number}{suffix or 'th'}"


def _year_text(year: int, bce: bool) -> str:
    return f"{year} BCE" if bce else str(year)


def time_precision(value: str) -> int | None:
    """The precision of a time value key (9 a year, 11 a day), None for other values."""
    found = _TIME.fullmatch(value)
    return int(found.group(5)) if found else None


def time_texts(value: str) -> list[str]:
    """A time value key in words at its precision, then its ISO form when the precision is a
    day or a month (an alias a model may write instead); empty when it is not a time."""
    found = _TIME.fullmatch(value)
    if found is None:
        return []
    sign, year_text, month, day, precision_text, _calendar = found.groups()
    year, precision, bce = int(year_text), int(precision_text), sign == "-"
    if precision >= 11 and int(month) and int(day):
        words = f"{int(day)} {_MONTHS[int(month) - 1]} {_year_text(year, bce)}"
        return [words, f"{sign if bce else ''}{year_text}-{month}-{day}"]
    if precision == 10 and int(month):
        return [f"{_MONTHS[int(month) - 1]} {_year_text(year, bce)}", f"{year_text}-{month}"]
    if precision == 8:
        return [f"{year // 10 * 10}s" + (" BCE" if bce else "")]
    if precision in (6, 7):
        span = 1000 if precision == 6 else 100
        name = "millennium" if precision == 6 else "century"
        return [f"{_ordinal((year - 1) // span + 1)} {name}" + (" BCE" if bce else "")]
    return [_year_text(year, bce)]


def _amount(text: str) -> str:
    return text[1:] if text.startswith("+") else text


def value_texts(value: str, label_of: Callable[[str], str | None]) -> list[str]:
    """The words of a non-item value key, the main one first (empty for ``<somevalue>``,
    ``<novalue>`` and an unlabelled entity); ``label_of`` names a quantity's unit."""
    if value in SPECIAL:
        return []
    if is_entity(value):
        label = label_of(value)
        return [label] if label else []
    times = time_texts(value)
    if times:
        return times
    if "|" in value:  # amount|unit
        amount, unit = value.split("|", 1)
        unit_label = label_of(unit) if is_entity(unit) else None
        return [f"{_amount(amount)} {unit_label}" if unit_label else _amount(amount)]
    text = _MONOLINGUAL.fullmatch(value)
    if text is not None:
        return [text.group(1)]
    point = _COORDINATE.fullmatch(value)
    if point is not None:
        return [f"{float(point.group(1)):g}, {float(point.group(2)):g}"]
    return [value]
