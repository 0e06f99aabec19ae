"""The finalize step sorts each table in subject ranges (buckets), one file per bucket."""

from __future__ import annotations

import bisect
import itertools
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.ingest.pipeline import IngestRequest, IngestResult, ingest_wikidata
from kgdiff.store.buckets import (
    MAX_READ_AMPLIFICATION,
    PartFile,
    bucket_count,
    key_ranges,
    plan_buckets,
    read_amplification,
)
from kgdiff.store.layout import TABLES, table_files
from tests.paths import SAMPLES

SORT_KEYS = {
    "entities": "qid, source_line",
    "labels": "qid, kind, lang, ordinal",
    "sitelinks": "qid, site",
    "statements": "subject, pid, ordinal, statement_id",
    "qualifiers": "subject, pid, statement_id, ordinal",
}
"""The ORDER BY of each sql/ingest/finalize_*.sql."""

entity_ids = st.builds(
    lambda kind, number: f"{kind}{number}",
    st.sampled_from("LPQ"),
    st.integers(min_value=1, max_value=3000),
)
chunks = st.lists(st.lists(entity_ids, min_size=0, max_size=30), min_size=1, max_size=12)


def _ingest_in_small_buckets(store: Path) -> IngestResult:
    """The 2014-12 sample in 64 KB chunks and 8 KB buckets: many parts, several files a table."""
    return ingest_wikidata(
        IngestRequest(
            path=SAMPLES / "testDump_json_2014-12.json.bz2",
            snapshot="buckets",
            date="2014-12-31",
            store=store,
            chunk_bytes=64 << 10,
            bucket_bytes=8 << 10,
        )
    )


def _holds(lo: str | None, hi: str | None, qid: str) -> bool:
    return (lo is None or lo <= qid) and (hi is None or qid < hi)


def _ranges_of(ids: list[str]) -> list[tuple[str, str]]:
    table = pa.table({"qid": pa.array(ids, pa.string())})
    return key_ranges({"entities": table})


@settings(max_examples=150, deadline=None)
@given(chunks=chunks, count=st.sampled_from([1, 2, 4, 8, 16]))
def test_every_row_lands_in_one_bucket_that_reads_its_part(
    chunks: list[list[str]], count: int
) -> None:
    every_id = sorted(qid for chunk in chunks for qid in chunk)
    quantiles = [every_id[len(every_id) * i // 16] for i in range(1, 16)] if every_id else []
    files = [PartFile(f"part{n}", 1 + len(ids), _ranges_of(ids)) for n, ids in enumerate(chunks)]
    buckets = plan_buckets(files, quantiles, count)
    assert len(buckets) <= count
    for first, second in itertools.pairwise(buckets):
        assert first.hi is not None and second.lo is not None and first.hi <= second.lo
    for part, ids in zip(files, chunks, strict=True):
        for qid in ids:
            holding = [
                b for b in buckets if (b.lo is None or b.lo <= qid) and (b.hi is None or qid < b.hi)
            ]
            assert len(holding) == 1, qid
            assert part.path in holding[0].files
    bounds = [b.lo for b in buckets[1:] if b.lo is not None]
    assert len(buckets) <= 1 or read_amplification(files, bounds) <= MAX_READ_AMPLIFICATION


@given(st.lists(entity_ids, min_size=1, max_size=60))
def test_key_ranges_hold_each_kind_of_id(ids: list[str]) -> None:
    ranges = _ranges_of(ids)
    assert [first[0] for first, _ in ranges] == sorted({qid[0] for qid in ids})
    for qid in ids:
        assert any(first <= qid <= last for first, last in ranges)
    starts = [first for first, _ in ranges]
    assert starts == sorted(starts)
    assert bisect.bisect_left(starts, min(ids)) == 0


def test_key_ranges_cover_every_table_and_skip_empty_ones() -> None:
    tables = {
        "entities": pa.table({"qid": pa.array(["Q5"], pa.string())}),
        "statements": pa.table({"subject": pa.array(["L7-F1", "Q50"], pa.string())}),
        "labels": pa.table({"qid": pa.array([], pa.string())}),
    }
    assert key_ranges(tables) == [("L7-F1", "L7-F1"), ("Q5", "Q50")]
    assert key_ranges({"labels": tables["labels"]}) == []


@pytest.mark.parametrize(
    ("size", "budget", "count"), [(0, 10, 1), (10, 10, 1), (11, 10, 2), (75, 12, 8)]
)
def test_bucket_count_is_a_power_of_two_within_budget(size: int, budget: int, count: int) -> None:
    assert bucket_count(size, budget) == count


def test_small_buckets_give_the_same_tables_sorted_across_files(
    tmp_path: Path, sample_store: Path
) -> None:
    """The 2014-12 sample in 64 KB chunks and 8 KB buckets equals the reference snapshot,
    and each table read file after file is in its sort order."""
    result = _ingest_in_small_buckets(tmp_path)
    reference = sample_store / "snapshots" / "snapshot=wd-2014-12"
    con = duckdb.connect()
    for table in TABLES:
        files = [str(path) for path in table_files(result.directory, table)]
        assert len(files) > (1 if table != "qualifiers" else 0), table
        ours = (
            f"read_parquet({files}, hive_partitioning = false,"
            " file_row_number = true, filename = true)"
        )
        theirs = f"read_parquet('{reference}/{table}/*.parquet', hive_partitioning = false)"
        columns = "* EXCLUDE (file_row_number, filename)"
        diff = con.execute(
            f"SELECT count(*) FROM ((SELECT {columns} FROM {ours} EXCEPT ALL FROM {theirs})"
            f" UNION ALL (FROM {theirs} EXCEPT ALL SELECT {columns} FROM {ours}))"
        ).fetchone()
        assert diff == (0,), table
        out_of_order = con.execute(
            "SELECT count(*) FROM (SELECT"
            f" row_number() OVER (ORDER BY {SORT_KEYS[table]}) AS wanted,"
            f" row_number() OVER (ORDER BY list_position({files}, filename), file_row_number)"
            f" AS got FROM {ours}) WHERE wanted <> got"
        ).fetchone()
        assert out_of_order == (0,), table


@pytest.mark.parametrize("folder", ["plain", "odd[1]"])
def test_catalog_views_read_every_part_file(tmp_path: Path, folder: str) -> None:
    """The views read a table's files through one glob, or one by one when the store's path
    holds glob characters; either way they see every row."""
    store = tmp_path / folder
    result = _ingest_in_small_buckets(store)
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as con:
        for table in TABLES:
            row = con.execute(f"SELECT count(*) FROM {table}").fetchone()
            assert row == (result.manifest.counts[table],), table
            sql = con.execute(
                "SELECT sql FROM duckdb_views() WHERE view_name = ?", [table]
            ).fetchone()
            assert sql is not None
            assert ("part-*.parquet" in sql[0]) == (folder == "plain"), table
