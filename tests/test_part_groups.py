"""Staging parts keep items apart from the other kinds, and a bucket reads only what it needs.

Property and lexeme ids sort apart from item ids (``L…`` < ``P…`` < ``Q…``), and a real dump
has a few properties in almost every chunk: read whole, every part would be decompressed for
the bucket that holds the properties. So each part file has one record batch per group
(items; other kinds; entities the native row builder deferred) with the groups' subject
ranges in its metadata, and finalize skips the batches outside a bucket. Skipping must never
lose a row: the ranges are checked against every key they stand for.
"""

from __future__ import annotations

import bz2
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.ingest.parse import parse_json_chunk
from kgdiff.readers.json_dump import Chunk
from kgdiff.rows.native import native_enabled
from kgdiff.store.buckets import KEY_COLUMNS, key_ranges, ranges_overlap
from kgdiff.store.part_reader import read_part, read_rows
from kgdiff.store.staging import PartMeta, group_ranges, part_file, part_name, write_part
from tests.faultkit import TABLES
from tests.paths import SAMPLES

JSON_SAMPLE = SAMPLES / "testDump_json_2014-12.json.bz2"
entity_ids = st.builds(
    lambda kind, number: f"{kind}{number}",
    st.sampled_from("LPQ"),
    st.integers(min_value=1, max_value=3000),
)
bounds = st.one_of(st.none(), entity_ids)


@pytest.fixture(scope="module")
def part(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real 2014-12 sample parsed as one chunk and staged like a worker does."""
    result = parse_json_chunk(Chunk(0, 0, 0, bz2.decompress(JSON_SAMPLE.read_bytes())))
    parts = tmp_path_factory.mktemp("parts")
    meta = PartMeta(seq=0, entities=result.entities, statements=0, rejects=0, input_bytes=0)
    write_part(parts, meta, [(group, key_ranges(group)) for group in result.groups], [])
    return parts / part_name(0)


def _keys(table: pa.Table, name: str) -> list[str]:
    return sorted(table.column(KEY_COLUMNS[name]).to_pylist())


@pytest.mark.skipif(not native_enabled(), reason="the native row builder makes the groups")
def test_items_and_other_kinds_are_separate_batches(part: Path) -> None:
    reader = ipc.open_file(str(part_file(part, "labels")))
    ranges = group_ranges(reader.schema)
    assert ranges is not None and reader.num_record_batches == len(ranges) >= 2
    items, others = (reader.get_batch(i).column("qid").to_pylist() for i in (0, 1))
    assert items and all(qid.startswith("Q") for qid in items)
    assert others and not any(qid.startswith("Q") for qid in others)


@pytest.mark.parametrize("table", TABLES)
def test_an_item_bucket_skips_the_other_kinds_and_loses_nothing(part: Path, table: str) -> None:
    path = str(part_file(part, table))
    whole = read_part(path, None)
    read = read_part(path, None, "Q", None)
    key = whole.column(KEY_COLUMNS[table])
    wanted = whole.filter(pc.greater_equal(key, "Q"))
    if native_enabled():  # the item batch alone
        assert _keys(read, table) == _keys(wanted, table)
    above = read_rows([path], KEY_COLUMNS[table], "Q", None)
    below = read_rows([path], KEY_COLUMNS[table], None, "Q")
    assert _keys(above, table) == _keys(wanted, table)
    assert sorted(_keys(below, table) + _keys(above, table)) == _keys(whole, table)


def test_a_part_without_recorded_ranges_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "labels.arrow"
    table = pa.table({"qid": ["P1", "Q1"], "value": ["a", "b"]})
    with ipc.new_file(str(path), table.schema) as writer:  # as staging format 4 wrote them
        writer.write_table(table)
    assert read_part(str(path), None, "Q", None).equals(table)


@settings(max_examples=300)
@given(st.lists(st.lists(entity_ids, max_size=8), min_size=1, max_size=4), bounds, bounds)
def test_ranges_never_skip_a_group_with_a_key_in_the_bucket(
    groups: list[list[str]], lo: str | None, hi: str | None
) -> None:
    for keys in groups:
        ranges = key_ranges({"entities": pa.table({"qid": pa.array(keys, pa.string())})})
        inside = [k for k in keys if (lo is None or k >= lo) and (hi is None or k < hi)]
        if inside:
            assert ranges_overlap(ranges, lo, hi), (keys, lo, hi)
        if not keys:
            assert not ranges_overlap(ranges, lo, hi)
