"""Ordering a bucket by moving whole runs of one subject equals a stable row sort by subject."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.store.buckets import in_range_mask
from kgdiff.store.subject_runs import run_ordered

subjects = st.sampled_from(["L7", "L7-F1", "P31", "Q1", "Q10", "Q2", "Q42", "Q9", "é", ""])
runs = st.tuples(subjects, st.integers(min_value=1, max_value=4))
parts = st.lists(st.lists(runs, max_size=8), min_size=1, max_size=5)
bounds = st.one_of(st.none(), subjects)
stretch_rows = st.sampled_from([1, 3, 1 << 40])
"""Gather by slices always (1), by slices or take depending on the input (3), never."""


def _part(part_runs: list[tuple[str, int]], part: int) -> pa.Table:
    rows = [(subject, f"{part}.{i}") for subject, length in part_runs for i in range(length)]
    return pa.table(
        {"subject": [s for s, _ in rows], "row": [r for _, r in rows]},
        schema=pa.schema([("subject", pa.string()), ("row", pa.string())]),
    )


@given(parts, bounds, bounds, stretch_rows)
def test_runs_in_order_equal_a_stable_sort_of_the_rows(
    part_runs: list[list[tuple[str, int]]], lo: str | None, hi: str | None, min_stretch: int
) -> None:
    tables = [_part(runs_of_part, part) for part, runs_of_part in enumerate(part_runs)]
    rows = [row for table in tables for row in table.to_pylist()]
    wanted = sorted(  # Python's sort is stable; str order is UTF-8 byte order
        (
            row
            for row in rows
            if (lo is None or lo <= row["subject"]) and (hi is None or row["subject"] < hi)
        ),
        key=lambda row: row["subject"],
    )
    assert run_ordered(tables, "subject", lo, hi, min_stretch).to_pylist() == wanted


def test_runs_split_across_record_batches_stay_in_order() -> None:
    first = pa.record_batch({"subject": ["Q2", "Q1", "Q1"], "row": [0, 1, 2]})
    second = pa.record_batch({"subject": ["Q1", "Q0"], "row": [3, 4]})
    tables = [pa.Table.from_batches([first, second]), pa.table({"subject": ["Q1"], "row": [5]})]
    assert run_ordered(tables, "subject", None, None)["row"].to_pylist() == [4, 1, 2, 3, 5, 0]
    assert run_ordered(tables, "subject", "Q1", "Q2")["row"].to_pylist() == [1, 2, 3, 5]


def test_runs_already_in_order_are_gathered_without_a_copy() -> None:
    first = pa.table({"subject": ["Q1", "Q1", "Q2"], "row": [0, 1, 2]})
    second = pa.table({"subject": ["Q3", "Q4", "Q9"], "row": [3, 4, 5]})
    ordered = run_ordered([first, second], "subject", "Q1", "Q5", min_stretch_rows=2)
    assert ordered["row"].to_pylist() == [0, 1, 2, 3, 4]
    # slices of the inputs, not a gathered copy: the same memory as the parts
    address = ordered.column("row").chunks[0].buffers()[1].address
    assert address == first.column("row").chunks[0].buffers()[1].address


def test_an_empty_bucket_has_no_rows() -> None:
    empty = pa.table({"subject": pa.array([], pa.string())})
    assert run_ordered([empty, empty], "subject", "Q1", None).num_rows == 0
    assert run_ordered([empty], "subject", None, None).num_rows == 0


def test_a_range_mask_is_false_for_nulls_and_none_when_unbounded() -> None:
    values = pa.array(["Q1", None, "Q2", "Q3"], pa.string())
    from_q2, below_q2 = in_range_mask(values, "Q2", None), in_range_mask(values, None, "Q2")
    assert from_q2 is not None and from_q2.to_pylist() == [False, False, True, True]
    assert below_q2 is not None and below_q2.to_pylist() == [True, False, False, False]
    assert in_range_mask(values, None, None) is None
