"""Wikidata time values as people read them, and as clients sort them: the one set of words
every face uses (timelines, plots, the REST service, exports), from the Big Bang to the far
future (docs/data-model.md#time).

A value is written at its precision: ``15 March 44 BCE (Julian)``, ``March 1830``, ``1630``,
``1960s``, ``5th century BCE``, ``2nd millennium``; coarser than a millennium, in years rounded
to the precision (``10,000 BCE``, ``66 million years BCE``, ``13.798 billion years BCE``, as
Wikibase rounds them). Years are written as Wikidata writes them, without the astronomical
shift (``-0044`` is ``44 BCE``); a literal year 0 is 1 BCE, as its interval says. A year of
the common era below 1000 says so (``30 CE``, ``4 July 476 CE``, ``870s CE``): alone, "30" reads
as a number, not as the year of a death. A Julian date is marked at month or day precision,
where the two calendars differ.

A value's *day key* is the first day of its interval (:mod:`kgdiff.timevalue`) as a 64-bit
integer: days since 1970-01-01 in the proleptic Gregorian calendar, computed without any date
type, so it orders values like the dates they denote wherever they lie (the catalog's
``kgdiff_time_lo`` macro computes the same number in SQL).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from kgdiff.timevalue import (
    GREGORIAN_QID,
    JULIAN_QID,
    ParsedTime,
    TimeValueError,
    parse_time,
    parse_time_key,
)

MONTHS: Final = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
DAY_KEY_MIN: Final = -(2**63)
DAY_KEY_MAX: Final = 2**63 - 1
_SCALES: Final = ((10**9, "billion years"), (10**6, "million years"))
ERA_MARKED_BELOW: Final = 1000
"""Years of the common era below this are written with ``CE``."""


def day_key(day: int) -> int:
    """A day number as a 64-bit integer: clamped to int64, which holds every day of a year
    of up to 16 digits (Wikibase's longest)."""
    return DAY_KEY_MIN if day < DAY_KEY_MIN else DAY_KEY_MAX if day > DAY_KEY_MAX else day


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10)
    return f"{number}{suffix or 'th'}"


def _year(written: int) -> str:
    """A year as written in Wikibase JSON: ``-44`` is ``44 BCE``, a literal 0 is 1 BCE,
    ``30`` is ``30 CE``."""
    if written >= ERA_MARKED_BELOW:
        return str(written)
    if written > 0:
        return f"{written} CE"
    return f"{max(-written, 1)} BCE"


def _scaled(years: int, step: int) -> str:
    """``years`` (a multiple of ``step``) in billions or millions when that large, with as
    many decimals as ``step`` needs, else with thousands separators."""
    for unit, name in _SCALES:
        if years >= unit:
            whole, part = divmod(years, unit)
            digits = len(str(unit)) - len(str(step)) if step < unit else 0
            decimals = str(part).rjust(len(str(unit)) - 1, "0")[:digits].rstrip("0")
            return f"{whole:,}{'.' + decimals if decimals else ''} {name}"
    return f"{years:,}"


def _coarse(written: int, precision: int) -> str:
    """A year at a precision coarser than a millennium, rounded to it (half up), as
    Wikibase shows it; never rounded to nothing."""
    step = 10 ** (9 - precision)
    years = max((abs(written) + step // 2) // step * step, step)
    return f"{_scaled(years, step)} {'BCE' if written < 0 else 'CE'}"


def _span_name(parsed: ParsedTime) -> str:
    """A century or millennium, counted from 1 as Wikibase counts them (the 20th century is
    1901–2000; its astronomical years, so 500 BCE is in the 5th century BCE)."""
    size = 100 if parsed.precision == 7 else 1000
    name = "century" if parsed.precision == 7 else "millennium"
    number = (parsed.astronomical_year - 1) // size + 1
    return f"{_ordinal(number)} {name}" if number > 0 else f"{_ordinal(1 - number)} {name} BCE"


def _calendar_mark(parsed: ParsedTime) -> str:
    if parsed.calendar_qid == GREGORIAN_QID:
        return ""
    return " (Julian)" if parsed.calendar_qid == JULIAN_QID else f" ({parsed.calendar_qid})"


def parsed_text(parsed: ParsedTime, calendar: bool = True) -> str:
    """How a person reads a parsed time value (see the module's docstring); ``calendar=False``
    leaves a Julian date unmarked (the words a person may write for it)."""
    precision, written = parsed.precision, parsed.year
    if precision >= 10 and parsed.month:
        month = MONTHS[parsed.month - 1]
        words = f"{month} {_year(written)}"
        if precision >= 11 and parsed.day:
            words = f"{parsed.day} {words}"
        return words + (_calendar_mark(parsed) if calendar else "")
    if precision >= 9:
        return _year(written)
    if precision == 8:
        decade = abs(written) // 10 * 10
        if written < 0:
            return f"{decade}s BCE"
        return f"{decade}s" if decade >= ERA_MARKED_BELOW else f"{decade}s CE"
    if precision >= 6:
        return _span_name(parsed)
    return _coarse(written, precision)


def time_text(time: str, precision: int, calendar: str) -> str:
    """How a person reads a Wikibase time value (``time``, ``precision``, ``calendarmodel``);
    a :class:`~kgdiff.timevalue.TimeValueError` for one that cannot be read."""
    return parsed_text(parse_time(time, precision, calendar))


def key_text(key: str) -> str:
    """How a person reads a time value key (``±Y-MM-DDT00:00:00Z|precision|calendar``); a
    :class:`~kgdiff.timevalue.TimeValueError` for a value key of another kind."""
    return parsed_text(parse_time_key(key))


def value_text(value: str) -> str:
    """A value key as a person reads it: a time in words, any other value as itself."""
    try:
        return key_text(value)
    except TimeValueError:
        return value


def bound_text(keys: Iterable[str] | None) -> str | None:
    """The words of one bound of a statement (its start, end or point in time) from the time
    value keys of its qualifiers, earliest first: one value in words, several joined by "or"
    (the data give more than one); None without any."""
    texts = list(dict.fromkeys(value_text(key) for key in keys or ()))
    if not texts:
        return None
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} or {texts[-1]}"


def year_text(year: int, step: int = 1) -> str:
    """An astronomical year (1 BCE is 0) as an axis tick whose ticks are ``step`` years
    apart reads it: ``2000``, ``500 BCE``, ``10,000 BCE``, ``66 million years BCE``."""
    written = year if year > 0 else year - 1
    coarse = step >= 10_000 and abs(year) >= step
    precision = max(0, 9 - (len(str(step)) - 1)) if coarse else 9
    sign = "-" if written < 0 else "+"
    return time_text(f"{sign}{abs(written):04d}-00-00T00:00:00Z", precision, GREGORIAN_QID)


def key_day(key: str) -> int | None:
    """The day key of a time value key (see the module's docstring), None for another value."""
    try:
        return day_key(parse_time_key(key).interval.lo)
    except TimeValueError:
        return None
