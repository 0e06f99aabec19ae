"""Time values as people read them and as clients sort them (kgdiff/timetext.py), and the
catalog's macros that compute the same day keys in SQL (sql/timevalue/): issue 34, finding 11
(deep time)."""

from __future__ import annotations

from datetime import date

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.temporal.helper_macros import time_macros
from kgdiff.timetext import (
    DAY_KEY_MAX,
    DAY_KEY_MIN,
    bound_text,
    day_key,
    key_day,
    key_text,
    time_text,
    value_text,
)
from kgdiff.timevalue import (
    GREGORIAN_QID,
    JULIAN_QID,
    TimeValueError,
    parse_time,
    parse_time_key,
    time_key,
)
from tests.deep_time_data import EXPECTED_TEXTS

EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
CALENDARS = st.sampled_from([GREGORIAN_QID, JULIAN_QID, "Q12138"])


@st.composite
def wikidata_times(draw: st.DrawFn) -> tuple[str, int, str]:
    """A Wikidata time value: either sign, a year of 1 to 12 digits (zero-padded to four, as
    dumps write them), any month 00-12 and day 00-31, precision 0-14, a calendar."""
    digits = draw(st.integers(1, 12))
    year = draw(st.integers(0, 10**digits - 1))
    sign = draw(st.sampled_from("+-"))
    month, day = draw(st.integers(0, 12)), draw(st.integers(0, 31))
    time = f"{sign}{year:04d}-{month:02d}-{day:02d}T00:00:00Z"
    return time, draw(st.integers(0, 14)), draw(CALENDARS)


@pytest.fixture(scope="module")
def macros() -> duckdb.DuckDBPyConnection:
    connection = duckdb.connect()
    for statement in time_macros():
        connection.execute(statement)
    return connection


# --- the words -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), sorted(EXPECTED_TEXTS.items()))
def test_every_precision_in_words(value: tuple[str, int, str], expected: str) -> None:
    """From billions of years BCE to the far future, Julian dates marked."""
    assert time_text(*value) == expected
    assert key_text(time_key(*value)) == expected


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("+1887-07-26T00:00:00Z|11|Q1985727", "26 July 1887"),
        ("+1887-07-00T00:00:00Z|10|Q1985727", "July 1887"),
        ("+1880-00-00T00:00:00Z|8|Q1985727", "1880s"),
        ("+1801-00-00T00:00:00Z|7|Q1985727", "19th century"),
        ("+1900-00-00T00:00:00Z|7|Q1985727", "19th century"),
        ("+2000-00-00T00:00:00Z|6|Q1985727", "2nd millennium"),
        ("-0753-00-00T00:00:00Z|9|Q1985727", "753 BCE"),
        ("-0100-00-00T00:00:00Z|7|Q1985727", "1st century BCE"),
        ("+1887-07-26T00:00:00Z|10|Q1985727", "July 1887"),
        ("+1887-00-26T00:00:00Z|11|Q1985727", "1887"),
        ("-13800000000-00-00T00:00:00Z|1|Q1985727", "13.8 billion years BCE"),
        ("-13798000000-00-00T00:00:00Z|3|Q1985727", "13.798 billion years BCE"),
        ("-65500000-00-00T00:00:00Z|4|Q1985727", "65.5 million years BCE"),
        ("-999999-00-00T00:00:00Z|5|Q1985727", "1 million years BCE"),
        ("-5000-00-00T00:00:00Z|4|Q1985727", "100,000 BCE"),
        ("+1000000000000-00-00T00:00:00Z|0|Q1985727", "1,000 billion years CE"),
        ("+1800-06-01T00:00:00Z|11|Q12138", "1 June 1800 (Q12138)"),
        ("+0030-00-00T00:00:00Z|9|Q1985727", "30 CE"),
        ("+0999-00-00T00:00:00Z|9|Q1985727", "999 CE"),
        ("+1000-00-00T00:00:00Z|9|Q1985727", "1000"),
        ("+0476-09-04T00:00:00Z|11|Q1985786", "4 September 476 CE (Julian)"),
        ("+0870-00-00T00:00:00Z|8|Q1985727", "870s CE"),
    ],
)
def test_words_of_a_value_key(key: str, expected: str) -> None:
    assert key_text(key) == expected


def test_other_values_stand_for_themselves() -> None:
    for value in ("Q42", "+5|1", "<somevalue>", "en:hello", "1990-05-05|x|Q1"):
        assert value_text(value) == value
        assert key_day(value) is None
        with pytest.raises(TimeValueError):
            key_text(value)


def test_a_bound_with_several_dates() -> None:
    keys = ["+1950-09-28T00:00:00Z|11|Q1985727", "+1966-09-28T00:00:00Z|11|Q1985727"]
    assert bound_text(keys) == "28 September 1950 or 28 September 1966"
    assert bound_text([*keys, "+1970-00-00T00:00:00Z|9|Q1985727"]) == (
        "28 September 1950, 28 September 1966 or 1970"
    )
    assert bound_text(keys[:1]) == "28 September 1950"
    assert bound_text([]) is None and bound_text(None) is None


# --- the day key ---------------------------------------------------------------------------------


def test_day_keys_of_deep_time() -> None:
    """Far outside every date type: 13.798 billion years is about 5.04e12 days."""
    lo = key_day("-13798000000-00-00T00:00:00Z|3|Q1985727")
    assert lo is not None and -5.04e12 < lo < -5.03e12
    assert key_day("+1970-01-01T00:00:00Z|11|Q1985727") == 0
    assert day_key(10**40) == DAY_KEY_MAX and day_key(-(10**40)) == DAY_KEY_MIN


@given(wikidata_times())
def test_the_words_never_fail(value: tuple[str, int, str]) -> None:
    """Any value has words; those of a year or finer, or of years in thousands, millions or
    billions, say BCE exactly when it lies before the common era, and those of a year or finer
    say CE exactly when it is a year of the common era below 1000."""
    text = time_text(*value)
    assert text and text == key_text(time_key(*value))
    parsed = parse_time(*value)
    if parsed.precision >= 9:
        assert ("BCE" in text) == (parsed.year <= 0)
        # a year of the common era too short to read as one says so
        assert (" CE" in text) == (0 < parsed.year < 1000)
    if parsed.precision <= 5:
        assert text.endswith(" BCE" if parsed.year < 0 else " CE")


@given(wikidata_times(), wikidata_times())
def test_the_day_key_orders_like_the_dates(
    a: tuple[str, int, str], b: tuple[str, int, str]
) -> None:
    """Two values at day precision with real days, in one calendar, order like their
    (astronomical year, month, day); every value's key is its interval's first day."""
    pa_, pb = parse_time(*a), parse_time(*b)
    ka, kb = key_day(time_key(*a)), key_day(time_key(*b))
    assert ka is not None and kb is not None
    assert (ka, kb) == (pa_.interval.lo, pb.interval.lo)
    assert pa_.interval.lo <= pa_.interval.hi
    same_kind = pa_.calendar_qid == pb.calendar_qid and min(pa_.precision, pb.precision) >= 11
    if same_kind and all(p.month and p.day and p.day <= 28 for p in (pa_, pb)):
        da = (pa_.astronomical_year, pa_.month, pa_.day)
        db = (pb.astronomical_year, pb.month, pb.day)
        assert (ka < kb) == (da < db) and (ka == kb) == (da == db)


@given(st.dates(), st.integers(11, 14))
def test_the_day_key_of_a_gregorian_day_is_its_ordinal(day: date, precision: int) -> None:
    key = time_key(f"+{day.isoformat()}T00:00:00Z", precision, GREGORIAN_QID)
    assert key_day(key) == day.toordinal() - EPOCH_ORDINAL


@given(st.lists(wikidata_times(), min_size=1, max_size=40))
def test_the_catalog_macros_give_the_same_days(
    macros: duckdb.DuckDBPyConnection, values: list[tuple[str, int, str]]
) -> None:
    """``kgdiff_time_lo/hi`` in SQL are the Python interval, day for day."""
    keys = [time_key(*value) for value in values]
    rows = macros.execute(
        "SELECT k, kgdiff_time_lo(k), kgdiff_time_hi(k) FROM unnest(?) AS t(k)", [keys]
    ).fetchall()
    for key, lo, hi in rows:
        interval = parse_time_key(key).interval
        assert (lo, hi) == (day_key(interval.lo), day_key(interval.hi)), key


def test_the_catalog_macros_on_other_values(macros: duckdb.DuckDBPyConnection) -> None:
    row = macros.execute(
        "SELECT kgdiff_time_lo('Q42'), kgdiff_time_hi('+5|1'), kgdiff_time_lo(NULL),"
        " kgdiff_time_lo('-99999999999999999999-00-00T00:00:00Z|9|Q1985727')"
    ).fetchone()
    assert row == (None, None, None, DAY_KEY_MIN)
