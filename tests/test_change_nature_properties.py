"""Properties of the change nature (docs/classification.md#change-nature) on the classification
SQL: two different real values never have the same normal form (other URL paths or hosts,
identifiers beyond whitespace, case, hyphens and a number's leading zeros, other amounts or
units, other days), reformatting is symmetric, a time pinned down inside its year is refined,
and the SQL agrees with the independent reference (tests/nature_reference.py) on changes of
every kind, sets of several values included.

Each example classifies several drawn changes at once, each its own group: a subject whose
values are ``old`` in the snapshots read for init and the cutoff and ``new`` in the one read for
current (record time), so a change's nature is that of its one step."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from typing import NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reused_views import LoadedOnce
from tests.temporal_reference import Row, Snapshot
from tests.temporal_reference import classify as reference
from tests.test_classify import assert_same, sql_results

INIT, CUTOFF, CURRENT = date(2010, 6, 15), date(2015, 6, 15), date(2020, 6, 15)
DAYS = (date(2010, 1, 1), date(2015, 1, 1), date(2020, 1, 1))
PID = "P9"
GREGORIAN = "Q1985727"


class Value(NamedTuple):
    """A value as a statement holds it: its key, value type, datatype and days (times)."""

    key: str
    value_type: str
    datatype: str
    lo: date | None = None
    hi: date | None = None


Kind = Callable[[], st.SearchStrategy[tuple[object, st.SearchStrategy[Value]]]]
"""A kind of value: draws one value and the strategy of its spellings."""


class Change(NamedTuple):
    """A group's values before (init, cutoff) and after (current)."""

    old: tuple[Value, ...]
    new: tuple[Value, ...]


def row(subject: str, value: Value) -> Row:
    """A statement of ``subject`` without qualifiers holding ``value``."""
    return Row(subject, PID, "normal", "value", value.key, value.value_type, value.lo,
               value.hi, None, None, None, None, None, None, None, None, None,
               value.datatype)  # fmt: skip


def natures(reused_views: LoadedOnce, changes: list[Change]) -> list[str | None]:
    """The change nature the SQL gives each change (in order), after checking that it agrees
    with the reference on every column."""
    subjects = [f"Q{1000 + index}" for index in range(len(changes))]
    before = [row(s, v) for s, change in zip(subjects, changes, strict=True) for v in change.old]
    after = [row(s, v) for s, change in zip(subjects, changes, strict=True) for v in change.new]
    snapshots = [
        Snapshot(f"s{index}", day, tuple(rows))
        for index, (day, rows) in enumerate(zip(DAYS, (before, before, after), strict=True))
    ]
    got = sql_results(reused_views.load(snapshots), INIT, CUTOFF, CURRENT, "record")
    assert_same(reference(snapshots, INIT, CUTOFF, CURRENT, "record"), got)
    return [got[(subject, PID)].change_nature for subject in subjects]


# --------------------------------------------------------------------------------------------
# Values and their spellings: (what the value is, a strategy of its spellings)
# --------------------------------------------------------------------------------------------

HOSTS = ("wikiquote.org", "belgium.be", "example.com", "a-b.co.uk", "www2.example.com")
PATHS = ("", "/wiki", "/wiki/Main_Page", "/Wiki", "/a/b", "/a/b/c", "/?q=1", "/index.html")
WORDS = ("coat", "of", "arms", "Barbados", "svg", "new", "york", "San", "Francisco")
SPACES = (" ", "  ", "\t", "\u00a0", " \u00a0")


def cased(draw: st.DrawFn, text: str) -> str:
    """``text`` with each letter's case drawn."""
    return "".join(c.upper() if draw(st.booleans()) else c.lower() for c in text)


@st.composite
def spelled_url(draw: st.DrawFn, host: str, path: str) -> Value:
    """A spelling of the URL of ``host`` and ``path``: scheme, ``www.``, case, slashes."""
    scheme = draw(st.sampled_from(("http", "https", "HTTPS")))
    www = "www." if draw(st.booleans()) else ""
    slashes = "/" * draw(st.integers(0, 2))
    return Value(f"{scheme}://{www}{cased(draw, host)}{path}{slashes}", "string", "url")


@st.composite
def urls(draw: st.DrawFn) -> tuple[object, st.SearchStrategy[Value]]:
    """What a URL is (its host without ``www.``, any case, and its path without trailing
    slashes), and a strategy of its spellings."""
    host, path = draw(st.sampled_from(HOSTS)), draw(st.sampled_from(PATHS))
    return (host, path.rstrip("/")), spelled_url(host, path)


@st.composite
def spelled_identifier(draw: st.DrawFn, chars: str) -> Value:
    """A spelling of an identifier: case, whitespace and hyphens, a number's leading zeros."""
    if chars.isdigit():
        chars = "0" * draw(st.integers(0, 3)) + chars
    spelled = ""
    for char in chars:
        spelled += draw(st.sampled_from(("", "", "", " ", "-", "\u00a0"))) + cased(draw, char)
    return Value(spelled, "string", "external-id")


@st.composite
def identifiers(draw: st.DrawFn) -> tuple[object, st.SearchStrategy[Value]]:
    """What an external identifier is (its characters without whitespace and hyphens, in
    lower case, a number without leading zeros), and a strategy of its spellings."""
    alphabet = draw(st.sampled_from(("0123456789", "0123456789abcdefx")))
    chars = draw(st.text(alphabet, min_size=1, max_size=9))
    identity = (chars.lstrip("0") or "0") if chars.isdigit() else chars
    return identity, spelled_identifier(chars)


@st.composite
def spelled_string(draw: st.DrawFn, words: list[str]) -> Value:
    """A spelling of a string of ``words``: whitespace and case."""
    spelled = draw(st.sampled_from(("", " ")))
    for index, word in enumerate(words):
        spelled += (draw(st.sampled_from(SPACES)) if index else "") + cased(draw, word)
    spelled += draw(st.sampled_from(("", " ", "\t")))
    return Value(spelled, "string", "string")


@st.composite
def strings(draw: st.DrawFn) -> tuple[object, st.SearchStrategy[Value]]:
    """What a string is (its words in lower case), and a strategy of its spellings."""
    words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
    return " ".join(words).lower(), spelled_string(words)


@st.composite
def spelled_quantity(draw: st.DrawFn, amount: Decimal, unit: str) -> Value:
    """A spelling of a quantity: its sign's ``+``, leading and trailing zeros."""
    text = f"{abs(amount):f}"
    if draw(st.booleans()):
        text += ("" if "." in text else ".") + "0" * draw(st.integers(1, 2))
    text = "0" * draw(st.integers(0, 2)) + text
    sign = "-" if amount < 0 else draw(st.sampled_from(("+", "")))
    return Value(f"{sign}{text}|{unit}", "quantity", "quantity")


@st.composite
def quantities(draw: st.DrawFn) -> tuple[object, st.SearchStrategy[Value]]:
    """What a quantity is (its amount as a number, its unit), and a strategy of its
    spellings."""
    amount = Decimal(draw(st.integers(-2000, 2000))) / (10 ** draw(st.integers(0, 2)))
    unit = draw(st.sampled_from(("1", "Q11573", "Q174728")))
    return (amount, unit), spelled_quantity(amount, unit)


@st.composite
def spelled(draw: st.DrawFn, kinds: tuple[Kind, ...] = ()) -> tuple[object, Value]:
    """A value of a drawn kind: what it is, and one spelling of it."""
    kind = draw(st.sampled_from(kinds or KINDS))
    identity, spellings = draw(kind())
    return identity, draw(spellings)


def year_value(year: int) -> Value:
    """A time of year precision."""
    days = (date(year, 1, 1), date(year, 12, 31))
    return Value(f"+{year}-00-00T00:00:00Z|9|{GREGORIAN}", "time", "time", *days)


def day_value(day: date) -> Value:
    """A time of day precision."""
    return Value(f"+{day.isoformat()}T00:00:00Z|11|{GREGORIAN}", "time", "time", day, day)


KINDS = (urls, identifiers, strings, quantities)


def pairs_of(kind: Kind) -> st.SearchStrategy[tuple[tuple[object, Value], tuple[object, Value]]]:
    """Two values of one kind (often the same value: the kinds draw from small pools)."""
    return st.tuples(spelled((kind,)), spelled((kind,)))


days = st.dates(date(1800, 1, 1), date(2030, 12, 31))


@st.composite
def spellings_of_one_value(draw: st.DrawFn) -> tuple[Value, Value]:
    """Two different spellings of the same value (of any kind but time)."""
    _, spellings = draw(st.sampled_from(KINDS).flatmap(lambda kind: kind()))
    first = draw(spellings)
    return first, draw(spellings.filter(lambda other: other.key != first.key))


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------


@settings(max_examples=25)
@given(st.lists(st.sampled_from(KINDS).flatmap(pairs_of), min_size=1, max_size=8))
def test_different_values_are_never_reformatted_and_spellings_always_are(
    reused_views: LoadedOnce,
    pairs: list[tuple[tuple[object, Value], tuple[object, Value]]],
) -> None:
    """A change between two values of one kind is reformatted exactly when they are the same
    value (what each is is computed apart from any spelling); else it is substantive."""
    kept = [(a, b) for a, b in pairs if a[1].key != b[1].key]
    found = natures(reused_views, [Change((a[1],), (b[1],)) for a, b in kept])
    expected = ["reformatted" if a[0] == b[0] else "substantive" for a, b in kept]
    assert found == expected


@settings(max_examples=25)
@given(st.lists(spellings_of_one_value(), min_size=1, max_size=6))
def test_reformatting_is_symmetric(
    reused_views: LoadedOnce, pairs: list[tuple[Value, Value]]
) -> None:
    """Two spellings of a value: reformatted from either to the other."""
    changes = [Change((a,), (b,)) for a, b in pairs] + [Change((b,), (a,)) for a, b in pairs]
    assert natures(reused_views, changes) == ["reformatted"] * len(changes)


@settings(max_examples=25)
@given(st.lists(st.tuples(st.integers(1800, 2030), days), min_size=1, max_size=8))
def test_a_time_pinned_down_inside_its_year_is_refined(
    reused_views: LoadedOnce, pairs: list[tuple[int, date]]
) -> None:
    """A year made a day of that year is refined; a day of another year, or a day made its
    year (less precise), is substantive; another day at the same precision too."""
    changes, expected = [], []
    for year, day in pairs:
        changes.append(Change((year_value(year),), (day_value(day),)))
        expected.append("refined" if day.year == year else "substantive")
        changes.append(Change((day_value(day),), (year_value(year),)))
        expected.append("substantive")
        changes.append(Change((day_value(day),), (day_value(day + timedelta(days=1)),)))
        expected.append("substantive")
    assert natures(reused_views, changes) == expected


@st.composite
def coordinates(draw: st.DrawFn) -> Value:
    """A coordinate written with 0 to 4 decimals (Python's repr, as the ingest writes it)."""
    lat = round(draw(st.floats(-89.0, 89.0)), draw(st.integers(0, 4)))
    lon = round(draw(st.floats(-179.0, 179.0)), draw(st.integers(0, 4)))
    return Value(f"{lat!r},{lon!r},Q2", "globecoordinate", "globe-coordinate")


@st.composite
def near(draw: st.DrawFn, coarse: Value) -> Value:
    """A coordinate near ``coarse``, often written with more decimals inside its rounding."""
    lat, lon = (float(part) for part in coarse.key.split(",")[:2])
    offset = st.floats(-0.6, 0.6).map(lambda x: x * 10 ** -draw(st.integers(0, 3)))
    digits = st.integers(0, 6)
    fine_lat, fine_lon = round(lat + draw(offset), draw(digits)), round(lon + draw(offset), 4)
    return Value(f"{fine_lat!r},{fine_lon!r},Q2", "globecoordinate", "globe-coordinate")


@st.composite
def changes_of_every_kind(draw: st.DrawFn) -> Change:
    """Sets of one to three values of one kind before and after (times and coordinates
    often pinned down, the other kinds often respelled)."""
    kind = draw(st.sampled_from(("spelled", "time", "coordinate", "text")))
    if kind == "time":
        years = draw(st.lists(st.integers(1990, 1993), min_size=1, max_size=2))
        old = [year_value(year) for year in years]
        new = [day_value(draw(st.dates(date(1989, 12, 1), date(1994, 1, 31)))) for _ in years]
        new += draw(st.lists(st.sampled_from(old), max_size=1))
    elif kind == "coordinate":
        old = draw(st.lists(coordinates(), min_size=1, max_size=2))
        new = [draw(near(value)) for value in old]
    elif kind == "text":
        words = st.tuples(st.sampled_from(("en", "EN", "de")), spelled((strings,)))
        pick = words.map(lambda w: Value(f"{w[0]}:{w[1][1].key}", "monolingualtext", "text"))
        old, new = draw(st.lists(pick, min_size=1, max_size=2)), draw(st.lists(pick, max_size=2))
    else:
        maker = spelled((draw(st.sampled_from(KINDS)),))
        old = [v for _, v in draw(st.lists(maker, min_size=1, max_size=3))]
        new = [v for _, v in draw(st.lists(maker, min_size=1, max_size=3))]
    return Change(tuple(old), tuple(new or old[:1]))


@settings(max_examples=40)
@given(st.lists(changes_of_every_kind(), min_size=1, max_size=8))
def test_the_sql_agrees_with_the_reference_on_changes_of_every_kind(
    reused_views: LoadedOnce,
    changes: list[Change],
) -> None:
    found = natures(reused_views, changes)  # checks the agreement
    for change, nature in zip(changes, found, strict=True):
        same = {v.key for v in change.old} == {v.key for v in change.new}
        assert (nature is None) == same
