"""The rules of the temporal config's dates (kgdiff/export/temporal_dates.py) and of their
date-aware match (kgdiff/export/date_match.py), as properties over arbitrary dates:
a date is asked and answered at its qualifier's precision and never finer, a duration counts
whole units and never more than elapsed, and an answer stating the gold matches while one a
year off does not (docs/benchmark-export.md#the-temporal-config, docs/scoring.md)."""

from __future__ import annotations

import calendar
import random
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from kgdiff.export.date_match import date_matches, duration_matches, first_date
from kgdiff.export.temporal_dates import Duration, QualifierDate, held_for, qualifier_date
from kgdiff.export.temporal_years import abstention_choices

GREGORIAN = "Q1985727"
PRECISION_NUMBERS = {"year": 9, "month": 10, "day": 11}


def key(day: date, precision: int, calendar_qid: str = GREGORIAN) -> str:
    return f"+{day.year:04d}-{day.month:02d}-{day.day:02d}T00:00:00Z|{precision}|{calendar_qid}"


days = st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31))


@given(days, st.integers(min_value=0, max_value=14))
def test_a_date_is_never_finer_than_its_qualifier(day: date, precision: int) -> None:
    read = qualifier_date(key(day, precision))
    if precision < 9:
        assert read is None  # a decade, a century… is not asked
        return
    assert read is not None
    assert PRECISION_NUMBERS[read.precision] == min(precision, 11)
    parts = read.iso().split("-")
    assert len(parts) == {"year": 1, "month": 2, "day": 3}[read.precision]
    assert parts == [f"{day.year:04d}", f"{day.month:02d}", f"{day.day:02d}"][: len(parts)]
    words = read.texts()[0]
    assert (str(day.day) in words.split()) == (read.precision == "day")
    assert (calendar.month_name[day.month] in words) == (read.precision != "year")


@given(days, st.sampled_from([9, 10, 11]))
def test_an_answer_stating_the_gold_matches_and_one_a_year_off_does_not(
    day: date, precision: int
) -> None:
    gold = qualifier_date(key(day, precision))
    assert gold is not None
    for text in gold.texts():
        assert date_matches(text, gold.iso(), gold.precision)
        assert date_matches(f"It was in {text}.", gold.iso(), gold.precision)
    for offset in (-1, 1):
        other = gold.shifted(offset)
        if other is not None:
            assert other.precision == gold.precision
            assert not date_matches(other.texts()[0], gold.iso(), gold.precision)
    finer = f"{day.day} {calendar.month_name[day.month]} {day.year}"
    assert date_matches(finer, gold.iso(), gold.precision)  # more precise, and consistent
    coarser = str(day.year)
    assert date_matches(coarser, gold.iso(), gold.precision) == (gold.precision == "year")


def test_zero_month_or_day_lowers_the_precision() -> None:
    assert qualifier_date("+2005-00-00T00:00:00Z|11|Q1985727") == QualifierDate(
        2005, 0, 0, "year", GREGORIAN
    )
    month = qualifier_date("+2005-03-00T00:00:00Z|11|Q1985727")
    assert month is not None and month.iso() == "2005-03"
    bce = qualifier_date("-0044-03-15T00:00:00Z|11|Q1985786")
    assert bce is not None and bce.iso() == "-0044-03-15" and bce.texts()[0] == "15 March 44 BCE"
    assert qualifier_date("+2005-03-15T00:00:00Z|8|Q1985727") is None
    assert qualifier_date("Q42") is None and qualifier_date(None) is None


def _add_months(day: date, months: int) -> date | None:
    total = day.year * 12 + day.month - 1 + months
    year, month = divmod(total, 12)
    if not 1 <= year <= 9999:
        return None
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


@given(days, days)
def test_a_duration_counts_whole_units_elapsed(first: date, second: date) -> None:
    start, end = sorted((first, second))
    held = held_for(_day(start), _day(end))
    # the next whole unit is past the end (a month's last day may stand for a later day)
    if isinstance(held, str):
        after = _add_months(start, 1)
        assert held == "too_short"
        assert after is None or after > end or start.day > 28
        return
    months = held.count * (12 if held.unit == "years" else 1)
    assert held.count > 0 and (held.unit == "months") == (months < 12)
    reached = _add_months(start, months)
    assert reached is not None and reached <= end  # never more than elapsed
    after = _add_months(start, months + (12 if held.unit == "years" else 1))
    assert after is None or after > end or start.day > 28


def _day(day: date) -> QualifierDate:
    return QualifierDate(day.year, day.month, day.day, "day", GREGORIAN)


@given(st.integers(1, 3000), st.integers(0, 200), st.sampled_from(["year", "month", "day"]))
def test_a_year_precision_end_counts_the_difference_of_the_years(
    year: int, span: int, other: str
) -> None:
    start = QualifierDate(year, 6 if other != "year" else 0, 0, other, GREGORIAN)
    if other == "day":
        start = QualifierDate(year, 6, 15, "day", GREGORIAN)
    end = QualifierDate(year + span, 0, 0, "year", GREGORIAN)
    held = held_for(start, end)
    assert held == (Duration(span, "years") if span else "too_short")
    assert held_for(end, QualifierDate(year, 0, 0, "year", "Q1985786")) == "mixed_calendars"


@given(st.integers(1, 80), st.sampled_from(["years", "months"]))
def test_a_duration_answer_matches_its_count_in_its_unit(count: int, unit: str) -> None:
    held = Duration(count, unit)
    assert all(duration_matches(text, count, unit) for text in held.texts())
    other = "months" if unit == "years" else "years"
    assert not duration_matches(f"{count} {other}", count, unit)
    assert not duration_matches(Duration(count + 1, unit).text(), count, unit)
    assert not duration_matches(f"{count}.5 {unit}", count, unit)


def test_dates_are_read_in_words_iso_and_as_years() -> None:
    assert date_matches("March 2015", "2015-03", "month")
    assert date_matches("March 15, 2015", "2015-03-15", "day")
    assert date_matches("the 15th of March, 2015", "2015-03-15", "day")
    assert not date_matches("2015", "2015-03", "month")
    assert not date_matches("03/15/2015", "2015-03-15", "day")  # ambiguous, not read
    assert date_matches("44 BC", "-0044", "year")
    assert first_date("between 2014 and 2015") == first_date("2014")
    assert duration_matches("eight years", 8, "years") and not duration_matches("", 8, "years")


@given(st.integers(0, 2**32), st.integers(2, 8))
def test_the_abstention_is_the_gold_and_no_option_repeats(seed: int, size: int) -> None:
    noise = [f"Person {n}" for n in range(10)]
    choices = abstention_choices(["Angela Merkel"], ["Angela Merkel", "Merkel"], noise,
                                 random.Random(seed), size)  # fmt: skip
    assert choices is not None and len(choices.options) == size
    gold = "ABCDEFGH".index(choices.gold)
    assert choices.options[gold] == "I don't know" and choices.choice_types[gold] == "unknown"
    assert choices.choice_types.count("outdated") == 1
    assert len(set(choices.options)) == size


def test_the_abstention_is_at_a_uniformly_random_place() -> None:
    places = []
    for seed in range(4000):
        choices = abstention_choices([], [], ["Paris", "Rome", "Oslo"], random.Random(seed), 4)
        assert choices is not None
        places.append(choices.gold)
    assert all(850 <= places.count(place) <= 1150 for place in "ABCD")
