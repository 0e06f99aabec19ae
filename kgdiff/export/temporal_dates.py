"""The dates of the ``temporal`` config: a start or end qualifier at the precision Wikidata
gives it (a year, a month or a day; never finer than the data), and how long a fact held
(docs/benchmark-export.md#the-temporal-config).

A date is read from the qualifier's value key (``+2005-11-22T00:00:00Z|11|Q1985727``), so it
keeps its precision and is written as Wikidata writes it, in its own calendar. Durations
count whole units: months when both ends give a month and the fact held less than a year,
else years.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace

from kgdiff.export.value_text import time_texts

PRECISIONS = {9: "year", 10: "month", 11: "day"}
"""Wikidata's precisions a question may ask (finer ones, hours to seconds, count as a day)."""
_KEY = re.compile(r"([+-])(\d+)-(\d\d)-(\d\d)T[^|]*\|(\d+)\|(.*)")


@dataclass(frozen=True)
class QualifierDate:
    """A start or end of a fact as written: the year (negative before the common era), the
    month and day when the precision has them (else 0), the precision's name, the calendar."""

    year: int
    month: int
    day: int
    precision: str
    calendar: str

    @property
    def astronomical(self) -> int:
        """The year counted with a year 0 (1 BCE is 0), for arithmetic across the era."""
        return self.year + 1 if self.year < 0 else self.year

    def key(self) -> str:
        """The value key of the date at its precision (the form :mod:`value_text` renders)."""
        number = {"year": 9, "month": 10, "day": 11}[self.precision]
        sign = "-" if self.year < 0 else "+"
        body = f"{abs(self.year):04d}-{self.month:02d}-{self.day:02d}"
        return f"{sign}{body}T00:00:00Z|{number}|{self.calendar}"

    def texts(self) -> list[str]:
        """The date in words at its precision ("22 November 2005", "November 2005",
        "2005"), then its ISO form for a day or a month ("2005-11-22")."""
        return time_texts(self.key())

    def iso(self) -> str:
        """``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` (a leading ``-`` before the common era)."""
        year = f"-{abs(self.year):04d}" if self.year < 0 else f"{self.year:04d}"
        if self.precision == "year":
            return year
        if self.precision == "month":
            return f"{year}-{self.month:02d}"
        return f"{year}-{self.month:02d}-{self.day:02d}"

    def phrase(self) -> str:
        """The date after a verb: "in 2005", "in November 2005", "on 22 November 2005"."""
        return f"{'on' if self.precision == 'day' else 'in'} {self.texts()[0]}"

    def shifted(self, years: int) -> QualifierDate | None:
        """The same date ``years`` later (earlier when negative), None when that crosses the
        start of the common era; 29 February becomes the 28th in a year without one."""
        year = self.year + years
        if (year > 0) != (self.year > 0) or year == 0:
            return None
        day = self.day
        if self.month == 2 and day == 29 and not calendar.isleap(year):
            day = 28
        return replace(self, year=year, day=day)


def qualifier_date(key: str | None) -> QualifierDate | None:
    """The date of a time value key at the precision it gives (a ``00`` month or day lowers
    it), or None when it is no time or coarser than a year (a decade, a century…)."""
    found = _KEY.fullmatch(key or "")
    if found is None:
        return None
    sign, year_text, month_text, day_text, precision_text, calendar_qid = found.groups()
    year, month, day = int(year_text), int(month_text), int(day_text)
    precision = min(int(precision_text), 11)
    if precision == 11 and not day:
        precision = 10
    if precision >= 10 and not month:
        precision = 9
    if precision < 9 or year == 0:
        return None
    name = PRECISIONS[precision]
    month = month if precision >= 10 else 0
    day = day if precision >= 11 else 0
    return QualifierDate(-year if sign == "-" else year, month, day, name, calendar_qid)


@dataclass(frozen=True)
class Duration:
    """How long a fact held, in whole years or months."""

    count: int
    unit: str
    """``years`` or ``months``."""

    def text(self) -> str:
        """The count and its unit: 1 year, 16 years, 7 months."""
        unit = self.unit if self.count != 1 else self.unit[:-1]
        return f"{self.count} {unit}"

    def texts(self) -> list[str]:
        """The answer's words: the count with its unit, then the count alone."""
        return [self.text(), str(self.count)]


def held_for(start: QualifierDate, end: QualifierDate) -> Duration | str:
    """How long a fact that started at ``start`` and ended at ``end`` held, or why it is
    not asked (``mixed_calendars``, ``end_before_start``, ``too_short``).

    With a year-precision end, the difference of the years (the data say no more); with a
    month or a day at both ends, the whole months elapsed (a day-precision end before the
    start's day of the month does not complete its month): under a year in months, else
    in whole years (rounded down, as an age)."""
    if start.calendar != end.calendar:
        return "mixed_calendars"
    if "year" in (start.precision, end.precision):
        count = end.astronomical - start.astronomical
        return _checked(count, "years")
    months = (end.astronomical - start.astronomical) * 12 + end.month - start.month
    if start.precision == end.precision == "day" and end.day < start.day:
        months -= 1
        if months < 0:
            return "end_before_start"
    if months >= 12:
        return Duration(months // 12, "years")
    return _checked(months, "months")


def _checked(count: int, unit: str) -> Duration | str:
    if count < 0:
        return "end_before_start"
    return Duration(count, unit) if count > 0 else "too_short"
