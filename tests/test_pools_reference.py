"""Object pools on hand-made statements, and against a day-by-day Python computation."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from itertools import pairwise
from typing import Any

import duckdb
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.sqlfiles import load_sql
from kgdiff.temporal.pools import pools
from tests.query_macros import add_query_macros

Bound = tuple[str | None, date | None, date | None]  # (snaktype, lo, hi)
Stmt = dict[str, Any]
OPEN: Bound = (None, None, None)
FIRST, LAST = 2000, 2002
Period = tuple[str, list[str], list[str], list[str], bool]
QUALIFIERS, KEYS = ("start", "end", "point"), ("snaktype", "lo", "hi")
DATE_COLUMNS = [f"{q}_{b}" for q in ("start", "end", "point") for b in ("lo", "hi")]


def day(text: str) -> Bound:
    when = date.fromisoformat(text)
    return ("value", when, when)


def year(number: int) -> Bound:
    return ("value", date(number, 1, 1), date(number, 12, 31))


def stmt(
    value: str,
    start: Bound = OPEN,
    end: Bound = OPEN,
    point: Bound = OPEN,
    rank: str = "normal",
    subject: str = "Q1",
) -> Stmt:
    row: Stmt = {"subject": subject, "pid": "P1", "rank": rank, "value": value}
    for name, (kind, lo, hi) in zip(QUALIFIERS, (start, end, point), strict=True):
        row |= {f"{name}_snaktype": kind, f"{name}_lo": lo, f"{name}_hi": hi}
    return row


def connect(
    latest: list[Stmt], connection: duckdb.DuckDBPyConnection | None = None
) -> duckdb.DuckDBPyConnection:
    """`snapshots`, `coverage` (no subset snapshot) and `statements` views: an old snapshot
    (never read) and the latest; no labels (the macros the SQL calls). Given a
    ``connection`` made by an earlier call, only its rows and the two views over them are
    replaced (its `coverage` view and macros read whatever the views show)."""
    old = stmt("OLD")  # unqualified: it would be in every pool if the old snapshot counted
    rows = [{"snapshot": "old", **old}] + [{"snapshot": "new", **row} for row in latest]
    names = list(rows[0])
    columns = {
        n: pa.array([r[n] for r in rows], pa.date32() if n in DATE_COLUMNS else None) for n in names
    }
    fresh = connection is None
    connection = duckdb.connect() if connection is None else connection
    snapshots = {"name": ["old", "new"], "date": [date(2014, 1, 1), date(2015, 1, 1)]}
    connection.register("snapshot_rows", pa.table(snapshots | {"coverage": ["full", "full"]}))
    connection.register("statement_rows", pa.table(columns))
    # (made anew each time: a column of the rows is typed by its values, NULL if all are None)
    connection.execute("CREATE OR REPLACE VIEW snapshots AS SELECT * FROM snapshot_rows")
    connection.execute("CREATE OR REPLACE VIEW statements AS SELECT * FROM statement_rows")
    if fresh:
        connection.execute(load_sql("catalog/coverage_empty"))
        add_query_macros(connection)
    return connection


def run(
    rows: list[Stmt],
    granularity: str = "year",
    connection: duckdb.DuckDBPyConnection | None = None,
) -> dict[str, dict[str, Any]]:
    """Pools per subject (Q1, Q2) of P1 over FIRST … LAST (on ``connection``, as
    :func:`connect` reuses it, if given)."""
    relation = pools(connect(rows, connection), None, "P1", FIRST, LAST, granularity)
    return {row[0]: dict(zip(relation.columns, row, strict=True)) for row in relation.fetchall()}


def test_gaps_take_the_previous_pool() -> None:
    got = run([stmt("A", day("2000-03-01"), day("2000-06-01")), stmt("B", day("2002-02-01"))])
    periods = got["Q1"]["periods"]
    assert [(p["objects"], p["filled"]) for p in periods] == [
        (["A"], False),
        (["A"], True),
        (["B"], False),
    ]


def test_leading_empty_periods_stay_empty() -> None:
    periods = run([stmt("A", day("2001-05-01"))])["Q1"]["periods"]
    assert [(p["objects"], p["filled"]) for p in periods] == [
        ([], False),
        (["A"], False),
        (["A"], False),
    ]
    assert run([stmt("A", day("2001-05-01"))])["Q1"]["state"] == "dynamic"


def test_unknown_bounds_and_events() -> None:
    got = run(
        [
            stmt("A", day("2001-05-01"), ("somevalue", None, None)),  # ended some time after
            stmt("B", point=day("2001-07-04")),  # an event
            stmt("C", point=year(2000), subject="Q2"),
            stmt("D", ("somevalue", None, None), day("2001-01-01"), subject="Q2"),
        ]
    )
    q1 = [(p["objects"], p["precision_only"]) for p in got["Q1"]["periods"]]
    assert q1 == [([], []), (["A", "B"], ["A"]), (["A"], ["A"])]
    q2 = [(p["objects"], p["precision_only"]) for p in got["Q2"]["periods"]]
    assert q2 == [(["C", "D"], ["D"])] * 3  # D may have ended any day before 2001
    assert [p["filled"] for p in got["Q2"]["periods"]] == [False, True, True]


def test_deprecated_only_groups_are_not_reported() -> None:
    assert run([stmt("A", rank="deprecated"), stmt("B", subject="Q2")]).keys() == {"Q2"}


# --------------------------------------------------------------------------------------------
# Property: the SQL equals a day-by-day reading of docs/classification.md's validity
# --------------------------------------------------------------------------------------------


def has(row: Stmt, qualifier: str) -> bool:
    """Whether the statement has the qualifier (a 'novalue' one counts as absent)."""
    return row[f"{qualifier}_snaktype"] in ("value", "somevalue")


def day_validity(row: Stmt, t: date) -> str:
    """'yes' / 'no' / 'maybe': is the statement with a start or an end valid on day t."""
    start, end = (row[f"start_{k}"] for k in KEYS), (row[f"end_{k}"] for k in KEYS)
    (s_kind, s_lo, s_hi), (e_kind, e_lo, e_hi) = start, end
    if (s_kind == "value" and s_lo > t) or (e_kind == "value" and e_hi <= t):
        return "no"
    if "somevalue" in (s_kind, e_kind):
        return "maybe"
    surely = (s_kind != "value" or s_hi <= t) and (e_kind != "value" or e_lo > t)
    return "yes" if surely else "maybe"


def overlap(row: Stmt, lo: date, hi: date) -> tuple[bool, bool]:
    """(may overlap, surely overlaps) the period [lo, hi]."""
    if has(row, "start") or has(row, "end"):
        seen = {day_validity(row, lo + timedelta(days=k)) for k in range((hi - lo).days + 1)}
        return seen != {"no"}, "yes" in seen
    if not has(row, "point"):
        return True, True
    if row["point_snaktype"] == "somevalue":
        return True, False
    point_lo, point_hi = row["point_lo"], row["point_hi"]
    return point_lo <= hi and point_hi >= lo, lo <= point_lo and point_hi <= hi


def periods_of(granularity: str) -> list[tuple[str, date, date]]:
    if granularity == "year":
        return [(str(y), date(y, 1, 1), date(y, 12, 31)) for y in range(FIRST, LAST + 1)]
    starts = [date(y, m, 1) for y in range(FIRST, LAST + 1) for m in range(1, 13)]
    ends = [*(s - timedelta(days=1) for s in starts[1:]), date(LAST, 12, 31)]
    return [(f"{s:%Y-%m}", s, e) for s, e in zip(starts, ends, strict=True)]


def own_pool(rows: list[Stmt], lo: date, hi: date) -> tuple[list[str], list[str], list[str]]:
    """(objects, precision_only, unqualified) of the period, before gap filling."""
    may, sure, unqualified = set(), set(), set()
    for row in rows:
        possible, surely = overlap(row, lo, hi)
        if possible:
            may.add(row["value"])
        if possible and surely:
            sure.add(row["value"])
        if possible and not any(has(row, q) for q in QUALIFIERS):
            unqualified.add(row["value"])
    return sorted(may), sorted(may - sure), sorted(unqualified)


def expected(rows: list[Stmt], granularity: str) -> dict[str, tuple[str, list[Period]]]:
    """Per reported subject: its state and its periods."""
    result = {}
    for subject in sorted({r["subject"] for r in rows}):
        mine = [r for r in rows if r["subject"] == subject and r["rank"] != "deprecated"]
        periods: list[Period] = []
        for label, lo, hi in periods_of(granularity):
            pool = own_pool(mine, lo, hi)
            if not pool[0] and periods and periods[-1][1]:
                periods.append((label, *periods[-1][1:4], True))
            else:
                periods.append((label, *pool, False))
        if any(p[1] for p in periods):
            dynamic = any(a[1] != b[1] for a, b in pairwise(periods))
            result[subject] = ("dynamic" if dynamic else "static", periods)
    return result


BOUND_DAYS = st.dates(date(FIRST - 1, 6, 1), date(LAST + 1, 6, 30))


@st.composite
def bounds(draw: st.DrawFn) -> Bound:
    kind = draw(st.sampled_from(["absent"] * 4 + ["day", "month", "year", "somevalue", "novalue"]))
    if kind in ("absent", "somevalue", "novalue"):
        return ({"absent": None}.get(kind, kind), None, None)
    when = draw(BOUND_DAYS)
    lo = {"day": when, "month": when.replace(day=1), "year": when.replace(month=1, day=1)}[kind]
    hi = {
        "day": when,
        "month": (lo + timedelta(days=32)).replace(day=1) - timedelta(days=1),
        "year": lo.replace(month=12, day=31),
    }[kind]
    return ("value", lo, hi)


STATEMENTS = st.builds(
    stmt,
    st.sampled_from(["A", "B", "C"]),
    bounds(),
    bounds(),
    bounds(),
    st.sampled_from(["normal"] * 4 + ["preferred", "deprecated"]),
    st.sampled_from(["Q1", "Q2"]),
)


@pytest.fixture(scope="module")
def reused() -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection whose macros are made once: each example shows its own rows on it."""
    with connect([]) as connection:
        yield connection


@settings(max_examples=120)
@given(st.lists(STATEMENTS, min_size=1, max_size=6), st.sampled_from(["year", "month"]))
def test_sql_matches_a_day_by_day_reading(
    reused: duckdb.DuckDBPyConnection, rows: list[Stmt], granularity: str
) -> None:
    got = {
        subject: (
            r["state"],
            [
                (p["period"], p["objects"], p["precision_only"], p["unqualified"], p["filled"])
                for p in r["periods"]
            ],
        )
        for subject, r in run(rows, granularity, reused).items()
    }
    assert got == expected(rows, granularity)
