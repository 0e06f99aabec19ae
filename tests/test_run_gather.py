"""Gathering rows run by run (native extension) gives what Arrow's take of those rows gives."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.rows.native import native_module
from kgdiff.store.run_gather import gather_runs

pytestmark = pytest.mark.skipif(native_module() is None, reason="native extension not built")

TEXT = st.one_of(st.none(), st.text(max_size=6))
ROW = st.fixed_dictionaries(
    {
        "qid": st.text(min_size=1, max_size=5),
        "value": TEXT,
        "ordinal": st.one_of(st.none(), st.integers(-(2**31), 2**31 - 1)),
        "precision": st.one_of(st.none(), st.integers(-128, 127)),
        "day": st.one_of(st.none(), st.dates(dt.date(1, 1, 1), dt.date(9999, 12, 31))),
        "line": st.integers(0, 2**62),
        "badges": st.one_of(st.none(), st.lists(TEXT, max_size=3)),
    }
)
SCHEMA = pa.schema(
    [
        ("qid", pa.string()),
        ("value", pa.string()),
        ("ordinal", pa.int32()),
        ("precision", pa.int8()),
        ("day", pa.date32()),
        ("line", pa.int64()),
        ("badges", pa.list_(pa.string())),
    ]
)


@st.composite
def chunked_tables(draw: st.DrawFn) -> pa.Table:
    """A table in several chunks, some of them slices (buffers with an offset)."""
    chunks = []
    for rows in draw(st.lists(st.lists(ROW, max_size=8), min_size=1, max_size=4)):
        table = pa.Table.from_pylist(rows, schema=SCHEMA)
        cut = draw(st.integers(0, len(rows)))
        chunks.append(table.slice(cut) if draw(st.booleans()) else table)
    return pa.concat_tables(chunks)


@st.composite
def tables_and_runs(draw: st.DrawFn) -> tuple[pa.Table, np.ndarray, np.ndarray]:
    table = draw(chunked_tables())
    bounds = np.cumsum([0, *(len(chunk) for chunk in table.column(0).chunks)])
    runs = []
    for _ in range(draw(st.integers(0, 12))):
        chunk = draw(st.integers(0, len(bounds) - 2))
        lo, hi = int(bounds[chunk]), int(bounds[chunk + 1])
        start = draw(st.integers(lo, hi))
        runs.append((start, draw(st.integers(0, hi - start))))
    starts = np.array([start for start, _ in runs], np.int64)
    return table, starts, np.array([length for _, length in runs], np.int64)


def _take(table: pa.Table, starts: np.ndarray, lengths: np.ndarray) -> pa.Table:
    runs = zip(starts, lengths, strict=True)
    rows = [row for start, length in runs for row in range(start, start + length)]
    return table.take(pa.array(rows, pa.int64()))


@settings(max_examples=300)
@given(tables_and_runs())
def test_runs_gather_like_a_take_of_their_rows(
    case: tuple[pa.Table, np.ndarray, np.ndarray],
) -> None:
    table, starts, lengths = case
    gathered = gather_runs(table, starts, lengths)
    gathered.validate(full=True)
    assert gathered.schema == table.schema
    assert gathered.to_pylist() == _take(table, starts, lengths).to_pylist()


def test_a_run_across_chunks_is_gathered_from_the_column_combined() -> None:
    table = pa.concat_tables(
        [pa.table({"v": ["a", None]}), pa.table({"v": ["c", "d"]}), pa.table({"v": ["e"]})]
    )
    gathered = gather_runs(table, np.array([3, 1]), np.array([2, 3]))
    assert gathered.column("v").to_pylist() == ["d", "e", None, "c", "d"]


def test_columns_of_other_types_are_taken() -> None:
    table = pa.table({"flag": [True, False, None], "v": ["a", "b", "c"]})
    gathered = gather_runs(table, np.array([2, 0]), np.array([1, 2]))
    assert gathered.to_pylist() == [
        {"flag": None, "v": "c"},
        {"flag": True, "v": "a"},
        {"flag": False, "v": "b"},
    ]


def test_runs_outside_their_chunk_are_refused() -> None:
    module = native_module()
    assert module is not None
    chunk = pa.array(["a", "b"])
    buffers = chunk.buffers()
    with pytest.raises(ValueError, match="outside"):
        module.gather_runs(
            1, 0, [(None, buffers[1], buffers[2], 0, 2)], np.array([0], np.int32),
            np.array([1], np.int64), np.array([2], np.int64), 2,
        )  # fmt: skip


def test_malformed_chunk_descriptions_raise_instead_of_crashing() -> None:
    module = native_module()
    assert module is not None
    runs = (np.array([0], np.int32), np.array([0], np.int64), np.array([1], np.int64), 1)
    with pytest.raises(TypeError):
        module.gather_runs(1, 0, [("not", "a chunk")], *runs)
    with pytest.raises(TypeError):
        module.gather_runs(1, 0, [(None, 5, None, 0, 1)], *runs)  # 5 has no buffer
