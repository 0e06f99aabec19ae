"""The entities' dates an export's rules read (kgdiff/export/core/entity_dates.py): written once
per export by DuckDB, filtered for each part's ids; the same dates as the store's statements
give when read with polars alone, on the real samples."""

from __future__ import annotations

import threading
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kgdiff
from kgdiff.export.core.entity_dates import ENTITY_DATES_SCHEMA, EntityDates, write_entity_dates
from kgdiff.export.distractors.lifespans import lifespans_of
from kgdiff.export.rules.existence import existence_of

DATED = ("P569", "P570", "P571", "P576")


def _from_statements(store: Path) -> pl.DataFrame:
    """Every entity's dates worked out with polars from the snapshots' statement files."""
    files = str(store / "snapshots" / "*" / "statements" / "**" / "*.parquet")
    rows = pl.scan_parquet(files, hive_partitioning=True).filter(
        pl.col("pid").is_in(DATED)
        & (pl.col("rank") != "deprecated")
        & (pl.col("snaktype") == "value")
        & pl.col("time_lo").is_not_null()
    )
    found = rows.group_by("subject").agg(
        pl.col("time_lo").filter(pl.col("pid") == "P571").min().alias("began"),
        pl.col("time_hi").filter(pl.col("pid").is_in(["P570", "P576"])).max().alias("ended"),
        pl.col("time_lo").filter(pl.col("pid") == "P569").min().dt.year().alias("born"),
        pl.col("time_hi").filter(pl.col("pid") == "P570").max().dt.year().alias("died"),
    )
    return found.rename({"subject": "qid"}).sort("qid").collect().cast(ENTITY_DATES_SCHEMA)


@pytest.fixture(scope="module")
def dates(export_demo_store: Path) -> EntityDates:
    return EntityDates.of_store(kgdiff.open(export_demo_store))


@pytest.fixture(scope="module")
def expected(export_demo_store: Path) -> pl.DataFrame:
    return _from_statements(export_demo_store)


def test_the_dates_are_those_of_the_statements(dates: EntityDates, expected: pl.DataFrame) -> None:
    assert expected.height > 100
    found = dates.of(expected.get_column("qid"))
    assert found.equals(expected)
    germany, beethoven = dates.of(["Q255", "Q183"]).iter_rows()  # sorted by id
    assert germany[1].year == 1871 and germany[2:] == (None, None, None)
    assert beethoven[3:] == (1770, 1827) and beethoven[2].year == 1827


@given(st.lists(st.integers(min_value=0, max_value=2_000), max_size=40))
def test_a_part_finds_its_own_ids_alone(
    dates: EntityDates, expected: pl.DataFrame, numbers: list[int]
) -> None:
    ids = [f"Q{n}" for n in numbers] + ["P31", "", "not an id"]
    found = dates.of(ids)
    assert found.equals(expected.filter(pl.col("qid").is_in(ids)))


def test_each_rule_keeps_the_entities_it_has_dates_for(dates: EntityDates) -> None:
    found = dates.of(["Q255", "Q183", "Q30"])
    assert existence_of(found).get_column("qid").to_list() == ["Q183", "Q255", "Q30"]
    assert lifespans_of(found).get_column("value").to_list() == ["Q255"]  # people alone


def _counted(store: Path, folder: Path, fail_first: bool = False) -> tuple[EntityDates, list[Path]]:
    """Dates of ``store`` in ``folder`` whose writes are counted (the first failing, half
    written, with ``fail_first``)."""
    kg, written = kgdiff.open(store), list[Path]()

    def write(path: Path) -> None:
        written.append(path)
        if fail_first and len(written) == 1:
            path.write_bytes(b"half a file")
            raise OSError("disk full")
        write_entity_dates(kg, path)

    return EntityDates(write, folder), written


def test_the_dates_are_written_once_whichever_threads_ask(
    export_demo_store: Path, tmp_path: Path
) -> None:
    dates, written = _counted(export_demo_store, tmp_path)
    found: list[pl.DataFrame] = []
    threads = [threading.Thread(target=lambda: found.append(dates.of(["Q255"]))) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(written) == 1 and len(found) == 6
    assert all(frame.equals(found[0]) for frame in found) and found[0].height == 1
    dates.close()
    assert not written[0].exists()
    assert dates.of(["Q255"]).equals(found[0]) and len(written) == 2  # written again
    dates.close()


def test_a_failed_write_leaves_nothing_and_is_tried_again(
    export_demo_store: Path, tmp_path: Path
) -> None:
    dates, tries = _counted(export_demo_store, tmp_path, fail_first=True)
    with pytest.raises(OSError, match="disk full"):
        dates.of(["Q255"])
    assert not any(tmp_path.iterdir())
    assert dates.of(["Q255"]).get_column("born").to_list() == [1770] and len(tries) == 2
    dates.close()
    assert not any(tmp_path.iterdir())
