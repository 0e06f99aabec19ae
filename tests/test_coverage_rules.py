"""Coverage and dates beyond the data, as rules: generated histories against the SQL.

A subject missing from a *subset* snapshot read is never retracted (nor uncharted, nor
recent): its groups are not_covered; the same subject missing from a *full* snapshot still
is retracted. Which snapshot answers a date, and whether it is beyond the data, follows
docs/classification.md for any snapshot dates (sql/dates/date_reads.sql).
"""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta

import duckdb
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.temporal.dates import date_reads
from tests.temporal_reference import Snapshot, latest_snapshot_on_or_before
from tests.temporal_strategies import History, histories, without
from tests.test_classify import load, sql_results

SETTINGS = settings(max_examples=25)


@st.composite
def dropped_subject(draw: st.DrawFn) -> tuple[History, str, int]:
    """A history, a subject of the snapshot record time reads for `current`, and that
    snapshot's position (the subject is dropped from it by the tests)."""
    history = draw(histories(merges=False))
    snapshots, _, _, current = history
    read = latest_snapshot_on_or_before(snapshots, current)
    subjects = sorted({row.subject for row in read.rows}) if read else []
    if read is None or not subjects:
        return history, "", -1
    position = snapshots.index(read)
    return history, draw(st.sampled_from(subjects)), position


def dropping(history: History, subject: str, position: int, coverage: str) -> list[Snapshot]:
    """The history's snapshots with ``subject`` gone from the one at ``position``, which is
    recorded with ``coverage``."""
    snapshots = list(history.snapshots)
    changed = without(snapshots[position], {subject})
    snapshots[position] = dataclasses.replace(changed, coverage=coverage)
    return snapshots


def record_levels(snapshots: list[Snapshot], history: History, subject: str) -> dict[str, str]:
    """Record-time level of each reported group of ``subject`` (by pid), from the SQL."""
    connection = duckdb.connect()
    load(connection, snapshots)
    found = sql_results(connection, history.init, history.cutoff, history.current, "record")
    return {pid: result.level for (s, pid), result in found.items() if s == subject}


@SETTINGS
@given(dropped_subject())
def test_a_subject_missing_from_a_subset_snapshot_is_never_retracted(case) -> None:
    history, subject, position = case
    if position < 0:
        return
    levels = record_levels(dropping(history, subject, position, "subset"), history, subject)
    assert set(levels.values()) <= {"not_covered"}, levels


@SETTINGS
@given(dropped_subject())
def test_the_same_subject_missing_from_a_full_snapshot_is_still_retracted(case) -> None:
    history, subject, position = case
    if position < 0:
        return
    before = record_levels(list(history.snapshots), history, subject)
    after = record_levels(dropping(history, subject, position, "full"), history, subject)
    assert set(after.values()) <= {"retracted", "ambiguous"}, after
    snapshots, init, cutoff, _ = history
    earlier = [latest_snapshot_on_or_before(snapshots, day) for day in (init, cutoff)]
    if snapshots[position].name in {s.name for s in earlier if s is not None}:
        return  # the subject is gone from init's or the cutoff's sets too: nothing to retract
    for pid, level in before.items():
        if level in ("stable", "evolved", "recent", "retracted"):
            # the group was known before the current date: its absence is a retraction
            # (unless a statement of unknown validity at init or the cutoff makes it ambiguous)
            assert after.get(pid) in ("retracted", "ambiguous"), (pid, level, after)


DAYS = st.dates(min_value=date(2000, 1, 1), max_value=date(2030, 12, 31))


@SETTINGS
@given(
    st.lists(DAYS, min_size=1, max_size=4, unique=True),
    st.lists(DAYS, min_size=1, max_size=3),
    st.sampled_from(["record", "valid"]),
    st.integers(min_value=0, max_value=400),
)
def test_which_dates_are_beyond_the_data(
    snapshot_days: list[date], days: list[date], mode: str, max_gap: int
) -> None:
    connection = duckdb.connect()
    names = [f"s{i + 1}" for i in range(len(snapshot_days))]
    table = pa.table({"name": names, "date": snapshot_days, "coverage": ["full"] * len(names)})
    connection.register("snapshot_rows", table)
    connection.execute("CREATE VIEW snapshots AS SELECT * FROM snapshot_rows")
    roles = {f"d{i}": day for i, day in enumerate(days)}
    reads = date_reads(connection, roles, mode, None, max_gap)
    assert [r.role for r in reads] == list(roles)
    last, first = max(snapshot_days), min(snapshot_days)
    as_of = max(days)
    for read in reads:
        answered_at = read.day if mode == "record" else as_of
        expected = max((d for d in snapshot_days if d <= answered_at), default=None)
        assert read.snapshot_date == expected
        beyond = read.day - last > timedelta(days=max_gap)
        unanswered = expected is None
        assert (read.problem is not None) == (beyond or unanswered), read
        if expected is not None:
            assert read.gap_days == (read.day - expected).days
        if unanswered and mode == "record" and not beyond:
            assert f"before the first snapshot, s{snapshot_days.index(first) + 1}" in str(
                read.problem
            )
