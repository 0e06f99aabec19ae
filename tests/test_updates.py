"""AntiLeakBench knowledge updates (sql/updates/updates.sql), on real and generated data."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import closing
from datetime import date, timedelta
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.temporal.dates import GapPolicy
from kgdiff.temporal.parts import EVERY_GROUP, cut
from kgdiff.temporal.updates import UpdatesQuery, knowledge_updates, updates_in_parts
from tests.paths import run_kgdiff
from tests.reused_views import LoadedOnce
from tests.temporal_reference import Row, Snapshot
from tests.temporal_reference import classify as reference
from tests.temporal_strategies import Qual, day, histories, snapshots_of, statement, year

S, P = "Q1", "P54"
OLD, NEW = "Q100", "Q101"
CUTOFF, CURRENT = date(2015, 6, 15), date(2020, 6, 15)
D0, D1, D2 = date(2010, 1, 1), date(2015, 1, 1), date(2020, 1, 1)
ONE_DAY = timedelta(days=1)
SCHROEDER, MERKEL = "Q2530", "Q567"
UPDATE_COLUMNS = [
    "subject", "pid", "new_object", "old_objects", "new_statement_id", "new_start_lo",
    "new_start_hi", "old_statement_ids", "old_end_hi", "snapshot", "gap_days",
    "subject_label", "pid_label", "new_object_label", "old_objects_labels", "change_nature",
]  # fmt: skip


@pytest.fixture(scope="module")
def views() -> Iterator[LoadedOnce]:
    """One connection's views and macros (the queries' too), made once for this module's
    tests and examples: each registers its own rows."""
    with closing(LoadedOnce(query_macros=True)) as made:
        yield made


def updates_of(
    views: LoadedOnce, snapshots: list[Snapshot], cutoff: date, current: date
) -> list[dict[str, object]]:
    """The updates the SQL finds in these snapshots. The histories test which groups are
    updates, at dates their snapshots do not always reach (CURRENT is 166 days after the
    last one): the distance to the data is tested on the real store
    (tests/test_grounded_answers.py), so these runs allow the gap."""
    connection = views.load(snapshots)
    relation = knowledge_updates(connection, cutoff, current, GapPolicy(allow=True))
    rows: list[dict[str, object]] = relation.to_arrow_table().to_pylist()
    return rows


def team_history(old: Row, new: Row) -> list[Snapshot]:
    """The old team alone before the cutoff; afterwards both (the old one ended)."""
    return snapshots_of((D0, [old]), (D1, [old]), (D2, [old, new]))


def test_a_transfer_after_the_cutoff_is_an_update(views: LoadedOnce) -> None:
    old = statement(S, P, OLD, start=day(date(2012, 7, 1)), end=day(date(2016, 6, 30)))
    new = statement(S, P, NEW, start=day(date(2016, 7, 1)))
    [found] = updates_of(views, team_history(old, new), CUTOFF, CURRENT)
    assert (found["subject"], found["pid"], found["new_object"]) == (S, P, NEW)
    assert found["old_objects"] == [OLD]
    assert (found["new_start_lo"], found["old_end_hi"]) == (date(2016, 7, 1), date(2016, 6, 30))


@pytest.mark.parametrize(
    ("old_end", "new_start", "why"),
    [
        (day(date(2016, 6, 30)), year(2015), "the start's year contains the cutoff"),
        (day(date(2015, 3, 1)), day(date(2016, 7, 1)), "the old object ended before the cutoff"),
        (None, day(date(2016, 7, 1)), "the old object never ended"),
        (day(date(2016, 6, 30)), None, "the new object has no start"),
        (day(date(2016, 6, 30)), day(date(2021, 1, 1)), "the new object starts after current"),
    ],
)
def test_what_is_not_an_update(
    views: LoadedOnce, old_end: Qual | None, new_start: Qual | None, why: str
) -> None:
    old = statement(S, P, OLD, start=day(date(2012, 7, 1)), end=old_end)
    new = statement(S, P, NEW, start=new_start)
    assert updates_of(views, team_history(old, new), CUTOFF, CURRENT) == [], why


def test_deprecated_statements_and_returns_are_not_updates(views: LoadedOnce) -> None:
    old = statement(S, P, OLD, start=day(date(2012, 7, 1)), end=day(date(2016, 6, 30)))
    deprecated = statement(S, P, NEW, "deprecated", start=day(date(2016, 7, 1)))
    assert updates_of(views, team_history(old, deprecated), CUTOFF, CURRENT) == []
    back = statement(S, P, OLD, start=day(date(2017, 7, 1)))
    assert updates_of(views, team_history(old, back), CUTOFF, CURRENT) == []


def test_germanys_head_of_government_in_the_real_samples(sample_store: Path) -> None:
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        rows = knowledge_updates(connection, date(2005, 6, 1), date(2014, 12, 31))
        found = [r for r in rows.to_arrow_table().to_pylist() if r["subject"] == "Q183"]
    heads = [r for r in found if r["pid"] == "P6"]
    assert [(r["old_objects"], r["new_object"]) for r in heads] == [([SCHROEDER], MERKEL)]
    assert heads[0]["new_start_lo"] == date(2005, 11, 22)
    assert heads[0]["snapshot"] == "wd-2014-12"


@settings(max_examples=60)
@given(histories(merges=False))
def test_updates_are_exactly_the_replaced_groups_with_an_ended_and_a_started_statement(
    views: LoadedOnce, history
) -> None:
    snapshots, _, cutoff, current = history
    found = {
        (u["subject"], u["pid"], u["new_object"])
        for u in updates_of(views, snapshots, cutoff, current)
    }
    assert found == expected_updates(snapshots, cutoff, current)


def expected_updates(
    snapshots: list[Snapshot], cutoff: date, current: date
) -> set[tuple[str, str, str]]:
    """Evolved/replaced groups changed after the cutoff (by the reference, init = the day
    before the cutoff) whose old object's statement ended and new one's started in time."""
    groups = reference(snapshots, cutoff - ONE_DAY, cutoff, current, "valid")
    latest = max((s for s in snapshots if s.date <= current), key=lambda s: s.date, default=None)
    expected = set()
    for (subject, pid), group in groups.items():
        if (group.level, group.change_kind, group.changed_after_cutoff) != (
            "evolved",
            "replaced",
            True,
        ):
            continue
        assert latest is not None
        rows = [r for r in latest.rows if (r.subject, r.pid) == (subject, pid)]
        now = set(group.all_answers) - set(group.outdated)
        if any(ended_after(r, group.outdated, cutoff, current) for r in rows):
            expected |= {
                (subject, pid, r.value or "")
                for r in rows
                if started_after(r, now, cutoff, current)
            }
    return expected


def started_after(row: Row, values: set[str], cutoff: date, current: date) -> bool:
    """A non-deprecated statement of one of ``values`` with a known start surely after the
    cutoff, started by current and not ended by then."""
    return (
        row.value in values
        and row.rank != "deprecated"
        and row.start_snaktype == "value"
        and row.start_lo is not None
        and row.start_hi is not None
        and cutoff < row.start_lo
        and row.start_hi <= current
        and (
            row.end_snaktype in (None, "novalue")
            or (row.end_snaktype == "value" and row.end_lo is not None and row.end_lo > current)
        )
    )


def ended_after(row: Row, values: tuple[str, ...], cutoff: date, current: date) -> bool:
    """A non-deprecated statement of one of ``values`` with a known end in (cutoff, current]."""
    return (
        row.value in values
        and row.rank != "deprecated"
        and row.end_snaktype == "value"
        and row.end_lo is not None
        and row.end_hi is not None
        and cutoff < row.end_lo
        and row.end_hi <= current
    )


def test_cli_writes_updates_and_filters_by_property(sample_store: Path, tmp_path: Path) -> None:
    dates = ["--cutoff", "2005-06-01", "--current", "2014-12-31", "--store", str(sample_store)]
    out = tmp_path / "updates.jsonl"
    result = run_kgdiff("updates", *dates, "--pid", "P6", "--out", str(out))
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records and {r["pid"] for r in records} == {"P6"}
    assert {"subject": "Q183", "new_object": MERKEL} in [
        {"subject": r["subject"], "new_object": r["new_object"]} for r in records
    ]
    parquet = tmp_path / "updates.parquet"
    assert run_kgdiff("updates", *dates, "--out", str(parquet)).returncode == 0
    assert pq.read_table(parquet).num_rows >= len(records)
    order = ["--cutoff", "2015-01-01", "--current", "2014-12-31", "--store", str(sample_store)]
    bad = run_kgdiff("updates", *order)
    assert bad.returncode == 2 and "cutoff 2015-01-01 is not before current" in bad.stderr
    assert "Choose dates in the order cutoff < current" in bad.stderr
    empty = tmp_path / "no-store"
    missing = run_kgdiff("updates", *dates[:4], "--store", str(empty))
    assert missing.returncode == 5 and "ingest a snapshot first" in missing.stderr


def test_the_catalog_macro_runs_the_same_query(sample_store: Path) -> None:
    days = date(2005, 6, 1), date(2014, 12, 31)
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        library = knowledge_updates(connection, *days).fetchall()
        macro = connection.execute("SELECT * FROM updates($1, $2)", list(days)).fetchall()
    assert macro == library and len(library) > 10


def test_the_same_updates_on_one_thread_and_on_several(sample_store: Path) -> None:
    """DuckDB runs the query on every thread it is given (kgdiff sets none: all the cores):
    the rows do not depend on how many."""
    days = date(2005, 6, 1), date(2014, 12, 31)
    found = []
    for threads in (1, 2, 4):
        with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
            connection.execute(f"SET threads = {threads}")
            found.append(knowledge_updates(connection, *days).fetchall())
    assert found[0] == found[1] == found[2] and len(found[0]) > 10


@settings(max_examples=15)
@given(history=histories(subsets=True), data=st.data())
def test_updates_in_parts_are_the_updates_of_every_group(
    views: LoadedOnce, history, data: st.DataObject
) -> None:
    """A large store's updates are found part by part as it is classified (subject ranges,
    then the groups merges touch): together, and in the same order, exactly the rows of one
    query over every group, merged items and subset snapshots included."""
    snapshots, _, cutoff, current = history
    connection = views.load(snapshots)
    query = UpdatesQuery(cutoff, current, gap=GapPolicy(allow=True))
    whole = knowledge_updates(connection, cutoff, current, GapPolicy(allow=True)).fetchall()
    subjects = sorted({row.subject for s in snapshots for row in s.rows}) or [""]
    bounds = sorted(data.draw(st.lists(st.sampled_from(subjects), max_size=4)))
    parts = cut(bounds, data.draw(st.integers(2, 3)))
    assert updates_in_parts(connection, query, parts).to_pylist() == [
        dict(zip(UPDATE_COLUMNS, row, strict=True)) for row in whole
    ]


def test_the_real_samples_updates_in_parts(sample_store: Path) -> None:
    """Cut at the subjects of the real updates themselves: each range gives its own."""
    query = UpdatesQuery(date(2005, 6, 1), date(2014, 12, 31))
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        whole = updates_in_parts(connection, query, [EVERY_GROUP])
        subjects = sorted(set(whole["subject"].to_pylist()))
        parts = cut(subjects, 3)
        assert len(parts) == 4
        assert updates_in_parts(connection, query, parts) == whole
        # the merges' rows were kept for the parts only: the connection reads the view again
        temporary = "SELECT table_name FROM duckdb_tables() WHERE database_name = 'temp'"
        assert connection.execute(temporary).fetchall() == []
        macro = connection.execute(
            "SELECT * FROM updates($1, $2, part := 'range', lo := $3, hi := $4)",
            [*query.days()[1:], subjects[0], subjects[1]],
        ).fetchall()
    assert macro and {row[0] for row in macro} == {subjects[0]}


def test_updates_after_the_first_day_of_the_calendar(sample_store: Path) -> None:
    """A cutoff of 1 January of year 1 has no eve: found by the REST schema test as a 500."""
    assert UpdatesQuery(date.min, date(2014, 12, 31)).days()[0] == date.min
    result = run_kgdiff("updates", "--cutoff", "0001-01-01", "--store", str(sample_store))
    assert result.returncode == 0, result.stderr
