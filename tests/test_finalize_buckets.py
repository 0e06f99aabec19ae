"""The finalize step sorts each table in subject ranges (buckets), one file per bucket."""

from __future__ import annotations

import bisect
import bz2
import itertools
import json
from datetime import datetime
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.errors import StoreError
from kgdiff.ingest.pipeline import IngestRequest, IngestResult, ingest_wikidata
from kgdiff.ingest.worker import Task, run_task
from kgdiff.readers.json_dump import Chunk
from kgdiff.rows.schema import REQUIRED_COLUMNS
from kgdiff.store.bucket_sort import (
    PLAIN_COLUMNS,
    SORT_KEYS,
    modified_timestamps,
    runs_as_lists,
)
from kgdiff.store.buckets import (
    MAX_BUCKET_BYTES,
    MAX_READ_AMPLIFICATION,
    SORT_MEMORY_FACTOR,
    PartFile,
    bucket_budget,
    bucket_count,
    key_ranges,
    plan_buckets,
    read_amplification,
)
from kgdiff.store.finalize import finalize
from kgdiff.store.layout import TABLES, table_files
from kgdiff.store.manifest import SourceInfo
from kgdiff.store.staging import Staging, StagingState
from tests.paths import SAMPLES

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


@pytest.fixture(scope="module")
def small_buckets(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, IngestResult]:
    """The store of the 2014-12 sample ingested in small buckets, once for the tests that
    only read it, in a folder named ``plain`` (the catalog test's plain path)."""
    store = tmp_path_factory.mktemp("small-buckets") / "plain"
    return store, _ingest_in_small_buckets(store)


def _holds(lo: str | None, hi: str | None, qid: str) -> bool:
    return (lo is None or lo <= qid) and (hi is None or qid < hi)


def _ranges_of(ids: list[str]) -> list[tuple[str, str]]:
    table = pa.table({"qid": pa.array(ids, pa.string())})
    return key_ranges({"entities": table})


@settings(max_examples=150)
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
def test_key_ranges_hold_each_kind_and_length_of_id(ids: list[str]) -> None:
    ranges = _ranges_of(ids)
    assert len(ranges) == len({(qid[0], len(qid)) for qid in ids})
    for first, last in ranges:
        assert (first[0], len(first)) == (last[0], len(last))
    for qid in ids:
        assert any(first <= qid <= last for first, last in ranges)
    starts = [first for first, _ in ranges]
    assert starts == sorted(starts)
    assert bisect.bisect_left(starts, min(ids)) == 0


def test_key_ranges_come_from_the_entities_and_skip_empty_ones() -> None:
    tables = {
        "entities": pa.table({"qid": pa.array(["Q50", "L7", "Q5"], pa.string())}),
        "statements": pa.table({"subject": pa.array(["L7-F1", "Q50"], pa.string())}),
    }
    assert key_ranges(tables) == [("L7", "L7"), ("Q5", "Q5"), ("Q50", "Q50")]
    assert key_ranges({"entities": pa.table({"qid": pa.array([], pa.string())})}) == []
    assert key_ranges({"labels": pa.table({"qid": pa.array(["Q1"], pa.string())})}) == []


def test_a_chunk_across_a_digit_boundary_is_read_only_where_its_ids_sort() -> None:
    """``Q9999`` and ``Q10000`` sort far apart as text: one range from ``Q10000`` to
    ``Q9999`` would put the chunk in every bucket between them."""
    part = PartFile("part", 1, _ranges_of(["Q9998", "Q9999", "Q10000", "Q10001"]))
    buckets = plan_buckets([part], ["Q3", "Q5", "Q7"], 4)
    assert [(b.lo, b.hi) for b in buckets] == [(None, "Q3"), ("Q7", None)]


@given(
    bounds=st.lists(entity_ids, max_size=20).map(lambda ids: sorted(set(ids))),
    lexeme=st.integers(min_value=1, max_value=3000),
    suffix=st.sampled_from(["-F1", "-S2", "-F12"]),
)
def test_form_and_sense_subjects_fall_in_their_lexemes_bucket(
    bounds: list[str], lexeme: int, suffix: str
) -> None:
    """Statements of a lexeme's forms and senses have ``L7-F1`` as subject, not an entity id;
    no entity id sorts between ``L7`` and ``L7-F1`` (``-`` sorts before digits), so bucket
    bounds taken from entity ids never separate them, and the lexeme's range covers them."""
    lexeme_id = f"L{lexeme}"
    assert bisect.bisect_right(bounds, lexeme_id + suffix) == bisect.bisect_right(bounds, lexeme_id)


@pytest.mark.parametrize(
    ("size", "budget", "count"), [(0, 10, 1), (10, 10, 1), (11, 10, 2), (75, 12, 8)]
)
def test_bucket_count_is_a_power_of_two_within_budget(size: int, budget: int, count: int) -> None:
    assert bucket_count(size, budget) == count


@pytest.mark.parametrize(
    ("memory_mb", "threads", "expected"),
    [
        (64, 1, (64 << 20) // SORT_MEMORY_FACTOR),
        (90, 3, (90 << 20) // (3 * SORT_MEMORY_FACTOR)),
        (1024, 1, MAX_BUCKET_BYTES),
        (1024, 2, MAX_BUCKET_BYTES),
        (0, 2, 1),
    ],
)
def test_bucket_budget_shares_memory_up_to_the_largest_bucket(
    memory_mb: int, threads: int, expected: int
) -> None:
    assert bucket_budget(memory_mb, threads) == expected


def test_small_buckets_give_the_same_tables_sorted_across_files(
    small_buckets: tuple[Path, IngestResult], sample_store: Path
) -> None:
    """The 2014-12 sample in 64 KB chunks and 8 KB buckets equals the reference snapshot,
    and each table read file after file is in its sort order."""
    _, result = small_buckets
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
        order = ", ".join(SORT_KEYS[table])
        out_of_order = con.execute(
            "SELECT count(*) FROM (SELECT"
            f" row_number() OVER (ORDER BY {order}) AS wanted,"
            f" row_number() OVER (ORDER BY list_position({files}, filename), file_row_number)"
            f" AS got FROM {ours}) WHERE wanted <> got"
        ).fetchone()
        assert out_of_order == (0,), table


def test_columns_of_distinct_values_have_no_dictionary(sample_store: Path) -> None:
    """A dictionary only where it pays: never on ids, revisions or titles; on the subject
    column exactly where it is not listed as plain (labels' long runs of one subject)."""
    snapshot = sample_store / "snapshots" / "snapshot=wd-2014-12"
    for table in TABLES:
        for path in table_files(snapshot, table):
            row_group = pq.ParquetFile(path).metadata.row_group(0)
            columns = {
                row_group.column(i).path_in_schema: row_group.column(i).has_dictionary_page
                for i in range(row_group.num_columns)
            }
            for name in PLAIN_COLUMNS.get(table, ()):
                assert columns[name] is False, (table, name)
            key = SORT_KEYS[table][0]
            assert columns[key] is (key not in PLAIN_COLUMNS.get(table, ())), (table, key)


def test_never_null_columns_are_required_and_read_back_without_nulls(sample_store: Path) -> None:
    """The columns both row builders always fill are Parquet REQUIRED (no definition levels);
    every other column stays OPTIONAL, and DuckDB reads the REQUIRED ones without a null."""
    snapshot = sample_store / "snapshots" / "snapshot=wd-2014-12"
    for table in TABLES:
        for path in table_files(snapshot, table):
            schema = pq.ParquetFile(path).schema_arrow
            required = {field.name for field in schema if not field.nullable}
            assert required == REQUIRED_COLUMNS[table], table
            nulls = (
                duckdb.connect()
                .execute(
                    f"SELECT {', '.join(f'count(*) - count({c})' for c in sorted(required))}"
                    f" FROM read_parquet('{path}')"
                )
                .fetchone()
            )
            assert nulls is not None and set(nulls) == {0}, table


def _p31_from_raw_json() -> dict[str, list[str]]:
    """Each entity's P31 item values in the sample, not deprecated, in statement order."""
    types: dict[str, list[str]] = {}
    with bz2.open(SAMPLES / "testDump_json_2014-12.json.bz2") as lines:
        for line in lines:
            line = line.strip().rstrip(b",")
            if not line.startswith(b"{"):
                continue
            entity = json.loads(line)
            values = []
            for statement in (entity.get("claims") or {}).get("P31", []):
                value = statement["mainsnak"].get("datavalue", {}).get("value")
                if statement.get("rank") != "deprecated" and isinstance(value, dict):
                    values.append(value.get("id") or f"Q{value['numeric-id']}")
            types[entity["id"]] = values
    return types


def test_entity_types_come_from_the_statements_of_every_part(
    small_buckets: tuple[Path, IngestResult],
) -> None:
    """``p31`` is gathered part by part for each entity bucket; checked against the raw JSON."""
    _, result = small_buckets
    files = [str(path) for path in table_files(result.directory, "entities")]
    assert len(files) > 1
    rows = duckdb.connect().execute(f"SELECT qid, p31 FROM read_parquet({files})").fetchall()
    expected = _p31_from_raw_json()
    assert {qid: list(p31) for qid, p31 in rows} == expected
    assert sum(1 for values in expected.values() if values) > 100


@pytest.mark.parametrize("folder", ["plain", "odd[1]"])
def test_catalog_views_read_every_part_file(
    tmp_path: Path, small_buckets: tuple[Path, IngestResult], folder: str
) -> None:
    """The views read a table's files through one glob relative to the store (whose root's
    glob characters the catalog escapes), whatever the store's path; they see every row.
    (The plain path is the shared store's, ingested there; the odd one is ingested anew.)"""
    if folder == "plain":
        store, result = small_buckets
    else:
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
            assert "part-*.parquet" in sql[0] and folder not in sql[0], table


def test_modified_strings_become_utc_timestamps_or_null() -> None:
    """``modified`` is read as UTC whatever its zone notation; unreadable text is null
    (one bad value does not null the others)."""
    texts = [
        "2014-10-01T00:00:00Z",
        None,
        "2014-10-01 12:00:00",
        "not a time",
        "2014-10-01T01:00:00+02:00",
        "2014-10-01T00:00:00.5Z",
    ]
    stamps = modified_timestamps(pa.chunked_array([texts], pa.string()))
    assert stamps.type == pa.timestamp("us")
    assert stamps.to_pylist() == [
        datetime(2014, 10, 1),
        None,
        datetime(2014, 10, 1, 12),
        None,
        datetime(2014, 9, 30, 23),
        datetime(2014, 10, 1, 0, 0, 0, 500000),
    ]


def _staged_sample(directory: Path, lines: int) -> Staging:
    """A staging folder holding one part: the first ``lines`` lines of the 2014-12 sample."""
    # (only the first lines decompressed: the whole sample took a third of a second)
    with bz2.open(SAMPLES / "testDump_json_2014-12.json.bz2") as sample:
        data = b"".join(itertools.islice(sample, lines))
    staging = Staging(directory, StagingState(SourceInfo("sample", len(data), 0), len(data)))
    staging.open()
    meta = run_task(Task(Chunk(0, 0, 1, data), staging.parts, "sample"))
    assert meta.entities == lines - 1  # the first line is "["
    return staging


def test_finalize_of_one_part_counts_its_rows(tmp_path: Path) -> None:
    staging = _staged_sample(tmp_path / "s", 40)
    told: list[tuple[float, float]] = []
    finalized = finalize(staging, threads=2, progress=lambda *now: told.append(now))
    rows = finalized.counts
    assert rows["entities"] == 39 and finalized.rejects_file is None
    assert finalized.duplicates == 0
    buckets = sum(len(list((staging.final / t).glob("part-*.parquet"))) for t in TABLES)
    assert 1 <= len(told) <= buckets  # once per wait that saw buckets finish
    done = [d for d, _ in told]
    assert done == sorted(done) and done[0] > 0
    assert {total for _, total in told} == {told[-1][0]}  # one total, reached at the end
    for table in TABLES:
        files = list((staging.final / table).glob("part-*.parquet"))
        assert sum(pq.ParquetFile(f).metadata.num_rows for f in files) == rows[table], table
    staging.close(remove=True)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_damaged_part_is_named_in_a_store_error(tmp_path: Path, threads: int) -> None:
    staging = _staged_sample(tmp_path / "s", 40)
    damaged = next(staging.parts.glob("*/labels.arrow"))
    damaged.write_bytes(damaged.read_bytes()[: damaged.stat().st_size // 2])
    with pytest.raises(StoreError, match=r"labels\.arrow: staging part unreadable.*delete"):
        finalize(staging, threads=threads)
    staging.close(remove=False)


def test_an_entity_twice_in_the_dump_keeps_the_last_copys_rows_only(tmp_path: Path) -> None:
    """Labels and statements of a repeated entity (no lastrevid): the last copy's rows only,
    whether the copies are in one chunk or two (issue 34; before, both copies' rows)."""
    copies = [
        {
            "id": "Q5",
            "labels": {"fr": {"value": "b"}, "de": {"value": "a"}},
            "claims": {"P7": [_claim("Q1")], "P31": [_claim("Q2"), _claim("Q3")]},
        },
        {"id": "Q5", "labels": {"en": {"value": "c"}}, "claims": {"P1": [_claim("Q4")]}},
    ]
    other = {"id": "Q40", "labels": {"en": {"value": "x"}}}
    lines = [json.dumps(doc) for doc in (copies[0], other, copies[1])]
    dump = tmp_path / "wikidata-20240101-all.json"
    dump.write_text("[\n" + ",\n".join(lines) + "\n]\n")
    for chunk_bytes in (1 << 20, 200):  # the copies in one chunk, then in two
        result = ingest_wikidata(
            IngestRequest(
                path=dump,
                snapshot=f"c{chunk_bytes}",
                store=tmp_path / "store",
                chunk_bytes=chunk_bytes,
            )
        )
        assert result.manifest.duplicates == 1
        labels = pq.read_table(table_files(result.directory, "labels")[0])
        assert labels.select(["qid", "lang"]).to_pylist() == [
            {"qid": "Q40", "lang": "en"},
            {"qid": "Q5", "lang": "en"},
        ]
        statements = pq.read_table(table_files(result.directory, "statements")[0])
        assert statements.select(["pid", "object_qid"]).to_pylist() == [
            {"pid": "P1", "object_qid": "Q4"},
        ]
        entities = pq.read_table(table_files(result.directory, "entities")[0])
        assert entities.select(["qid", "p31", "source_line"]).to_pylist() == [
            {"qid": "Q40", "p31": [], "source_line": 3},
            {"qid": "Q5", "p31": [], "source_line": 4},
        ]


def _claim(qid: str) -> dict[str, object]:
    value = {"entity-type": "item", "numeric-id": int(qid[1:]), "id": qid}
    snak = {
        "snaktype": "value",
        "property": "P1",
        "datatype": "wikibase-item",
        "datavalue": {"value": value, "type": "wikibase-entityid"},
    }
    return {"mainsnak": snak, "type": "statement", "rank": "normal"}


@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from(["Q1", "Q10", "Q2", "L3", "P31"]), st.text(max_size=3))))
def test_runs_as_lists_match_a_group_by_of_sorted_keys(pairs: list[tuple[str, str]]) -> None:
    pairs = sorted(pairs, key=lambda pair: pair[0])  # stable: values keep their order
    keys = pa.array([key for key, _ in pairs], pa.string())
    values = pa.array([value for _, value in pairs], pa.string())
    subjects, lists = runs_as_lists(keys, values)
    lists.validate(full=True)
    expected = pa.table({"k": keys, "v": values}).group_by("k", use_threads=False)
    grouped = expected.aggregate([("v", "list")])
    assert subjects.to_pylist() == grouped["k"].to_pylist()
    assert lists.to_pylist() == grouped["v_list"].to_pylist()
