"""The ``temporal`` config read a range of groups at a time (kgdiff.export.temporal.dated_rows)
writes the export one read of every group writes, byte for byte; the ranges follow one another
in the order of the records' ids; the rows kept on disk (kgdiff.export.dataset.sorted_rows) come
back in parts cut where one frame of every row would be cut."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.export.dataset.sorted_rows import ID, SortedRows
from kgdiff.export.inputs.group_file import GroupFile
from kgdiff.export.temporal import dated_rows
from tests.benchmark_exports import SAMPLES_WINDOW, export, file_bytes

RANGE = 100
"""Groups per range in the ranged export: the 1,253 catalogued groups of the demo's store in 13."""


def test_the_ranges_write_the_export_of_one_read(export_demo_store: Path, tmp_path: Path) -> None:
    whole = export(export_demo_store, tmp_path / "whole", configs=("temporal",), **SAMPLES_WINDOW)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dated_rows, "RANGE_GROUPS", RANGE)
        ranged = export(
            export_demo_store, tmp_path / "ranged", configs=("temporal",), **SAMPLES_WINDOW
        )
    assert sum(whole.configs["temporal"].values()) > 50
    built = json.loads((whole.out / "kgdiff_build.json").read_bytes())
    assert built["configs"]["temporal"]["groups"] > 10 * RANGE  # read in 10 ranges or more
    assert whole.configs == ranged.configs
    assert file_bytes(whole.out) == file_bytes(ranged.out)


SUBJECTS = st.from_regex(r"\A[LPQ][1-9][0-9]?(-[FS][1-9])?\Z")
GROUPS = st.lists(st.tuples(SUBJECTS, st.sampled_from(["P17", "P31", "P6"])), unique=True)


def _group_file(groups: list[tuple[str, str]], folder: Path) -> GroupFile:
    """``groups`` in a file sorted as the export's (``sql/export/groups_sorted.sql``)."""
    frame = pl.DataFrame(groups, schema={"subject": pl.String(), "pid": pl.String()}, orient="row")
    path = folder / "groups.parquet"
    ordered = frame.sort(pl.col("subject") + "/", "pid")
    ordered.write_parquet(path, row_group_size=3)  # batches cross row groups
    return GroupFile(path, None, frame.height)


@settings(max_examples=200)
@given(GROUPS, st.integers(min_value=1, max_value=6))
def test_the_ranges_hold_every_group_once_in_the_order_of_the_ids(
    tmp_path_factory: pytest.TempPathFactory, groups: list[tuple[str, str]], size: int
) -> None:
    file = _group_file(groups, tmp_path_factory.mktemp("groups"))
    ranges = list(file.ranges(size))
    assert ranges and (groups or ranges[0].is_empty())
    together = pl.concat(ranges)
    assert sorted(together.iter_rows()) == sorted(groups)
    for part in ranges:
        subjects = part.get_column("subject").unique()
        # a range is larger than asked by less than the groups of a subject it begins with
        most = part.group_by("subject").len().get_column("len").max() or 0
        assert (isinstance(most, int) and part.height < size + most) or part.is_empty()
        for other in ranges:
            if other is not part:
                assert not other.get_column("subject").is_in(subjects.implode()).any()
    # each range's rows are sorted by id: one after the other, they are all sorted
    ids = [sorted(f"temporal/timestamp/{s}/{p}/start" for s, p in r.iter_rows()) for r in ranges]
    joined = [record_id for part in ids for record_id in part]
    assert joined == sorted(joined)


def _rows(ids: list[str], note: list[str | None]) -> pl.DataFrame:
    return pl.DataFrame({ID: ids, "note": note}, schema={ID: pl.String(), "note": pl.String()})


def test_parts_are_cut_as_one_frame_would_be(tmp_path: Path) -> None:
    rows = SortedRows("test", tmp_path)
    rows.add(_rows(["a1", "a2", "a3"], ["x", None, "y"]))
    rows.add(pl.DataFrame({ID: ["b1"], "note": [None]}))  # an untyped column
    rows.add(_rows(["c1", "c2", "c3", "c4"], ["z"] * 4))
    parts = list(rows.parts(3))
    assert [part.get_column(ID).to_list() for part in parts] == [
        ["a1", "a2", "a3"], ["b1", "c1", "c2"], ["c3", "c4"],
    ]  # fmt: skip
    assert all(part.schema["note"] == pl.String() for part in parts)
    assert rows.height == 8 and rows.collect() is not None
    folder = next(tmp_path.iterdir())
    rows.close()
    assert not folder.exists()


def test_rows_out_of_order_are_refused(tmp_path: Path) -> None:
    rows = SortedRows("test", tmp_path)
    rows.add(_rows(["b1", "b2"], [None, None]))
    with pytest.raises(ValueError, match="'b0' added after 'b2'"):
        rows.add(_rows(["b0"], [None]))
    rows.close()
