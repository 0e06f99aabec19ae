"""Classifying in parts (subject ranges, then merged groups) gives exactly the whole result.

A large store is classified part by part (kgdiff/temporal/parts.py); any way of
cutting the subjects into ranges must give the same rows as one classification of
every group, including groups that merges join across ranges. Checked on generated
histories (with merges, double redirects and subset snapshots) and on the three real snapshots,
each cut at bounds drawn from the subjects themselves.
"""

from __future__ import annotations

import itertools
from datetime import date
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.classify import classify
from kgdiff.temporal.dates import GapPolicy
from kgdiff.temporal.parts import (
    PLANNER_SETTING,
    Part,
    classify_in_parts,
    classifying,
    cut,
    plan_parts,
)
from tests.reused_views import LoadedOnce
from tests.temporal_strategies import histories

MODES = ("record", "valid", "both")


def in_parts(
    connection: duckdb.DuckDBPyConnection,
    days: tuple[date, date, date],
    mode: str,
    parts: list[Part],
    out: Path,
) -> list[tuple[object, ...]]:
    """The rows of a classification written part by part into the folder ``out``."""
    init, cutoff, current = days
    values: dict[str, object] = {"init": init, "cutoff": cutoff, "current": current, "mode": mode}
    files = classify_in_parts(connection, values, parts, out)
    assert len(files) == len(parts)
    return connection.execute("SELECT * FROM read_parquet(?)", [str(out / "*.parquet")]).fetchall()


def whole(
    connection: duckdb.DuckDBPyConnection, days: tuple[date, date, date], mode: str
) -> list[tuple[object, ...]]:
    """The rows of one classification of every group (dates beyond the data allowed, as
    the parts allow them: the library checks the dates before it plans parts)."""
    return classify(connection, *days, mode, GapPolicy(allow=True)).fetchall()


def assert_same_rows(got: list[tuple[object, ...]], expected: list[tuple[object, ...]]) -> None:
    """Same rows (the part of merged groups comes last, so order is compared per part)."""
    assert sorted(map(repr, got)) == sorted(map(repr, expected))
    assert len(set(map(repr, got))) == len(got), "a group was classified in two parts"


def subjects(connection: duckdb.DuckDBPyConnection) -> list[str]:
    """Every subject of the statements, sorted as DuckDB sorts them."""
    rows = connection.execute("SELECT DISTINCT subject FROM statements ORDER BY subject")
    return [str(row[0]) for row in rows.fetchall()]


# One mode per history, drawn with it (three classifications cut in parts per example cost
# three times the time for no other history): every mode over a run's examples.
@settings(max_examples=25)
@given(
    history=histories(subsets=True),
    cuts=st.integers(min_value=2, max_value=5),
    mode=st.sampled_from(MODES),
    data=st.data(),
)
def test_parts_equal_the_whole_on_generated_histories(
    tmp_path_factory: pytest.TempPathFactory,
    reused_views: LoadedOnce,
    history,
    cuts: int,
    mode: str,
    data: st.DataObject,
) -> None:
    snapshots, init, cutoff, current = history
    connection = reused_views.load(snapshots)
    found = subjects(connection)
    bounds = sorted(data.draw(st.lists(st.sampled_from(found or [""]), max_size=8)))
    parts = cut(bounds, cuts)
    out = tmp_path_factory.mktemp("parts")
    got = in_parts(connection, (init, cutoff, current), mode, parts, out)
    assert_same_rows(got, whole(connection, (init, cutoff, current), mode))


@pytest.mark.parametrize("mode", MODES)
def test_parts_equal_the_whole_on_the_real_snapshots(
    sample_store: Path, tmp_path: Path, mode: str
) -> None:
    """The three real snapshots, cut into five ranges at every fifth subject."""
    layout = StoreLayout(sample_store)
    days = (date(2014, 1, 1), date(2014, 10, 20), date(2015, 1, 1))
    with duckdb.connect(str(layout.catalog), read_only=True) as connection:
        connection.execute(PLANNER_SETTING)
        found = subjects(connection)
        parts = cut(found[::5], 5)
        assert [p.kind for p in parts] == ["range"] * 5 + ["merged"]
        got = in_parts(connection, days, mode, parts, tmp_path / "result")
        assert_same_rows(got, whole(connection, days, mode))
        assert len(got) > 1000


def test_a_small_store_is_one_part(sample_store: Path) -> None:
    """Below ROWS_PER_PART statements read, the plan is a single part of every group."""
    layout = StoreLayout(sample_store)
    days = [date(2014, 1, 1), date(2014, 10, 20), date(2015, 1, 1)]
    with duckdb.connect(str(layout.catalog), read_only=True) as connection:
        plan = plan_parts(connection, layout, list_snapshots(layout), days, "record")
    assert plan == [Part("all")]


def test_a_classification_holds_duckdb_to_its_memory_limit(sample_store: Path) -> None:
    # issue 36: DuckDB's default (80 % of the machine) let kgdiff classify --mode valid of
    # 3 × 25 M statements peak at 4.1 GB; the builds and the staleness curve classify
    # through this connection
    with classifying(StoreLayout(sample_store)) as connection:
        limit = connection.execute("SELECT current_setting('memory_limit')").fetchone()
        optimizers = connection.execute("SELECT current_setting('disabled_optimizers')")
        assert "build_side_probe_side" in str(optimizers.fetchone())
    assert limit == ("2.7 GiB",)  # DuckDB says 3GB (3 × 10⁹ bytes) so


def test_cut_ranges_cover_every_subject_once() -> None:
    """Ranges run from '' to past every subject without gaps, then the merged part."""
    parts = cut(["", "Q1", "Q2", "Q3", "Q4", "Q5"], 3)
    ranges = [(p.lo, p.hi) for p in parts if p.kind == "range"]
    assert ranges[0][0] == "" and ranges[-1][1] > "Q99999999"
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
    assert parts[-1] == Part("merged")
    assert cut(["", "Q1"], 1) == [Part("all")]
    assert cut([""], 4) == [Part("all")]
