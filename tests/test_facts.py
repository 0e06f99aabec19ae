"""``facts_at``: the object sets at one date agree with the independent reference.

The reference reads the snapshot the date reads (record time) or the latest snapshot
(valid time, qualifiers at the date, implied starts), follows merges known by the latest
snapshot and takes the values of the statements giving the set (a series: the newest).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.errors import UsageError
from kgdiff.temporal.dates import GapPolicy
from kgdiff.temporal.facts import facts_at
from tests.reused_views import LoadedOnce
from tests.temporal_reference import Merges, Snapshot, reading, redirect_targets
from tests.temporal_strategies import histories

Fact = tuple[tuple[str, ...], tuple[str, ...], bool]
"""(objects, best, unknown) of a group."""


def expected_facts(snapshots: list[Snapshot], day: date, mode: str) -> dict[tuple[str, str], Fact]:
    """The reference's facts at ``day`` (mode record or valid)."""
    latest = max(s.date for s in snapshots)
    merges = Merges(redirect_targets(snapshots, latest))
    read = reading(snapshots, day, latest, mode, merges)
    facts: dict[tuple[str, str], Fact] = {}
    for key in read.groups:
        if read.has_unknown(key):
            facts[key] = ((), (), True)
        elif objects := read.object_set(key):
            facts[key] = (tuple(sorted(objects)), read.best_ranked_values(key), False)
    return facts


def sql_facts(
    connection: duckdb.DuckDBPyConnection, day: date, mode: str, gap: GapPolicy | None = None
) -> dict[tuple[str, str], Fact]:
    """facts_at as the same mapping."""
    rows = facts_at(connection, day, mode, gap).fetchall()
    return {(r[0], r[1]): (tuple(r[2]), tuple(r[3]), r[4]) for r in rows}


@settings(max_examples=50)
@given(history=histories(), mode=st.sampled_from(["record", "valid"]), data=st.data())
def test_facts_match_the_reference_on_generated_histories(
    reused_views: LoadedOnce, history, mode: str, data: st.DataObject
) -> None:
    """The drawn dates may lie beyond the generated snapshots (before the first in record
    time, or long after the last): the sets are compared with the gap allowed, and the
    refusal itself is tested on the real store (tests/test_grounded_answers.py)."""
    snapshots, init, cutoff, current = history
    day = data.draw(st.sampled_from([init, cutoff, current, snapshots[0].date]))
    connection = reused_views.load(snapshots)
    got = sql_facts(connection, day, mode, GapPolicy(allow=True))
    assert got == expected_facts(snapshots, day, mode)


@pytest.fixture(scope="module")
def catalog(sample_store: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """The real sample store's catalog (it defines the facts_at macro), closed after use."""
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        yield connection


def test_germany_had_merkel_as_head_of_government(catalog: duckdb.DuckDBPyConnection) -> None:
    """Q183 P6 on 2014-06-01: Angela Merkel (Q567) in record and in valid time."""
    for mode in ("record", "valid"):
        facts = sql_facts(catalog, date(2014, 6, 1), mode)
        assert facts[("Q183", "P6")] == (("Q567",), ("Q567",), False), mode


def test_valid_time_reads_the_latest_snapshot(catalog: duckdb.DuckDBPyConnection) -> None:
    """Before the first snapshot, record time knows nothing: that used to be an empty answer
    (no facts at all, said with confidence); it is refused now, and empty only when the gap
    is allowed. Valid time still answers from the latest snapshot's qualifiers (Schröder,
    Q2530, headed Germany's government in 2000), saying how far the date is from it."""
    with pytest.raises(UsageError, match="before the first snapshot, wd-2013-12"):
        sql_facts(catalog, date(2000, 6, 1), "record")
    assert sql_facts(catalog, date(2000, 6, 1), "record", GapPolicy(allow=True)) == {}
    facts = sql_facts(catalog, date(2000, 6, 1), "valid")
    assert facts[("Q183", "P6")][0] == ("Q2530",)
    query = "SELECT DISTINCT snapshot, gap_days FROM facts_at(DATE '2000-06-01', 'valid')"
    read = catalog.execute(query).fetchall()
    latest = catalog.execute("SELECT name FROM snapshots ORDER BY date DESC LIMIT 1").fetchall()
    assert read == [(latest[0][0], (date(2000, 6, 1) - date(2014, 12, 31)).days)]


def test_the_macro_equals_the_library(catalog: duckdb.DuckDBPyConnection) -> None:
    """facts_at(DATE, mode) at the DuckDB prompt gives the rows of the library function."""
    day = date(2014, 10, 20)
    macro = catalog.sql(f"SELECT * FROM facts_at(DATE '{day}', 'valid')").fetchall()
    assert sorted(macro) == sorted(facts_at(catalog, day, "valid").fetchall())
    assert len(macro) > 1000


def test_an_unknown_mode_is_a_usage_error(catalog: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(UsageError, match="--mode"):
        facts_at(catalog, date(2014, 1, 1), "sometimes")
