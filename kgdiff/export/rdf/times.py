"""Time value keys as ``xsd:dateTime`` lexical forms, the way Wikibase's RDF writes them.

The value key (``±YYYY-MM-DDT00:00:00Z|precision|calendar``, docs/data-model.md) already has
the month and day zeroed below month / day precision; Wikibase's RDF sets them to 01 there,
so nothing the RDF shows is lost by the key. The other rules of its RDF mapping:

* a Julian date at day precision or finer is converted to the proleptic Gregorian calendar
  (coarser Julian values are written as they are: there is nothing to convert);
* years follow XSD 1.1 (1 BCE is year 0): a negative year at year precision or finer is
  moved up by one (``-0044`` → ``-0043``); coarser negative years are written as they are;
* a day past the month's end is clamped to the last day; a year 0 has no RDF form.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from kgdiff.calendars import date_of_day, day_number, days_in_month
from kgdiff.timevalue import JULIAN_QID

_KEY = re.compile(r"([+-])(\d+)-(\d\d)-(\d\d)T[^|]*\|(\d+)\|(.+)")
YEAR, MONTH, DAY = 9, 10, 11


class TimeKey(NamedTuple):
    """The parts of a time value key."""

    negative: bool
    year: int
    month: int
    day: int
    precision: int
    calendar: str


def parse_key(value: str) -> TimeKey | None:
    """The parts of a time value key, None if ``value`` is not one."""
    found = _KEY.fullmatch(value)
    if found is None:
        return None
    sign, year, month, day, precision, calendar = found.groups()
    return TimeKey(sign == "-", int(year), int(month), int(day), int(precision), calendar)


def _julian_to_gregorian(key: TimeKey) -> tuple[int, int, int]:
    """(astronomical year, month, day) in the Gregorian calendar of a Julian date."""
    astronomical = 1 - key.year if key.negative else key.year
    return date_of_day(day_number(astronomical, key.month, key.day, "julian"))


def _format(year: int, month: int, day: int) -> str:
    sign = "-" if year < 0 else ""
    return f"{sign}{abs(year):04d}-{month:02d}-{day:02d}T00:00:00Z"


def xsd_datetime(key: TimeKey) -> str | None:
    """The ``xsd:dateTime`` of a time value in Wikibase's RDF, None for a year 0."""
    if key.year == 0:
        return None
    month = max(1, min(key.month, 12)) if key.precision >= MONTH else 1
    day = max(1, key.day) if key.precision >= DAY else 1
    if key.calendar == JULIAN_QID and key.precision >= DAY:
        year, month, day = _julian_to_gregorian(key._replace(month=month, day=day))
        return _format(year, month, day)
    if key.negative and key.precision >= YEAR:
        # XSD 1.1: 1 BCE is year 0, so BCE years move up by one
        year = 1 - key.year
    else:
        year = -key.year if key.negative else key.year
    if day > 28:
        day = min(day, days_in_month(year, month))
    return _format(year, month, day)
