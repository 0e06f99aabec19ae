"""Calendar arithmetic on day numbers: proleptic Gregorian days since 1970-01-01.

Everything here is integer arithmetic that works for any integer (astronomical) year, negative or
far beyond ``datetime``'s 1..9999, because Wikidata times range from the Big Bang to the far future.
Astronomical years count 1 BCE as 0, 2 BCE as -1 and so on.
"""

from __future__ import annotations

from datetime import date
from typing import Final, Literal

__all__ = [
    "DATE32_MAX",
    "DATE32_MIN",
    "EPOCH",
    "Calendar",
    "date_of_day",
    "day_number",
    "day_of_date",
    "days_in_month",
    "to_date32",
]

Calendar = Literal["gregorian", "julian"]

EPOCH: Final = date(1970, 1, 1)
"""Day number 0. Day numbers count proleptic Gregorian days from this date (negative before it)."""

_EPOCH_ORDINAL: Final = EPOCH.toordinal()
# Days from 0000-03-01 (proleptic Gregorian) to 1970-01-01; years are counted from March so that
# the leap day is the last day of the counting year.
_GREGORIAN_SHIFT: Final = -719468
_MONTH_DAYS: Final = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _days_from_march(year: int, month: int, day: int) -> tuple[int, int]:
    """Return (March-based year, day of that year counted from March 1 as 0)."""
    if month <= 2:
        return year - 1, (153 * (month + 9) + 2) // 5 + day - 1
    return year, (153 * (month - 3) + 2) // 5 + day - 1


def _gregorian_days(year: int, month: int, day: int) -> int:
    y, doy = _days_from_march(year, month, day)
    return y * 365 + y // 4 - y // 100 + y // 400 + doy + _GREGORIAN_SHIFT


def _julian_raw(year: int, month: int, day: int) -> int:
    y, doy = _days_from_march(year, month, day)
    return y * 365 + y // 4 + doy


# Anchored on the Gregorian reform: Julian 1582-10-04 was followed by Gregorian 1582-10-15.
_JULIAN_SHIFT: Final = _gregorian_days(1582, 10, 15) - _julian_raw(1582, 10, 5)


def day_number(year: int, month: int, day: int, calendar: Calendar = "gregorian") -> int:
    """Return the day number of a calendar date (astronomical year) in the given calendar.

    The date is not validated: ``day`` past the month's end simply runs into the next month.
    """
    if calendar == "julian":
        return _julian_raw(year, month, day) + _JULIAN_SHIFT
    return _gregorian_days(year, month, day)


def date_of_day(day: int, calendar: Calendar = "gregorian") -> tuple[int, int, int]:
    """Return ``(year, month, day)`` (astronomical year) for a day number; the inverse of
    :func:`day_number` for valid dates."""
    if calendar == "julian":
        era, doe = divmod(day - _JULIAN_SHIFT, 1461)
        yoe = (doe - doe // 1460) // 365
        year = era * 4 + yoe
        doy = doe - 365 * yoe
    else:
        era, doe = divmod(day - _GREGORIAN_SHIFT, 146097)
        yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
        year = era * 400 + yoe
        doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    month = mp + 3 if mp < 10 else mp - 9
    return year + (month <= 2), month, doy - (153 * mp + 2) // 5 + 1


def days_in_month(year: int, month: int, calendar: Calendar = "gregorian") -> int:
    """Return the length of a month (1..12) of an astronomical year in the given calendar."""
    if month != 2:
        return _MONTH_DAYS[month - 1]
    leap = year % 4 == 0
    if calendar == "gregorian":
        leap = leap and (year % 100 != 0 or year % 400 == 0)
    return 29 if leap else 28


def day_of_date(d: date) -> int:
    """Return the day number of a :class:`datetime.date`."""
    return d.toordinal() - _EPOCH_ORDINAL


# DuckDB DATE holds 5877642-06-25 BC … 5881580-07-10 AD; Arrow date32 holds any int32, so DuckDB's
# range is the one both accept (DuckDB reads int32 extremes beyond it as ±infinity).
DATE32_MIN: Final = day_number(-5877641, 6, 25)
DATE32_MAX: Final = day_number(5881580, 7, 10)


def to_date32(day: int) -> int:
    """Clamp a day number to the range storable as Arrow date32 and DuckDB DATE."""
    return DATE32_MIN if day < DATE32_MIN else DATE32_MAX if day > DATE32_MAX else day
