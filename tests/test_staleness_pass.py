"""The one-pass staleness curve (sql/staleness/curve.sql) counts, at every month, exactly the
levels of the classification with that month as the cutoff, in record and valid time.

Generated histories (snapshots a few months apart, qualifiers near the month starts, merges,
subset snapshots) are checked against one `classify` per month on the same views, whole and
cut into parts and windows of months; a small ingested store against `kg.classify` per month,
where record time's months that read the same snapshot differ (the old curve shared one
classification between them); and the curve makes no classification at all.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kgdiff
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.classify import classify
from kgdiff.temporal.curve_pass import MonthCounts, curve_counts
from kgdiff.temporal.dates import GapPolicy
from kgdiff.temporal.parts import EVERY_GROUP, cut
from kgdiff.temporal.staleness import month_cutoffs, staleness_curve
from tests.reused_views import LoadedOnce
from tests.temporal_reference import Snapshot
from tests.temporal_reference import classify as reference
from tests.temporal_strategies import (
    CREATED_AT,
    GROUPS,
    LIFE_SHAPE,
    day,
    draw_evolved,
    draw_statements,
    pools_for,
    qualifier_days,
    snapshots_of,
    statement,
    with_coverage,
    with_entities,
    with_merges,
    year,
)
from tests.test_classify import load

MODES = ("record", "valid")
ANY_GAP = GapPolicy(allow=True)


@st.composite
def curve_histories(draw: st.DrawFn) -> list[Snapshot]:
    """2–4 snapshots within 1–9 months, groups evolving across them (as
    ``tests.temporal_strategies.histories`` draws them), qualifier days near the snapshots'
    dates and the month starts between them, merges and subset snapshots."""
    first = draw(st.dates(date(2013, 1, 1), date(2016, 12, 31)))
    span = draw(st.integers(32, 270))
    inner = draw(st.lists(st.integers(1, span - 1), max_size=2, unique=True))
    dates = [first, *(first + timedelta(days=d) for d in sorted(inner)), first + timedelta(span)]
    months = month_cutoffs(dates[0], dates[-1])
    pools = pools_for(qualifier_days([*dates, *months]))
    groups = draw(GROUPS)
    for subject in sorted({subject for subject, _ in groups}):
        groups += [(subject, pid) for pid in draw(LIFE_SHAPE)]
    created = {subject: draw(st.sampled_from(CREATED_AT)) for subject, _ in groups}
    rows_per_snapshot: list[list[Any]] = [[] for _ in dates]
    for subject, pid in groups:
        rows = draw_statements(draw, subject, pid, pools)
        for position, snapshot_rows in enumerate(rows_per_snapshot):
            if position > 0:
                rows = draw_evolved(draw, subject, pid, rows, pools)
            if position >= created[subject]:
                snapshot_rows.extend(rows)
    snapshots = draw(with_merges(snapshots_of(*zip(dates, rows_per_snapshot, strict=True))))
    return [draw(with_coverage(s)) for s in snapshots]


def span_of(snapshots: list[Snapshot]) -> tuple[date, list[date], date]:
    """The curve's dates: the first snapshot's, the month starts after it, the last one's."""
    init, current = snapshots[0].date, snapshots[-1].date
    return init, month_cutoffs(init, current), current


def loaded(snapshots: list[Snapshot]) -> duckdb.DuckDBPyConnection:
    connection = duckdb.connect()
    load(connection, snapshots)
    return connection


def referenced(
    snapshots: list[Snapshot], days: tuple[date, list[date], date], mode: str
) -> MonthCounts:
    """The Python reference (tests/temporal_reference.py) classified at every month."""
    init, months, current = days
    counts = {}
    for cutoff in months:
        groups = reference(snapshots, init, cutoff, current, mode).values()
        counts[cutoff] = dict(Counter(group.level for group in groups))
    return counts


def classified(
    connection: duckdb.DuckDBPyConnection, days: tuple[date, list[date], date], mode: str
) -> MonthCounts:
    """`classify` (sql/classify/classify.sql) run at every month, its groups counted."""
    init, months, current = days
    counts = {}
    for cutoff in months:
        rows = classify(connection, init, cutoff, current, mode, ANY_GAP).fetchall()
        counts[cutoff] = dict(Counter(str(row[2]) for row in rows))
    return counts


@settings(max_examples=30)
@given(curve_histories())
def test_the_curve_equals_the_reference_at_every_month(
    reused_views: LoadedOnce, snapshots: list[Snapshot]
) -> None:
    connection, days = reused_views.load(snapshots), span_of(snapshots)
    for mode in MODES:
        got = curve_counts(connection, days, mode, [EVERY_GROUP])
        assert got == referenced(snapshots, days, mode), mode


@settings(max_examples=5)
@given(curve_histories())
def test_the_curve_equals_classify_at_every_month(
    reused_views: LoadedOnce, snapshots: list[Snapshot]
) -> None:
    connection, days = reused_views.load(snapshots), span_of(snapshots)
    for mode in MODES:
        got = curve_counts(connection, days, mode, [EVERY_GROUP])
        assert got == classified(connection, days, mode), mode


@settings(max_examples=12)
@given(snapshots=curve_histories(), data=st.data())
def test_parts_and_windows_add_up_to_the_whole_curve(
    reused_views: LoadedOnce, snapshots: list[Snapshot], data: st.DataObject
) -> None:
    """Subject ranges, the merged groups, and windows of a few months each: the counts of
    the runs add up to those of one run."""
    connection, days = reused_views.load(snapshots), span_of(snapshots)
    subjects = sorted({row.subject for s in snapshots for row in s.rows}) or [""]
    parts = cut(sorted(data.draw(st.lists(st.sampled_from(subjects), max_size=4))), 2)
    window = data.draw(st.sampled_from((2, 3)))
    mode = data.draw(st.sampled_from(MODES))
    whole = curve_counts(connection, days, mode, [EVERY_GROUP])
    assert curve_counts(connection, days, mode, parts, months_per_run=window) == whole


def test_more_months_than_one_mask_holds_take_several_runs() -> None:
    """65 months: two runs of 61 months at most; changes in the first month, in the 61st and
    62nd (either side of the runs' border), on a month's first day and a year-precision start
    (ambiguous all that year) come out at the right months."""
    rows = [
        statement("Q1", "P1", "Q100", start=day(date(2010, 3, 10))),
        statement("Q1", "P2", "Q101", start=year(2015)),
        statement("Q2", "P1", "Q102", end=day(date(2015, 2, 20))),
        statement("Q2", "P3", "Q103", start=day(date(2015, 3, 1))),
        statement("Q3", "P1", "Q104", start=day(date(2015, 6, 1))),
    ]
    snapshots = snapshots_of((date(2010, 1, 15), rows[:1]), (date(2015, 6, 15), rows))
    snapshots = [with_entities(s, {}) for s in snapshots]
    connection, days = loaded(snapshots), span_of(snapshots)
    assert len(days[1]) == 65
    months = days[1]
    for mode in MODES:
        got = curve_counts(connection, days, mode, [EVERY_GROUP])
        assert got == referenced(snapshots, days, mode), mode
        assert curve_counts(connection, days, mode, [EVERY_GROUP], months_per_run=20) == got
        assert got[date(2010, 3, 1)] != got[date(2010, 4, 1)], mode  # Q1's start
    assert (months[60], months[61]) == (date(2015, 2, 1), date(2015, 3, 1))
    assert got[months[60]] != got[months[61]]  # valid time: Q2's end and start


def test_values_without_a_key_count_as_classify_counts_them() -> None:
    """A statement whose value is NULL (a datatype the ingest keeps no key for) is a value of
    its group like any other in a group of one original subject (beside a measurement series,
    or of a merge's target), and left out where items merged into the group gather the
    statements of several (as classify.sql does)."""
    census = [
        statement("Q1", "P1082", "+100|1", point=day(date(2014, 2, 10))),
        statement("Q1", "P1082", "+120|1", point=day(date(2014, 4, 10))),
    ]
    keyless = [replace(statement("Q1", "P1082", "Q9"), value=None, value_type=None)]
    keyless += [replace(statement("Q3", "P3", "Q9"), value=None, value_type=None)]
    keyless += [replace(statement("Q2", "P2", "Q9", end=day(date(2014, 3, 5))), value=None)]
    rows = [*census, statement("Q3", "P2", "Q100", start=day(date(2014, 2, 20)))]
    rows += [statement("Q3", "P3", "Q101", start=day(date(2014, 3, 15)))]
    first = with_entities(snapshots_of((date(2014, 1, 1), rows + keyless))[0], {})
    last = snapshots_of((date(2014, 6, 30), rows + keyless[:2]))[0]
    snapshots = [first, with_entities(replace(last, name="s1"), {"Q2": "Q3"})]
    connection, days = loaded(snapshots), span_of(snapshots)
    for mode in MODES:
        assert curve_counts(connection, days, mode, [EVERY_GROUP]) == classified(
            connection, days, mode
        ), mode


def test_months_must_be_consecutive_month_starts() -> None:
    connection = loaded(snapshots_of((date(2014, 1, 1), []), (date(2014, 12, 31), [])))
    days = (date(2014, 1, 1), [date(2014, 2, 1), date(2014, 4, 1)], date(2014, 12, 31))
    with pytest.raises(ValueError, match="consecutive month starts"):
        curve_counts(connection, days, "valid", [EVERY_GROUP])
    with pytest.raises(ValueError, match="'both'"):
        curve_counts(connection, (days[0], days[1][:1], days[2]), "both", [EVERY_GROUP])


# --------------------------------------------------------------------------------------------
# A store: record time's months that read the same snapshot, and no classification made
# --------------------------------------------------------------------------------------------

SNAPSHOT_DATES = {"s0": "2014-01-01", "s1": "2014-03-01", "s2": "2014-12-31"}
TAKES_OFFICE = "2014-05-15"  # between the months s1 is read for in record time
GREGORIAN = "http://www.wikidata.org/entity/Q1985727"


def item(qid: str, claims: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    labels = {"en": {"language": "en", "value": qid}}
    return {"type": "item", "id": qid, "labels": labels, "claims": claims, "sitelinks": {}}


def item_snak(pid: str, qid: str) -> dict[str, Any]:
    value = {"entity-type": "item", "numeric-id": int(qid[1:]), "id": qid}
    datavalue = {"type": "wikibase-entityid", "value": value}
    return {
        "snaktype": "value",
        "property": pid,
        "datatype": "wikibase-item",
        "datavalue": datavalue,
    }


def day_snak(pid: str, when: str) -> dict[str, Any]:
    time = {"time": f"+{when}T00:00:00Z", "timezone": 0, "before": 0, "after": 0}
    time |= {"precision": 11, "calendarmodel": GREGORIAN}
    datavalue = {"type": "time", "value": time}
    return {"snaktype": "value", "property": pid, "datatype": "time", "datavalue": datavalue}


def claim(sid: str, snak: dict[str, Any], *qualifiers: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {"id": sid, "type": "statement", "rank": "normal", "mainsnak": snak}
    if qualifiers:
        found["qualifiers"] = {q["property"]: [q] for q in qualifiers}
    return found


def dump_of(name: str) -> list[dict[str, Any]]:
    """Q1 is human in every snapshot; from s1 on it holds an office from TAKES_OFFICE."""
    claims = {"P31": [claim("Q1$a", item_snak("P31", "Q5"))]}
    if name != "s0":
        office = claim("Q1$b", item_snak("P39", "Q100"), day_snak("P580", TAKES_OFFICE))
        claims["P39"] = [office]
    return [item("Q1", claims), item("Q5", {}), item("Q100", {})]


@pytest.fixture(scope="module")
def office_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("office")
    store = folder / "store"
    for name, when in SNAPSHOT_DATES.items():
        dump = folder / f"{name}.json"
        lines = ",\n".join(json.dumps(entity) for entity in dump_of(name))
        dump.write_text(f"[\n{lines}\n]\n", encoding="utf-8")
        request = IngestRequest(dump, snapshot=name, date=when, store=store, coverage="full")
        ingest_wikidata(request)
    return store


def builds_in(store: Path) -> list[Path]:
    folder = store / "builds" / "classify"
    return sorted(folder.iterdir()) if folder.is_dir() else []


@pytest.mark.parametrize("mode", MODES)
def test_the_curve_of_a_store_equals_classify_at_every_month(
    office_store: Path, tmp_path: Path, mode: str
) -> None:
    """In record time the months from March to December read s1, and the office starts
    between them: uncharted before, recent after, as `classify` finds month by month."""
    store = tmp_path / "store"
    shutil.copytree(office_store, store)
    curve = staleness_curve(StoreLayout.resolve(store), mode)
    months = month_cutoffs(date(2014, 1, 1), date(2014, 12, 31))
    kg = kgdiff.open(store)
    for cutoff in months:
        expected = dict(kg.classify(cutoff, mode=mode)["level"].value_counts().rows())
        month = curve.filter(pl.col("cutoff") == cutoff)
        got = {level: n for level, n in month.select("level", "groups").rows() if n}
        assert got == expected, cutoff
    june = curve.filter((pl.col("cutoff") == date(2014, 6, 1)) & (pl.col("level") == "recent"))
    assert june["groups"].to_list() == [1]


@pytest.mark.parametrize("mode", MODES)
def test_the_curve_makes_no_classification(office_store: Path, tmp_path: Path, mode: str) -> None:
    """One pass, not a classification build per month (or per snapshot read)."""
    store = tmp_path / "store"
    shutil.copytree(office_store, store)
    staleness_curve(StoreLayout.resolve(store), mode)
    assert builds_in(store) == []


def test_mode_both_is_classified_month_by_month(office_store: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    shutil.copytree(office_store, store)
    curve = staleness_curve(StoreLayout.resolve(store), "both")
    months = month_cutoffs(date(2014, 1, 1), date(2014, 12, 31))
    assert len(builds_in(store)) == len(months)
    kg = kgdiff.open(store)
    for cutoff in months:
        expected = dict(kg.classify(cutoff, mode="both")["level"].value_counts().rows())
        month = curve.filter(pl.col("cutoff") == cutoff)
        assert {lv: n for lv, n in month.select("level", "groups").rows() if n} == expected
