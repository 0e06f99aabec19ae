"""The staleness curve: month by month, the counts of `kgdiff classify` at each cutoff (on the
demo's real snapshots; generated histories: tests/test_staleness_pass.py)."""

from __future__ import annotations

import shutil
from datetime import date, timedelta
from itertools import pairwise
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kgdiff
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import remove_snapshot
from kgdiff.temporal.levels import LEVELS
from kgdiff.temporal.seed_cutoffs import seed_cutoffs
from kgdiff.temporal.staleness import curve_path, month_cutoffs, staleness_curve


@pytest.fixture(scope="module")
def store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("staleness") / "store"
    shutil.copytree(sample_store, target)
    return target


@pytest.fixture(scope="module")
def kg(store: Path) -> KnowledgeGraph:
    return kgdiff.open(store)


def counts_at(curve: pl.DataFrame, cutoff: date) -> dict[str, int]:
    month = curve.filter(pl.col("cutoff") == cutoff)
    return {level: groups for level, groups in month.select("level", "groups").rows() if groups}


def classified_counts(kg: KnowledgeGraph, cutoff: date, mode: str) -> dict[str, int]:
    levels = kg.classify(cutoff, mode=mode)["level"].value_counts()
    return dict(levels.rows())


def test_every_record_month_equals_the_classification(kg: KnowledgeGraph) -> None:
    """Every month gives the counts `classify` gives at that cutoff (and total/covered add
    up)."""
    curve = kg.staleness("record")
    months = month_cutoffs(date(2013, 12, 21), date(2014, 12, 31))
    assert curve["cutoff"].unique().sort().to_list() == months
    assert curve.filter(pl.col("cutoff") == months[0])["level"].to_list() == list(LEVELS)
    for cutoff in months:
        expected = classified_counts(kg, cutoff, "record")
        assert counts_at(curve, cutoff) == expected, cutoff
        month = curve.filter(pl.col("cutoff") == cutoff)
        assert month["total"].unique().to_list() == [sum(expected.values())]
        assert month["covered"].unique().to_list() == [
            sum(expected.values()) - expected.get("not_covered", 0)
        ]
    # the levels do change across the span (the curve is not trivially flat)
    assert counts_at(curve, months[0]) != counts_at(curve, months[-1])


def test_every_valid_month_equals_the_classification(kg: KnowledgeGraph) -> None:
    """Valid time reads the latest snapshot for every date: each month its own classification
    (the curve counts them all in one pass, kgdiff/temporal/curve_pass.py)."""
    curve = kg.staleness("valid")
    months = month_cutoffs(date(2013, 12, 21), date(2014, 12, 31))
    for cutoff in months:
        assert counts_at(curve, cutoff) == classified_counts(kg, cutoff, "valid"), cutoff
    assert counts_at(curve, months[0]) != counts_at(curve, months[-1])


def test_mode_both_makes_a_build_per_month_in_the_catalog(kg: KnowledgeGraph) -> None:
    """Mode 'both' classifies every month (the views are made without a catalog rebuild
    each, then the catalog is rebuilt once): every month's classification is a view, as
    after `kgdiff classify`, and the curve counts its levels."""
    curve = kg.staleness("both")
    views = set(kg.sql("SELECT view_name FROM duckdb_views()")["view_name"].to_list())
    for cutoff in month_cutoffs(date(2013, 12, 21), date(2014, 12, 31)):
        assert f"classified_20131221_{cutoff:%Y%m%d}_20141231_both" in views, cutoff
    cutoff = date(2014, 11, 1)
    assert counts_at(curve, cutoff) == classified_counts(kg, cutoff, "both")


def test_the_curve_is_kept_and_read_back(kg: KnowledgeGraph, store: Path) -> None:
    layout = StoreLayout.resolve(store)
    first = staleness_curve(layout, "record")
    path = curve_path(layout, "record")
    assert path.is_file() and not list(path.parent.glob(".*.tmp"))
    stamp = path.stat().st_mtime_ns
    assert staleness_curve(layout, "record").equals(first)
    assert path.stat().st_mtime_ns == stamp
    assert curve_path(layout, "valid") != path


def test_notes_name_the_subset_snapshots(kg: KnowledgeGraph) -> None:
    notes = kg.answers.staleness("record").notes
    assert any("not_covered, not deleted" in note for note in notes)


def test_one_snapshot_gives_an_empty_curve_with_a_note(store: Path, tmp_path: Path) -> None:
    single = tmp_path / "single"
    shutil.copytree(store, single)
    for name in ("wd-2014-10", "wd-2014-12"):
        remove_snapshot(StoreLayout.resolve(single), name)
    answer = kgdiff.open(single).answers.staleness("record")
    assert answer.frame.is_empty()
    assert any("at least a month apart" in note for note in answer.notes)


@given(st.dates(date(1900, 1, 1), date(2100, 1, 1)), st.integers(0, 800))
def test_month_cutoffs_are_each_month_start_strictly_between(start: date, days: int) -> None:
    end = start + timedelta(days=days)
    months = month_cutoffs(start, end)
    assert all(m.day == 1 and start < m < end for m in months)
    assert all((b.year * 12 + b.month) - (a.year * 12 + a.month) == 1 for a, b in pairwise(months))
    expected = sum(1 for d in range(1, days) if (start + timedelta(days=d)).day == 1)
    assert len(months) == expected


def test_the_seeds_cutoffs_are_shipped_oldest_first() -> None:
    seeds = seed_cutoffs()
    assert [s.date for s in seeds] == sorted(s.date for s in seeds)
    assert {"EvoWiki cutoff", "EvolveBench T_current"} <= {s.name for s in seeds}
    assert {s.role for s in seeds} <= {"init", "cutoff", "current", "model cutoff"}
    assert all(s.precision in ("month", "day") for s in seeds)
