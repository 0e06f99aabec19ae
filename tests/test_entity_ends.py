"""How the entities ended, as the export reads it once (kgdiff/export/rules/entity_ends.py): which
subjects no longer exist on a day as the snapshots up to one record it, and the years of a
``pools`` group begun after its subject ended; the same as the store's statements give when
read with polars alone, on the real samples. And what the store says of ``multi_hop``'s hop
groups (kgdiff/export/rules/subject_state.py): a group changed by the date is one a later
snapshot gives a value none of the chains read."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kgdiff
from kgdiff.export.rules.entity_ends import ENDS_SCHEMA, EntityEnds, ended_by
from kgdiff.export.rules.subject_state import changed_hops

ENDING = ("P570", "P576", "P582", "P2669", "P730", "P3999")
DAYS = (date(1827, 3, 25), date(1900, 1, 1), date(2013, 12, 25), date(2014, 10, 11))


def _statements(store: Path) -> pl.LazyFrame:
    files = str(store / "snapshots" / "*" / "statements" / "**" / "*.parquet")
    return pl.scan_parquet(files, hive_partitioning=True).filter(pl.col("rank") != "deprecated")


def _ended_reference(store: Path, snapshots: list[str], day: date) -> set[str]:
    """The entities that no longer exist on ``day`` as ``snapshots`` record it, read with
    polars from the statement files: an end on or before the day, an unknown death, a birth
    surely more than 130 years before."""
    rows = _statements(store).filter(pl.col("snapshot").is_in(snapshots))
    value = pl.col("snaktype") == "value"
    ends = pl.col("pid").is_in(ENDING) & value & (pl.col("time_lo") <= day)
    unknown = (pl.col("pid") == "P570") & (pl.col("snaktype") == "somevalue")
    eldest = date(day.year - 130, day.month, day.day)
    born = (pl.col("pid") == "P569") & value & (pl.col("time_hi") < eldest)
    found = rows.filter(ends | unknown | born).select("subject").unique().collect()
    return set(found.get_column("subject").to_list())


@pytest.fixture(scope="module")
def store(export_demo_store: Path) -> Path:
    return export_demo_store


@pytest.fixture(scope="module")
def ends(store: Path) -> EntityEnds:
    return EntityEnds(kgdiff.open(store))


@pytest.fixture(scope="module")
def snapshots(store: Path) -> list[str]:
    """The store's snapshots by date."""
    return kgdiff.open(store).snapshots().sort("date").get_column("name").to_list()


@pytest.fixture(scope="module")
def subjects(store: Path) -> list[str]:
    return _statements(store).select("subject").unique().collect().get_column("subject").to_list()


@pytest.mark.parametrize("day", DAYS)
def test_the_ended_are_those_the_statements_give(
    ends: EntityEnds, store: Path, snapshots: list[str], subjects: list[str], day: date
) -> None:
    for upto in range(len(snapshots)):
        expected = _ended_reference(store, snapshots[: upto + 1], day)
        assert ends.ended(subjects, snapshots[upto], day) == expected
    every = _ended_reference(store, snapshots, day)
    assert ends.ended(subjects, None, day) == every
    assert len(every) > 20
    assert ends.ended(subjects, "no-such-snapshot", day) == frozenset()


def test_who_had_ended_on_a_day(ends: EntityEnds) -> None:
    # Beethoven died on 26 March 1827; Germany was never dissolved; the samples date Warburg's
    # dissolution to 1802
    found = ends.ended(["Q255", "Q183", "Q968", "P31", "not an id"], None, date(1827, 3, 25))
    assert found == {"Q968"}
    assert ends.ended(["Q255", "Q183"], None, date(1827, 3, 27)) == {"Q255"}


@given(st.lists(st.integers(min_value=0, max_value=2_000), max_size=40), st.sampled_from(DAYS))
def test_a_part_finds_its_own_ids_alone(
    ends: EntityEnds, store: Path, snapshots: list[str], numbers: list[int], day: date
) -> None:
    ids = [f"Q{n}" for n in numbers]
    every = _ended_reference(store, snapshots, day)
    assert ends.ended(ids, None, day) == every & set(ids)


def test_a_birth_more_than_130_years_before_ends_a_life() -> None:
    # 29 February less 130 years is 28 February, as DuckDB counts it
    rows = pl.DataFrame(
        {
            "qid": ["Q1", "Q2", "Q3", "Q4"],
            "snapshot": ["s"] * 4,
            "ends_from": [None, None, None, date(2024, 3, 1)],
            "died_unknown": [False, False, True, False],
            "born_by": [date(1894, 2, 27), date(1894, 2, 28), None, None],
        },
        schema=ENDS_SCHEMA,
    )
    gone = rows.filter(ended_by(date(2024, 2, 29))).get_column("qid").to_list()
    assert gone == ["Q1", "Q3"]


def test_the_gone_years_are_each_subjects_own(
    ends: EntityEnds, store: Path, snapshots: list[str]
) -> None:
    # Beethoven asked of 1825–1830 alone, Germany of 1825–2014: Beethoven's years after his
    # death are found although Germany's later years were asked first
    years = pl.DataFrame(
        [("Q255", year) for year in range(1825, 1831)]
        + [("Q183", year) for year in range(1825, 2015)]
        + [("Q968", 1801), ("Q968", 1802), ("Q968", 1802)],
        schema={"subject": pl.String(), "year": pl.Int64()},
        orient="row",
    )
    found = ends.gone_years(years).rows()
    assert found == [("Q255", 1828), ("Q255", 1829), ("Q255", 1830), ("Q968", 1802)]
    for subject, year in found:
        assert subject in _ended_reference(store, snapshots, date(year, 1, 1))


def _hops(rows: list[tuple[str, str, str]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=["subject", "pid", "object"], orient="row")


def test_a_later_value_a_chain_read_is_no_change(export_sample_store: Path) -> None:
    # François Hollande holds three positions in the dump of 2013-12; that of 2014-10 gives
    # two of them as held on 2014-06-01 (since 2012-05-15) and the third as ended in 2008:
    # chains that read all three saw no change; one that read the third alone sees the other
    # two as new by the date (with one of the group's values taken for all: the chains' last
    # hop may hold several)
    kg = kgdiff.open(export_sample_store)
    held = ("Q191954", "Q683337", "Q747123")
    read = ("wd-2013-12", date(2014, 6, 1))
    with kg.connection() as connection:
        every = changed_hops(connection, _hops([("Q157", "P39", v) for v in held]), *read)
        one = changed_hops(connection, _hops([("Q157", "P39", "Q747123")]), *read)
        kept = changed_hops(connection, _hops([("Q157", "P39", "Q191954")]), *read)
    assert every == frozenset()
    assert one == {("Q157", "P39")}
    assert kept == {("Q157", "P39")}  # the co-principality began the same day
