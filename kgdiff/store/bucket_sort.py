"""Sort one bucket of a table (a range of subjects) from the part files into a Parquet file.

This is the finalize step's inner loop, in Arrow: the parts are Arrow IPC files, so
reading them costs little more than decompressing, and Arrow's sort and Parquet writer
take about half the CPU time DuckDB needs to load, sort and write the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

from kgdiff.errors import StoreError
from kgdiff.rows.schema import PUBLISHED_SCHEMAS
from kgdiff.store.buckets import KEY_COLUMNS, Bucket, in_range_mask, ranges_overlap
from kgdiff.store.staging import group_ranges, part_file
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
TYPE_COLUMNS = ["subject", "pid", "ordinal", "rank", "object_qid"]


def read_rows(
    files: Sequence[str], key: str, lo: str | None, hi: str | None, columns: list[str] | None = None
) -> pa.Table:
    """The rows of the part ``files`` whose ``key`` is in ``[lo, hi)`` (None: unbounded)."""
    return pa.concat_tables(
        [_in_range(read_part(path, columns, lo, hi), key, lo, hi) for path in files]
    )


def _sorted_bucket(table: str, bucket: Bucket) -> pa.Table:
    key, lo, hi = KEY_COLUMNS[table], bucket.lo, bucket.hi
    if table in RUN_ORDERED_TABLES:
        return run_ordered((read_part(path, None, lo, hi) for path in bucket.files), key, lo, hi)
    return sorted_rows(read_rows(bucket.files, key, lo, hi), SORT_KEYS[table])


def read_part(
    path: str, columns: list[str] | None, lo: str | None = None, hi: str | None = None
) -> pa.Table:
    """The record batches of a part file whose subjects may lie in ``[lo, hi)`` (all of
    them when the file does not record its batches' ranges), without schema metadata.

    The file is memory-mapped: the buffers of an uncompressed part are used where they lie
    in the page cache, without a copy (a compressed part is decompressed either way)."""
    try:
        with pa.memory_map(path) as source:
            reader = ipc.open_file(source)
            ranges = group_ranges(reader.schema)
            if columns is not None:
                reader = ipc.open_file(source, options=_only(reader.schema, columns))
            schema = reader.schema.remove_metadata()
            if ranges is None or len(ranges) != reader.num_record_batches:
                return reader.read_all().replace_schema_metadata(None)
            wanted = [i for i, group in enumerate(ranges) if ranges_overlap(group, lo, hi)]
            return pa.Table.from_batches([reader.get_batch(i) for i in wanted], schema)
    except (pa.ArrowInvalid, OSError) as exc:  # damaged after it was written (disk, by hand)
        folder = Path(path).parent
        raise StoreError(
            f"{path}: staging part unreadable ({exc}); delete {folder} and run the same"
            " command again to parse that chunk anew"
        ) from exc


def _only(schema: pa.Schema, columns: list[str]) -> ipc.IpcReadOptions:
    return ipc.IpcReadOptions(included_fields=[schema.get_field_index(c) for c in columns])


def _in_range(table: pa.Table, key: str, lo: str | None, hi: str | None) -> pa.Table:
    mask = in_range_mask(table.column(key), lo, hi)
    return table if mask is None else table.filter(mask)


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


def _type_statements(statement_files: Sequence[str], bucket: Bucket) -> pa.Table:
    """The bucket's P31 statements with an item value and a rank other than deprecated.

    Filtered part by part: a bucket of entities has all their statements behind it (several
    hundred MB for a 100 MB bucket of a 10 GB dump), of which only the P31 ones are needed.
    """
    kept = []
    for path in statement_files:
        rows = read_rows([path], "subject", bucket.lo, bucket.hi, TYPE_COLUMNS)
        wanted = pc.and_(
            pc.and_(pc.equal(rows["pid"], "P31"), pc.not_equal(rows["rank"], "deprecated")),
            pc.is_valid(rows["object_qid"]),
        )
        kept.append(rows.filter(wanted))
    return pa.concat_tables(kept)


def _p31_types(
    statement_files: Sequence[str], bucket: Bucket, qids: pa.Array
) -> pa.ChunkedArray | pa.Array:
    """For each of ``qids``, its P31 values (non-deprecated items, in statement order)."""
    types = sorted_rows(_type_statements(statement_files, bucket), ("subject", "ordinal"))
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


def _entity_rows(entity_files: Sequence[str], bucket: Bucket) -> pa.Table:
    rows = sorted_rows(read_rows(entity_files, "qid", bucket.lo, bucket.hi), SORT_KEYS["entities"])
    statement_files = [str(part_file(Path(path).parent, "statements")) for path in entity_files]
    columns = {name: rows[name] for name in rows.column_names}
    columns["aliases_en"] = _empty_lists(rows["aliases_en"])
    columns["p31"] = _p31_types(statement_files, bucket, rows["qid"].combine_chunks())
    columns["modified"] = modified_timestamps(rows["modified"])
    schema = PUBLISHED_SCHEMAS["entities"]
    return pa.table([columns[field.name] for field in schema], schema=schema)


def bucket_rows(table: str, bucket: Bucket) -> pa.Table:
    """The published rows of ``table`` in ``bucket``, sorted."""
    if table == "entities":
        return _entity_rows(bucket.files, bucket)
    rows = _sorted_bucket(table, bucket)
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
