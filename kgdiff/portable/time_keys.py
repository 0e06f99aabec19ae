"""Reading Wikibase time values and their value keys into their written fields
(docs/data-model.md).

A time value ``("+2014-03-05T00:00:00Z", precision, calendarmodel)`` and its value key
``+2014-03-05T00:00:00Z|11|Q1985727`` are read here into the year, month and day as written,
the precision and the calendar's QID; :mod:`kgdiff.timevalue` builds its day intervals on
these fields, and the scoring reads a record's gold dates from its keys
(:func:`kgdiff.portable.date_match.time_key_dates`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

GREGORIAN_QID: Final = "Q1985727"
JULIAN_QID: Final = "Q1985786"
_KNOWN_CALENDARS: Final = {
    "http://www.wikidata.org/entity/" + GREGORIAN_QID: GREGORIAN_QID,
    "http://www.wikidata.org/entity/" + JULIAN_QID: JULIAN_QID,
    GREGORIAN_QID: GREGORIAN_QID,
    JULIAN_QID: JULIAN_QID,
}


class TimeValueError(ValueError):
    """A time string, precision or calendar that cannot be interpreted."""


@dataclass(frozen=True, slots=True)
class TimeFields:
    """A time value's fields as written: ``year`` as in Wikibase JSON (``-44`` is 44 BCE),
    ``month`` and ``day`` (``0`` = not given, not clamped), the precision and the calendar."""

    year: int
    month: int
    day: int
    precision: int
    calendar_qid: str


def split_time(time: str) -> tuple[str, str, str, str]:
    """Split ``±Y…Y-MM-DDThh:mm:ssZ`` into (sign, year digits, month digits, day digits)."""
    sign = time[:1]
    if sign == "+" or sign == "-":
        body = time[1:]
    else:
        sign, body = "+", time
    t = body.find("T")
    date = body if t < 0 else body[:t]
    # The length cap keeps int() away from absurd inputs (Wikibase allows 16-digit years).
    if not 7 <= len(date) <= 36 or date[-3] != "-" or date[-6] != "-" or not date.isascii():
        raise TimeValueError(f"unparseable time value {time!r}")
    year, month, day = date[:-6], date[-5:-3], date[-2:]
    if not (year.isdigit() and month.isdigit() and day.isdigit()) or month > "12" or day > "31":
        raise TimeValueError(f"unparseable time value {time!r}")
    return sign, year, month, day


def calendar_qid(calendar: str) -> str:
    """The QID of a calendar model given as an entity URI or a bare QID."""
    known = _KNOWN_CALENDARS.get(calendar)
    if known is not None:
        return known
    qid = calendar.rstrip("/").rpartition("/")[2]
    if len(qid) < 2 or qid[0] != "Q" or not (qid[1:].isascii() and qid[1:].isdigit()):
        raise TimeValueError(f"calendar model {calendar!r} is not a QID or an entity URI")
    return qid


def check_precision(precision: int, time: str) -> None:
    """A :class:`TimeValueError` for a precision outside 0..14."""
    if not 0 <= precision <= 14:
        raise TimeValueError(f"precision {precision!r} of time value {time!r} is outside 0..14")


def time_fields(time: str, precision: int, calendar: str) -> TimeFields:
    """The fields of a time value; a :class:`TimeValueError` for a malformed string, a
    precision outside 0..14 or a calendar that is not a QID."""
    check_precision(precision, time)
    sign, year, month, day = split_time(time)
    written = -int(year) if sign == "-" else int(year)
    return TimeFields(written, int(month), int(day), precision, calendar_qid(calendar))


def key_parts(key: str) -> tuple[str, int, str]:
    """The time, precision and calendar of a time value key
    ``±Y-MM-DDT00:00:00Z|precision|calendarQID``; a :class:`TimeValueError` for another
    kind of value key."""
    time, _, rest = key.partition("|")
    precision, _, calendar = rest.partition("|")
    if not (precision.isascii() and precision.isdigit() and len(precision) <= 2 and calendar):
        raise TimeValueError(f"{key!r} is not a time value key")
    return time, int(precision), calendar


def key_fields(key: str) -> TimeFields:
    """The fields of a time value key (:func:`key_parts`, :func:`time_fields`)."""
    return time_fields(*key_parts(key))
