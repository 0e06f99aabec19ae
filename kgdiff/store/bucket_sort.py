"""Sort one bucket of a table (a range of subjects) from the part files into a Parquet file.

This is the finalize step's inner loop, in Arrow: the parts are Arrow IPC files, so
reading them costs little more than decompressing, and Arrow's sort and Parquet writer
take about half the CPU time DuckDB needs to load, sort and write the same rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from kgdiff.rows.schema import PUBLISHED_SCHEMAS
from kgdiff.store.buckets import KEY_COLUMNS, Bucket
from kgdiff.store.duplicates import row_skips
from kgdiff.store.occurrences import Dropped
from kgdiff.store.part_reader import NO_SKIPS, BatchSkips, read_part, read_rows
from kgdiff.store.staging import part_file
from kgdiff.store.subject_runs import RUN_ORDERED_TABLES, run_ordered

SORT_KEYS: dict[str, tuple[str, ...]] = {
    "entities": ("qid", "source_line"),
    "labels": ("qid", "kind", "lang", "ordinal"),
    "sitelinks": ("qid", "site"),
    "statements": ("subject", "pid", "ordinal", "statement_id"),
    "qualifiers": ("subject", "pid", "statement_id", "ordinal"),
}
"""The order of each published table: by subject first (lookups), then what keeps the
order a reader expects (statement order within a property, alias order, ...). The parse
already writes each entity's labels, sitelinks and statements in this order, so those
tables are ordered run by run (:mod:`kgdiff.store.subject_runs`); the others are sorted."""

ROW_GROUP_ROWS = {
    "entities": 100_000,
    "labels": 500_000,
    "sitelinks": 500_000,
    "statements": 200_000,
    "qualifiers": 200_000,
}
FINAL_COMPRESSION = "zstd"
FINAL_LEVEL = 2
"""zstd level of the published files. Against level 3 on the bench dump's tables: the big
text columns written in 15–25 % less time (page titles, label values; statement ids even
come out smaller), the snapshot ~2.7 % larger; level 1 would be ~14 % larger."""
PLAIN_COLUMNS: dict[str, frozenset[str]] = {
    "entities": frozenset({"qid", "lastrevid", "modified", "source_line"}),
    "sitelinks": frozenset({"qid", "title"}),
    "statements": frozenset({"subject", "statement_id"}),
    "qualifiers": frozenset({"subject", "statement_id"}),
}
"""Columns written without a dictionary: (almost) every value is distinct, so a dictionary
costs time and space (the bench's entities files: 2.6 → 1.9 MB, ~17 % less time). Page
titles repeat across wikis for one entity, but too rarely to pay (plain: 10 % less time,
2 % larger); labels repeat far more (plain: twice the size), so they keep theirs. The sorted
subject of statements, qualifiers and sitelinks repeats in short runs, which zstd packs
better than the dictionary's run-length indices do (bench dump, plain against dictionary:
statements 0.28 against 0.55 MB, sitelinks 0.39 against 0.50 MB, each ~10–30 % less time);
labels' long runs of one subject (~60 rows) favour the dictionary (0.31 against 0.52 MB)."""
UTC_STAMP = pa.timestamp("us", tz="UTC")
Skips = Mapping[str, BatchSkips]
"""Rows to leave out, by part file path (see :func:`kgdiff.store.duplicates.row_skips`)."""
TYPE_COLUMNS = ["subject", "pid", "ordinal", "rank", "object_qid"]


def _sorted_bucket(table: str, bucket: Bucket, skips: Skips) -> pa.Table:
    key, lo, hi = KEY_COLUMNS[table], bucket.lo, bucket.hi
    if table in RUN_ORDERED_TABLES:
        parts = (read_part(path, None, lo, hi, skips.get(path, NO_SKIPS)) for path in bucket.files)
        return run_ordered(parts, key, lo, hi)
    return sorted_rows(read_rows(bucket.files, key, lo, hi, skips=skips), SORT_KEYS[table])


def sorted_rows(table: pa.Table, keys: Sequence[str]) -> pa.Table:
    """``table`` sorted by ``keys`` (ascending, nulls last, ties in input order)."""
    order = pc.sort_indices(table, sort_keys=[(name, "ascending") for name in keys])
    return table.take(order)


def _empty_lists(column: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray | pa.Array:
    """``column`` (a list column) with its nulls replaced by empty lists (itself, not a
    copy, when it has none: the row builders write empty lists where they can)."""
    if not column.null_count:
        return column
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    return pc.if_else(pc.is_null(array), pa.scalar([], array.type), array)


def _type_statements(statement_files: Sequence[str], bucket: Bucket, skips: Skips) -> pa.Table:
    """The bucket's P31 statements with an item value and a rank other than deprecated.

    Filtered part by part: a bucket of entities has all their statements behind it (several
    hundred MB for a 100 MB bucket of a 10 GB dump), of which only the P31 ones are needed.
    """
    kept = []
    for path in statement_files:
        rows = read_rows([path], "subject", bucket.lo, bucket.hi, TYPE_COLUMNS, skips)
        wanted = pc.and_(
            pc.and_(pc.equal(rows["pid"], "P31"), pc.not_equal(rows["rank"], "deprecated")),
            pc.is_valid(rows["object_qid"]),
        )
        kept.append(rows.filter(wanted))
    return pa.concat_tables(kept)


def _p31_types(
    statement_files: Sequence[str], bucket: Bucket, qids: pa.Array, skips: Skips
) -> pa.ChunkedArray | pa.Array:
    """For each of ``qids``, its P31 values (non-deprecated items, in statement order)."""
    statements = _type_statements(statement_files, bucket, skips)
    types = sorted_rows(statements, ("subject", "ordinal"))
    subjects, lists = runs_as_lists(
        types["subject"].combine_chunks(), types["object_qid"].combine_chunks()
    )
    return _empty_lists(lists.take(pc.index_in(qids, value_set=subjects)))


def runs_as_lists(keys: pa.Array, values: pa.Array) -> tuple[pa.Array, pa.ListArray]:
    """For ``keys`` in runs (sorted), each run's key and its ``values`` as one list.

    What a group-by with a ``list`` aggregate gives for sorted keys, without Arrow's query
    engine (whose import alone costs the ingest ~0.08 CPU-s): the runs are found the way
    :mod:`kgdiff.store.subject_runs` finds them, by run-end encoding the keys.
    """
    encoded = pc.run_end_encode(keys, run_end_type=pa.int32())
    offsets = pa.concat_arrays([pa.array([0], pa.int32()), encoded.run_ends])
    return encoded.values, pa.ListArray.from_arrays(offsets, values)


def modified_timestamps(column: pa.ChunkedArray) -> pa.Array:
    """ISO 8601 ``modified`` strings (``Z``, an offset, or none: UTC) as timestamps in UTC
    without a zone; null where unreadable."""
    try:
        stamps = pc.cast(column, UTC_STAMP)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):  # rare: parse value by value
        stamps = pa.array([_one_timestamp(text) for text in column.to_pylist()], UTC_STAMP)
    return pc.cast(stamps, pa.timestamp("us"))


def _one_timestamp(text: str | None) -> pa.Scalar | None:
    if text is None:
        return None
    for kind in (UTC_STAMP, pa.timestamp("us")):
        try:
            return pc.cast(pc.cast(pa.scalar(text), kind), UTC_STAMP)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            continue
    return None


def _entity_rows(entity_files: Sequence[str], bucket: Bucket, skips: Skips) -> pa.Table:
    found = read_rows(entity_files, "qid", bucket.lo, bucket.hi, skips=skips)
    rows = sorted_rows(found, SORT_KEYS["entities"])
    statement_files = [str(part_file(Path(path).parent, "statements")) for path in entity_files]
    columns = {name: rows[name] for name in rows.column_names}
    columns["aliases_en"] = _empty_lists(rows["aliases_en"])
    qids = rows["qid"].combine_chunks()
    columns["p31"] = _p31_types(statement_files, bucket, qids, skips)
    columns["modified"] = modified_timestamps(rows["modified"])
    schema = PUBLISHED_SCHEMAS["entities"]
    return pa.table([columns[field.name] for field in schema], schema=schema)


def entity_parts(bucket: Bucket) -> list[str]:
    """The entities part files of the chunks (folders) whose parts ``bucket`` reads."""
    return [str(part_file(Path(path).parent, "entities")) for path in bucket.files]


def bucket_rows(table: str, bucket: Bucket, dropped: Sequence[Dropped] = ()) -> pa.Table:
    """The published rows of ``table`` in ``bucket``, sorted, without the rows of the
    ``dropped`` occurrences of repeated entities (:mod:`kgdiff.store.duplicates`)."""
    read = (table, "statements") if table == "entities" else (table,)  # P31: statements
    skips = row_skips(dropped, read) if dropped else {}
    if table == "entities":
        return _entity_rows(bucket.files, bucket, skips)
    rows = _sorted_bucket(table, bucket, skips)
    if table == "sitelinks":
        rows = rows.set_column(
            rows.schema.get_field_index("badges"), "badges", _empty_lists(rows["badges"])
        )
    schema = PUBLISHED_SCHEMAS[table]
    return rows.select(schema.names).cast(schema)


def write_rows(table: str, rows: pa.Table, target: Path) -> None:
    """Write a bucket's sorted rows as one Parquet file (row groups sized for lookups).

    Only the subject column gets min/max statistics: it is the one whose row groups hold
    narrow ranges, so the only one where they let a reader skip any (the others cost
    ~13 % of the write for nothing).
    """
    plain = PLAIN_COLUMNS.get(table, frozenset())
    dictionary = [name for name in rows.column_names if name not in plain]
    pq.write_table(
        rows,
        target,
        row_group_size=ROW_GROUP_ROWS[table],
        compression=FINAL_COMPRESSION,
        compression_level=FINAL_LEVEL,
        use_dictionary=dictionary,
        write_statistics=[KEY_COLUMNS[table]],
    )
