"""Wikidata time values: parsing, value keys, day intervals and three-valued validity
(docs/data-model.md).

A time value ``("+2014-03-05T00:00:00Z", precision, calendarmodel)`` becomes a closed interval of
day numbers (proleptic Gregorian days since 1970-01-01, see :mod:`kgdiff.calendars`) covering every
day the value may denote at its precision. Comparisons with a day T are three-valued. The
strings are read into their written fields by :mod:`kgdiff.portable.time_keys` (standard library
only: a benchmark folder's task files read the gold dates of time value keys with it).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# Re-exported: callers use this module as the single entry point for time values.
from kgdiff.calendars import DATE32_MAX as DATE32_MAX
from kgdiff.calendars import DATE32_MIN as DATE32_MIN
from kgdiff.calendars import EPOCH as EPOCH
from kgdiff.calendars import Calendar as Calendar
from kgdiff.calendars import date_of_day as date_of_day
from kgdiff.calendars import day_number as day_number
from kgdiff.calendars import day_of_date as day_of_date
from kgdiff.calendars import days_in_month as days_in_month
from kgdiff.calendars import to_date32 as to_date32
from kgdiff.portable.time_keys import GREGORIAN_QID as GREGORIAN_QID
from kgdiff.portable.time_keys import JULIAN_QID as JULIAN_QID
from kgdiff.portable.time_keys import TimeValueError as TimeValueError
from kgdiff.portable.time_keys import (
    calendar_qid,
    check_precision,
    key_parts,
    split_time,
    time_fields,
)


class Tri(StrEnum):
    """Where an interval lies relative to a day T (see :meth:`TimeInterval.compare`)."""

    BEFORE = "before"
    AFTER = "after"
    UNKNOWN = "unknown"


class Validity(StrEnum):
    """Three-valued answer to "does this hold at day T?"."""

    VALID = "valid"
    NOT_VALID = "not_valid"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class TimeInterval:
    """Closed interval ``[lo, hi]`` of day numbers that a time value may denote."""

    lo: int
    hi: int

    def compare(self, day: int) -> Tri:
        """Place the interval relative to day T.

        ``BEFORE`` if ``hi <= T`` (every candidate day is on or before T, so what it dates has
        happened by T), ``AFTER`` if ``lo > T`` (every candidate day is after T), else ``UNKNOWN``
        (``lo <= T < hi``: T falls inside and the interval reaches past it).
        """
        if self.hi <= day:
            return Tri.BEFORE
        if self.lo > day:
            return Tri.AFTER
        return Tri.UNKNOWN


@dataclass(frozen=True, slots=True)
class ParsedTime:
    """A parsed time value.

    ``year`` is the year as written in Wikibase JSON (``-44`` is 44 BCE, no year 0 except when
    written literally); ``month`` and ``day`` are as written (``0`` = not given, not clamped).
    """

    year: int
    month: int
    day: int
    precision: int
    calendar_qid: str
    interval: TimeInterval

    @property
    def astronomical_year(self) -> int:
        """The year with 1 BCE as 0, 2 BCE as -1, …; a literal year 0 stays 0."""
        return self.year + 1 if self.year < 0 else self.year


def _year_span(written: int, precision: int) -> tuple[int, int]:
    """Astronomical first and last year denoted by a written year at year precision or coarser."""
    astro = written + 1 if written < 0 else written
    if precision >= 9:
        return astro, astro
    if precision in (7, 6):
        # Wikibase counts centuries and millennia from 1: the 20th century is 1901–2000.
        size = 100 if precision == 7 else 1000
        c = (astro - 1) // size + 1
        return (c - 1) * size + 1, c * size
    size = 10 ** (9 - precision)
    if written >= 0:
        lo = written // size * size
        return lo, lo + size - 1
    # BCE blocks mirror CE ones ("the 40s BCE" = 49–40 BCE); there is no BCE year 0.
    block = -written // size * size
    return 1 - (block + size - 1), 1 - max(block, 1)


def _interval(written: int, month: int, day: int, precision: int, cal: Calendar) -> TimeInterval:
    if precision >= 10 and month:
        astro = written + 1 if written < 0 else written
        if precision >= 11 and day:
            if day > 28:
                day = min(day, days_in_month(astro, month, cal))
            n = day_number(astro, month, day, cal)
            return TimeInterval(n, n)
        first = day_number(astro, month, 1, cal)
        return TimeInterval(first, first + days_in_month(astro, month, cal) - 1)
    y_lo, y_hi = _year_span(written, precision)
    return TimeInterval(day_number(y_lo, 1, 1, cal), day_number(y_hi, 12, 31, cal))


def parse_time(time: str, precision: int, calendar: str) -> ParsedTime:
    """Parse a Wikibase time value into its fields and its interval of day numbers.

    ``calendar`` is a calendar-model entity URI or a bare QID. Julian-calendar values
    (:data:`JULIAN_QID`) are read as Julian dates; any other calendar is read as proleptic
    Gregorian. Years of either sign with up to 30 digits are accepted ("-0044" is 44 BCE, i.e.
    astronomical -43). Precisions 12–14 behave as day precision; hour, minute and second are
    ignored. A ``00`` month (or day) widens the interval to the whole year (or month); a day past
    the month's end is clamped to its last day. Decades and blocks of 10^(9-precision) years
    (precision ≤ 5) are aligned on multiples of the block size (BCE: mirrored); centuries and
    millennia follow Wikibase's 1-based count (+1900 at precision 7 is 1801–1900).

    Raises :class:`TimeValueError` for a malformed string, a precision outside 0..14 or a calendar
    that is not a QID.
    """
    read = time_fields(time, precision, calendar)
    cal: Calendar = "julian" if read.calendar_qid == JULIAN_QID else "gregorian"
    interval = _interval(read.year, read.month, read.day, precision, cal)
    return ParsedTime(read.year, read.month, read.day, precision, read.calendar_qid, interval)


def parse_time_key(key: str) -> ParsedTime:
    """Parse a time value key ``±Y-MM-DDT00:00:00Z|precision|calendarQID`` (see
    :func:`time_key`) as :func:`parse_time` parses its parts; a :class:`TimeValueError` for
    anything else (another kind of value key, a malformed one)."""
    return parse_time(*key_parts(key))


def time_key(time: str, precision: int, calendar: str) -> str:
    """Return the canonical value key ``±YYYY-MM-DDT00:00:00Z|precision|calendarQID``
    (docs/data-model.md).

    The year loses zero padding beyond four digits but is never rounded; a year 0 is written
    ``+0000`` whatever its sign. Month and day are zeroed below month / day precision; the time of
    day is always ``T00:00:00Z``. Raises :class:`TimeValueError` like :func:`parse_time`.
    """
    check_precision(precision, time)
    sign, year_s, month_s, day_s = split_time(time)
    year_s = year_s.lstrip("0").rjust(4, "0")
    if year_s == "0000":
        sign = "+"
    if precision < 11:
        day_s = "00"
        if precision < 10:
            month_s = "00"
    return f"{sign}{year_s}-{month_s}-{day_s}T00:00:00Z|{precision}|{calendar_qid(calendar)}"


def validity(
    start: TimeInterval | None,
    end: TimeInterval | None,
    day: int,
    start_unknown: bool = False,
    end_unknown: bool = False,
) -> Validity:
    """Three-valued validity at day T of a statement with start (P580) and end (P582) qualifiers.

    ``start``/``end`` are the qualifiers' intervals, ``None`` when absent; ``start_unknown`` /
    ``end_unknown`` mark a *somevalue* qualifier (pass ``None`` as its interval). Rules:

    * NOT_VALID if the start is after T (``start.lo > T``) or the end is on or before T
      (``end.hi <= T``) — this wins over any unknown bound;
    * otherwise UNKNOWN if either bound is somevalue: an unknown start may lie after T, and an
      unknown end is *not* an open end — the statement ended at some unknown time, maybe before T;
    * otherwise VALID if ``(no start or start.hi <= T) and (no end or end.lo > T)``;
    * otherwise UNKNOWN (T falls inside a bound's interval).

    Raises ``ValueError`` if a bound is given both as an interval and as unknown.
    """
    if (start_unknown and start is not None) or (end_unknown and end is not None):
        raise ValueError("a bound cannot be both an interval and unknown")
    s = Tri.BEFORE if start is None else start.compare(day)
    e = Tri.AFTER if end is None else end.compare(day)
    if s is Tri.AFTER or e is Tri.BEFORE:
        return Validity.NOT_VALID
    if start_unknown or end_unknown or s is Tri.UNKNOWN or e is Tri.UNKNOWN:
        return Validity.UNKNOWN
    return Validity.VALID


def happened(point: TimeInterval, day: int) -> Validity:
    """Whether an event dated ``point`` (P585) has happened by day T: VALID if ``point.hi <= T``,
    NOT_VALID if ``point.lo > T``, else UNKNOWN."""
    where = point.compare(day)
    if where is Tri.BEFORE:
        return Validity.VALID
    return Validity.NOT_VALID if where is Tri.AFTER else Validity.UNKNOWN
