"""The dates of the ``temporal`` config as polars expressions: a start or end qualifier at the
precision Wikidata gives it (a year, a month or a day; never finer than the data), its words,
and how long a fact held (docs/benchmark-export.md#the-temporal-config).

A date is read from the qualifier's value key (``+2005-11-22T00:00:00Z|11|Q1985727``), so it
keeps its precision and is written as Wikidata writes it, in its own calendar. A read date is
five columns named ``<prefix>_year`` (negative before the common era), ``_month`` and ``_day``
(0 when the precision has none), ``_precision`` (9 a year, 10 a month, 11 a day; null when
the key is no time or coarser than a year) and ``_calendar``. Durations are rounded to the
nearest unit: months when both ends give a month and the fact held less than a year, else
years.
"""

from __future__ import annotations

import polars as pl

from kgdiff.timetext import ERA_MARKED_BELOW

PRECISIONS = {9: "year", 10: "month", 11: "day"}
"""Wikidata's precisions a question may ask (finer ones, hours to seconds, count as a day)."""
_KEY = r"^([+-])(\d+)-(\d\d)-(\d\d)T[^|]*\|(\d+)\|(.*)$"
_MONTHS = dict(enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"], start=1,
))  # fmt: skip


def with_date(frame: pl.DataFrame, key: pl.Expr, prefix: str) -> pl.DataFrame:
    """``frame`` with the date of a time value key at the precision it gives (a ``00``
    month or day lowers it), as the five columns of ``prefix``."""
    # each step is materialised: an eager frame does not share subexpressions
    parts = [f"{prefix}_{name}" for name in ("sign", "year", "month", "day", "given", "calendar")]
    frame = frame.with_columns(
        key.str.extract_groups(_KEY).struct.rename_fields(parts).alias(prefix)
    )
    frame = frame.with_columns(
        pl.col(prefix).struct.field(*parts[1:5]).cast(pl.Int64, strict=False),
        pl.col(prefix).struct.field(parts[0], parts[5]),
    ).drop(prefix)
    year, month, day = pl.col(parts[1]), pl.col(parts[2]), pl.col(parts[3])
    given = pl.min_horizontal(pl.col(parts[4]), pl.lit(11))
    given = pl.when((given == 11) & (day == 0)).then(10).otherwise(given)
    given = pl.when((given >= 10) & (month == 0)).then(9).otherwise(given)
    frame = frame.with_columns(
        pl.when((given >= 9) & (year != 0)).then(given).cast(pl.Int8).alias(f"{prefix}_precision")
    )
    precision = pl.col(f"{prefix}_precision")
    return frame.with_columns(
        pl.when(pl.col(parts[0]) == "-").then(-year).otherwise(year).alias(f"{prefix}_year"),
        pl.when(precision >= 10).then(month).otherwise(0).alias(f"{prefix}_month"),
        pl.when(precision >= 11).then(day).otherwise(0).alias(f"{prefix}_day"),
    ).drop(parts[0], parts[4])


def precision_name(prefix: str) -> pl.Expr:
    """``year``, ``month`` or ``day``."""
    return pl.col(f"{prefix}_precision").replace_strict(PRECISIONS, return_dtype=pl.String)


def _year4(year: pl.Expr) -> pl.Expr:
    return year.abs().cast(pl.String).str.zfill(4)


def words(prefix: str, year: pl.Expr | None = None, day: pl.Expr | None = None) -> pl.Expr:
    """The date in words at its precision ("22 November 2005", "November 2005", "2005",
    "44 BCE", "30 CE": as :mod:`kgdiff.timetext` writes them); ``year`` and ``day`` stand in
    for the date's own (a shifted date)."""
    year = pl.col(f"{prefix}_year") if year is None else year
    day = pl.col(f"{prefix}_day") if day is None else day
    precision = pl.col(f"{prefix}_precision")
    month = pl.col(f"{prefix}_month").replace_strict(_MONTHS, default="", return_dtype=pl.String)
    era = (
        pl.when(year < 0)
        .then(pl.lit(" BCE"))
        .when(year < ERA_MARKED_BELOW)
        .then(pl.lit(" CE"))
        .otherwise(pl.lit(""))
    )
    # a literal year 0 is 1 BCE, as kgdiff.timetext reads it
    said = pl.when(year == 0).then(pl.lit("1 BCE")).otherwise(year.abs().cast(pl.String) + era)
    return (
        pl.when(precision == 11)
        .then(pl.concat_str(day.cast(pl.String), pl.lit(" "), month, pl.lit(" "), said))
        .when(precision == 10)
        .then(pl.concat_str(month, pl.lit(" "), said))
        .otherwise(said)
    )


def alias(prefix: str) -> pl.Expr:
    """The ISO form a model may write instead, for a day or a month (null for a year): a day
    keeps the era's sign, a month does not (as :func:`kgdiff.valuetext.time_texts`)."""
    year, precision = pl.col(f"{prefix}_year"), pl.col(f"{prefix}_precision")
    month = pl.col(f"{prefix}_month").cast(pl.String).str.zfill(2)
    day = pl.col(f"{prefix}_day").cast(pl.String).str.zfill(2)
    sign = pl.when(year < 0).then(pl.lit("-")).otherwise(pl.lit(""))
    return (
        pl.when(precision == 11)
        .then(pl.concat_str(sign, _year4(year), pl.lit("-"), month, pl.lit("-"), day))
        .when(precision == 10)
        .then(pl.concat_str(_year4(year), pl.lit("-"), month))
    )


def iso(prefix: str) -> pl.Expr:
    """``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` (a leading ``-`` before the common era); null
    for a date that is not asked."""
    year, precision = pl.col(f"{prefix}_year"), pl.col(f"{prefix}_precision")
    sign = pl.when(year < 0).then(pl.lit("-")).otherwise(pl.lit(""))
    text = pl.concat_str(sign, _year4(year))
    month = pl.lit("-") + pl.col(f"{prefix}_month").cast(pl.String).str.zfill(2)
    day = pl.lit("-") + pl.col(f"{prefix}_day").cast(pl.String).str.zfill(2)
    return (
        pl.when(precision == 9)
        .then(text)
        .when(precision == 10)
        .then(text + month)
        .when(precision == 11)
        .then(text + month + day)
    )


def _leap(year: pl.Expr) -> pl.Expr:
    return (year % 4 == 0) & ((year % 100 != 0) | (year % 400 == 0))


def shifted_words(prefix: str, years: pl.Expr) -> pl.Expr:
    """The words of the date ``years`` later (earlier when negative), null when that crosses
    the start of the common era; 29 February becomes the 28th in a year without one."""
    year = pl.col(f"{prefix}_year")
    moved = year + years
    day = pl.col(f"{prefix}_day")
    feb29 = (pl.col(f"{prefix}_month") == 2) & (day == 29) & ~_leap(moved)
    crossed = ((moved > 0) != (year > 0)) | (moved == 0)
    return pl.when(~crossed).then(
        words(prefix, moved, pl.when(feb29).then(pl.lit(28, pl.Int64)).otherwise(day))
    )


def _astronomical(prefix: str) -> pl.Expr:
    year = pl.col(f"{prefix}_year")
    return pl.when(year < 0).then(year + 1).otherwise(year)


MONTH_DAYS = 30
"""The days a month is taken to have when a duration's part of a month is rounded."""


def _months(start: str, end: str) -> tuple[pl.Expr, pl.Expr]:
    """The whole months elapsed from the date ``start`` to the date ``end`` (a day-precision
    end before the start's day of the month does not complete its month), and the days left
    beyond them (0 unless both ends are days; a month taken as :data:`MONTH_DAYS` days)."""
    col = pl.col
    years = _astronomical(end) - _astronomical(start)
    days = (col(f"{start}_precision") == 11) & (col(f"{end}_precision") == 11)
    short = days & (col(f"{end}_day") < col(f"{start}_day"))
    months = years * 12 + col(f"{end}_month") - col(f"{start}_month") - short.cast(pl.Int64)
    left = col(f"{end}_day") - col(f"{start}_day") + pl.when(short).then(MONTH_DAYS).otherwise(0)
    return months, pl.when(days).then(left).otherwise(0)


def held_for(start: str, end: str) -> list[pl.Expr]:
    """How long a fact held from the date ``start`` to the date ``end`` (two prefixes):
    ``duration`` and ``duration_unit``, or ``held_reason`` why it is not asked
    (``mixed_calendars``, ``end_before_start``, ``too_short``, ``mixed_precision``,
    ``half_a_year``, ``half_a_month``).

    With years at both ends, the difference of the years (the data say no more); with a
    year at one end and a month or a day at the other, none (``mixed_precision``: Albert
    Einstein's 1940 – 18 April 1955 is 14 years or 15). With a
    month or a day at both ends, the time elapsed rounded to the nearest month, then, from
    12 months on, to the nearest year, as people count a term (7 years and 10 months is
    8 years): a remainder of half a year (or of half a month, under a year) is not asked,
    since the count below and the count above are both fair answers, nor is less than a
    whole month (or a year, with a year-precision end)."""
    col = pl.col
    yearly = (col(f"{start}_precision") == 9) | (col(f"{end}_precision") == 9)
    both_years = (col(f"{start}_precision") == 9) & (col(f"{end}_precision") == 9)
    months, left = _months(start, end)
    rounded = months + (left * 2 >= MONTH_DAYS).cast(pl.Int64)
    in_years = yearly | (rounded >= 12)
    years = _astronomical(end) - _astronomical(start)
    whole = pl.when(yearly).then(years).otherwise(months)
    nearest = pl.when(in_years).then((rounded + 6) // 12).otherwise(rounded)
    count = pl.when(yearly).then(years).otherwise(nearest)
    unit = pl.when(in_years).then(pl.lit("years")).otherwise(pl.lit("months"))
    half_month = (left >= MONTH_DAYS // 2 - 2) & (left <= MONTH_DAYS // 2 + 2)
    reason = (
        pl.when(col(f"{start}_calendar") != col(f"{end}_calendar"))
        .then(pl.lit("mixed_calendars"))
        .when(whole < 0)
        .then(pl.lit("end_before_start"))
        .when(whole == 0)
        .then(pl.lit("too_short"))
        .when(yearly & ~both_years)
        .then(pl.lit("mixed_precision"))
        .when(~yearly & in_years & (rounded % 12 == 6))
        .then(pl.lit("half_a_year"))
        .when(~in_years & half_month)
        .then(pl.lit("half_a_month"))
    )
    return [count.alias("duration"), unit.alias("duration_unit"), reason.alias("held_reason")]


def duration_text(count: pl.Expr, unit: pl.Expr) -> pl.Expr:
    """The count and its unit: 1 year, 16 years, 7 months."""
    named = pl.when(count == 1).then(unit.str.strip_suffix("s")).otherwise(unit)
    return pl.concat_str(count.cast(pl.String), pl.lit(" "), named)
