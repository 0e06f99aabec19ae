"""The rules of the temporal config's dates (kgdiff/export/temporal/dates.py) and of their
date-aware match (kgdiff/portable/date_match.py), as properties over arbitrary dates:
a date is asked and answered at its qualifier's precision and never finer, a duration counts
whole units and never more than elapsed, and an answer stating the gold matches while one a
year off does not (docs/benchmark-export.md#the-temporal-config, docs/scoring.md)."""

from __future__ import annotations

import calendar
from collections import Counter
from datetime import date
from typing import Any

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.export.distractors.human_roles import with_roles
from kgdiff.export.distractors.noise_tiers import NoiseTiers
from kgdiff.export.records.choice_frames import ChoiceSetting
from kgdiff.export.relations.catalogue import shipped_catalogue
from kgdiff.export.temporal import dates
from kgdiff.export.temporal.abstention_frames import abstention_others
from kgdiff.export.temporal.choices import ordered_options
from kgdiff.export.words.names import Name, Names
from kgdiff.export.words.word_frames import value_words
from kgdiff.portable.date_match import date_matches, duration_matches, first_date
from kgdiff.timetext import key_text
from tests.role_keys import role_keys_lazy

GREGORIAN = "Q1985727"
PRECISION_NUMBERS = {"year": 9, "month": 10, "day": 11}


def key(day: date, precision: int, calendar_qid: str = GREGORIAN) -> str:
    return f"+{day.year:04d}-{day.month:02d}-{day.day:02d}T00:00:00Z|{precision}|{calendar_qid}"


days = st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31))


def read(value: str) -> dict[str, Any] | None:
    """A value key read as the export reads it: the date's columns, its precision's name,
    ISO form, words and ISO alias (None when it is not asked: no time, or coarser)."""
    frame = dates.with_date(pl.DataFrame({"key": [value]}), pl.col("key"), "d")
    row = frame.with_columns(
        precision=dates.precision_name("d"),
        iso=dates.iso("d"),
        texts=pl.concat_list(dates.words("d"), dates.alias("d")).list.drop_nulls(),
    ).row(0, named=True)
    return None if row["d_precision"] is None else row


def shifted(value: str, years: int) -> str | None:
    """The words of the date ``years`` later, None when that crosses the era."""
    frame = dates.with_date(pl.DataFrame({"key": [value]}), pl.col("key"), "d")
    words: str | None = frame.select(dates.shifted_words("d", pl.lit(years))).item()
    return words


def held(start: str, end: str) -> tuple[int, str] | str:
    """How long a fact held from the value key ``start`` to ``end``, or why not asked."""
    frame = dates.with_date(pl.DataFrame({"s": [start], "e": [end]}), pl.col("s"), "s")
    frame = dates.with_date(frame, pl.col("e"), "e").with_columns(*dates.held_for("s", "e"))
    row = frame.row(0, named=True)
    return row["held_reason"] or (row["duration"], row["duration_unit"])


def duration_texts(count: int, unit: str) -> list[str]:
    """The answer's words: the count with its unit, then the count alone."""
    frame = pl.DataFrame({"count": [count], "unit": [unit]})
    text = frame.select(dates.duration_text(pl.col("count"), pl.col("unit"))).item()
    return [text, str(count)]


@given(days, st.integers(min_value=0, max_value=14))
def test_a_date_is_never_finer_than_its_qualifier(day: date, precision: int) -> None:
    got = read(key(day, precision))
    if precision < 9:
        assert got is None  # a decade, a century… is not asked
        return
    assert got is not None
    assert PRECISION_NUMBERS[got["precision"]] == min(precision, 11)
    parts = got["iso"].split("-")
    assert len(parts) == {"year": 1, "month": 2, "day": 3}[got["precision"]]
    assert parts == [f"{day.year:04d}", f"{day.month:02d}", f"{day.day:02d}"][: len(parts)]
    words = got["texts"][0]
    assert (str(day.day) in words.split()) == (got["precision"] == "day")
    assert (calendar.month_name[day.month] in words) == (got["precision"] != "year")


@given(days, st.sampled_from([9, 10, 11]))
def test_a_date_reads_as_every_face_writes_it(day: date, precision: int) -> None:
    """The column-wise words are kgdiff.timetext's: "30 CE", "4 October 1830"."""
    value = key(day, precision)
    got = read(value)
    assert got is not None and got["texts"][0] == key_text(value)


@given(days, st.sampled_from([9, 10, 11]))
def test_an_answer_stating_the_gold_matches_and_one_a_year_off_does_not(
    day: date, precision: int
) -> None:
    gold = read(key(day, precision))
    assert gold is not None
    for text in gold["texts"]:
        assert date_matches(text, gold["iso"], gold["precision"])
        assert date_matches(f"It was in {text}.", gold["iso"], gold["precision"])
    for offset in (-1, 1):
        other = shifted(key(day, precision), offset)
        if other is not None:
            assert not date_matches(other, gold["iso"], gold["precision"])
            if day.year + offset <= 9999:  # the date read again is at the same precision
                again = read(key(day.replace(year=day.year + offset, day=1), precision))
                assert again is not None and again["precision"] == gold["precision"]
    finer = f"{day.day} {calendar.month_name[day.month]} {day.year}"
    assert date_matches(finer, gold["iso"], gold["precision"])  # more precise, and consistent
    coarser = str(day.year)
    assert date_matches(coarser, gold["iso"], gold["precision"]) == (gold["precision"] == "year")


def test_zero_month_or_day_lowers_the_precision() -> None:
    year = read("+2005-00-00T00:00:00Z|11|Q1985727")
    assert year is not None
    assert (year["d_year"], year["d_month"], year["d_day"], year["precision"]) == (
        2005, 0, 0, "year",
    )  # fmt: skip
    assert year["d_calendar"] == GREGORIAN
    month = read("+2005-03-00T00:00:00Z|11|Q1985727")
    assert month is not None and month["iso"] == "2005-03"
    bce = read("-0044-03-15T00:00:00Z|11|Q1985786")
    assert bce is not None and bce["iso"] == "-0044-03-15"
    assert bce["texts"] == ["15 March 44 BCE", "-0044-03-15"]
    assert read("+2005-03-15T00:00:00Z|8|Q1985727") is None
    assert read("Q42") is None
    assert shifted("+2004-02-29T00:00:00Z|11|Q1985727", 1) == "28 February 2005"
    assert shifted("+0001-05-00T00:00:00Z|10|Q1985727", -1) is None  # no year 0


MEAN_MONTH = 365.2425 / 12
SLACK = 0.15
"""How far, in months, the rule's 30-day rounding of a part of a month and the calendar's
uneven months may put its count from the exact time elapsed."""


@given(days, days)
def test_a_duration_is_the_time_elapsed_to_the_nearest_unit(first: date, second: date) -> None:
    # people count a 7-year-10-month term as 8 years: the nearest unit, never the floor
    start, end = sorted((first, second))
    found = held(key(start, 11), key(end, 11))
    elapsed = (end - start).days / MEAN_MONTH  # in months
    if found == "too_short":
        assert elapsed < 1 + SLACK
        return
    if found == "half_a_year":  # 7 and 8 years would both be fair
        assert elapsed >= 12 - SLACK and abs(elapsed % 12 - 6) <= 0.5 + SLACK
        return
    if found == "half_a_month":
        assert elapsed < 12 + SLACK and abs(elapsed % 1 - 0.5) <= 2 / 30 + SLACK
        return
    assert isinstance(found, tuple), found
    count, unit = found
    assert count > 0
    if unit == "months":
        assert count < 12 and elapsed < 12 + SLACK
    else:
        assert elapsed >= 11.5 - SLACK
    months = count * (12 if unit == "years" else 1)
    assert abs(months - elapsed) <= (6 if unit == "years" else 0.5) + SLACK
    if unit == "years":
        assert abs(elapsed % 12 - 6) >= 0.5 - SLACK  # never left out far from half a year


@given(st.integers(1, 3000), st.integers(0, 200), st.sampled_from(["year", "month", "day"]))
def test_years_at_both_ends_count_the_difference_and_a_year_at_one_end_is_not_asked(
    year: int, span: int, other: str
) -> None:
    month, day = {"year": ("00", "00"), "month": ("06", "00"), "day": ("06", "15")}[other]
    number = PRECISION_NUMBERS[other]
    start = f"+{year:04d}-{month}-{day}T00:00:00Z|{number}|{GREGORIAN}"
    end = f"+{year + span:04d}-00-00T00:00:00Z|9|{GREGORIAN}"
    if not span:
        assert held(start, end) == "too_short"
    elif other == "year":
        assert held(start, end) == (span, "years")  # no rounding: the data say no more
    else:  # Einstein's 1940 - 18 April 1955 is 14 years or 15
        assert held(start, end) == "mixed_precision"
        first = f"+{year:04d}-00-00T00:00:00Z|9|{GREGORIAN}"
        later = f"+{year + span:04d}-{month}-{day}T00:00:00Z|{number}|{GREGORIAN}"
        assert held(first, later) == "mixed_precision"
    julian = f"+{year:04d}-00-00T00:00:00Z|9|Q1985786"
    assert held(end, julian) == "mixed_calendars"


@given(st.integers(1, 80), st.sampled_from(["years", "months"]))
def test_a_duration_answer_matches_its_count_in_its_unit(count: int, unit: str) -> None:
    assert all(duration_matches(text, count, unit) for text in duration_texts(count, unit))
    other = "months" if unit == "years" else "years"
    assert not duration_matches(f"{count} {other}", count, unit)
    assert not duration_matches(duration_texts(count + 1, unit)[0], count, unit)
    assert not duration_matches(f"{count}.5 {unit}", count, unit)
    assert duration_texts(1, unit)[0] == f"1 {unit[:-1]}"


def test_dates_are_read_in_words_iso_and_as_years() -> None:
    assert date_matches("March 2015", "2015-03", "month")
    assert date_matches("March 15, 2015", "2015-03-15", "day")
    assert date_matches("the 15th of March, 2015", "2015-03-15", "day")
    assert not date_matches("2015", "2015-03", "month")
    assert not date_matches("03/15/2015", "2015-03-15", "day")  # ambiguous, not read
    assert date_matches("44 BC", "-0044", "year")
    assert first_date("between 2014 and 2015") == first_date("2014")
    assert duration_matches("eight years", 8, "years") and not duration_matches("", 8, "years")


def _abstention_setting(size: int, people: int = 10) -> ChoiceSetting:
    """Choices of spouses (P26): Angela Merkel (alias Merkel) and ``people`` others, all
    women (Q5 and P21 female: a spouse's distractors have the gold's sex)."""
    book = {"Q1": Name("Angela Merkel", ("Merkel",), ("Q5",))}
    book |= {f"Q{n + 2}": Name(f"Person {n}", (), ("Q5",)) for n in range(people)}
    women = pl.DataFrame({"value": list(book), "pid": "P21", "role": "Q6581072"})
    words = with_roles(value_words(Names(book), list(book)), role_keys_lazy(women))
    pairs = pl.DataFrame({"pid": ["P26"] * len(book), "value": list(book)})
    catalogue = shipped_catalogue()
    return ChoiceSetting(0, size, catalogue, words, NoiseTiers.of(pairs, words, catalogue))


def _abstention_items(seed: int, size: int, count: int) -> pl.DataFrame:
    """``count`` unanswerable items whose group held Angela Merkel, in the order of
    ``seed``."""
    rows = pl.DataFrame(
        {
            "_id": [f"temporal/unanswerable/Q{n}/P26/1900" for n in range(count)],
            "subject": [f"Q{n + 1000}" for n in range(count)],
            "pid": ["P26"] * count,
            "group_objects": [["Q1"]] * count,
            "reason": ["unknown_value"] * count,
            "year": [1900] * count,
        }
    )
    tally: Counter[str] = Counter()
    kept = abstention_others(rows, _abstention_setting(size), tally)
    assert kept.height == count, tally
    return ordered_options(kept.with_columns(_gold=pl.lit("I don't know")), seed, "unknown")


@given(st.integers(0, 2**32), st.integers(2, 8))
def test_the_abstention_is_the_gold_and_no_option_repeats(seed: int, size: int) -> None:
    for item in _abstention_items(seed, size, 3).iter_rows(named=True):
        assert len(item["options"]) == size
        gold = "ABCDEFGH".index(item["gold"])
        assert item["options"][gold] == "I don't know"
        assert item["choice_types"][gold] == "unknown"
        assert item["choice_types"].count("outdated") == 1
        assert len(set(item["options"])) == size


def test_an_abstention_without_enough_options_is_left_out() -> None:
    few: Counter[str] = Counter()
    rows = pl.DataFrame(
        {
            "_id": ["a"],
            "subject": ["Q1000"],
            "pid": ["P26"],
            "group_objects": [["Q1"]],
            "reason": ["unknown_value"],
            "year": [1900],
        }
    )
    assert abstention_others(rows, _abstention_setting(4, people=1), few).is_empty()
    assert few == {"too_few_options": 1}  # one distractor, the outdated option and the gold


def test_the_abstention_is_at_a_uniformly_random_place() -> None:
    places = _abstention_items(7, 4, 4000).get_column("gold").to_list()
    assert all(850 <= places.count(place) <= 1150 for place in "ABCD")
