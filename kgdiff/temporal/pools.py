"""Chronological object pools, ChroKnowBench style (DESIGN.md §5; sql/pools/pools.sql).

For a (subject, pid) group and each period (year or month) of ``[from_year, to_year]``,
the pool is the set of value keys of the group's non-deprecated statements in the
**latest** snapshot (valid time) that may be valid on some day of the period:

* A statement with a start (P580) or an end (P582) is valid on day T when start ≤ T < end
  (the end is exclusive, as in docs/classification.md). It *surely* overlaps a period
  ``[lo, hi]`` when start.hi ≤ hi, end.lo > lo and start.hi < end.lo (some day of the
  period is valid whatever the precision hides), and *possibly* overlaps it when only the
  wide bounds allow it (start.lo ≤ hi, end.hi > lo, start.lo < end.hi). A missing or
  ``novalue`` bound is open. An unknown (``somevalue``) bound never makes an overlap sure:
  with an unknown end the statement possibly overlaps every period from its start on (it
  may have ended any time), with an unknown start every period before its end.
* A statement with only a point in time (P585) is an event: it surely overlaps the period
  that contains its point's interval, possibly the periods that interval only partly
  overlaps (a year-precision point in each of its months); an unknown point possibly
  overlaps every period.
* A statement with none of these qualifiers is kept in every period (ChroKnowBench treats
  such facts as valid throughout) and listed in the period's ``unqualified`` values. No
  start is implied from the subject's existence (unlike valid-time classification).
* A value is in ``precision_only`` when none of its statements surely overlaps the period.
* A period with an empty pool takes the pool (and flags) of the last non-empty period
  before it, with ``filled = true``; empty periods before the first non-empty one stay
  empty. Trailing periods are filled too (e.g. after a person's death).
* ``state`` is ``dynamic`` when the (filled) pool differs between two consecutive periods,
  else ``static``; ``changes`` counts those differences. Groups whose periods are all empty
  are not reported.

Exports add ChroKnowBench's per-period lists (``objects_2014``, ``objects_2014-03``) to each
record. The Python API takes years 1…9999; the SQL itself (and the catalog macro) any year.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from kgdiff.errors import UsageError
from kgdiff.sqlfiles import as_table_macro, load_sql
from kgdiff.temporal.writers import check_out, published

GRANULARITIES = ("year", "month")
PARAMS = ["qid", "pid", "from_year", "to_year", "granularity"]
FIRST_YEAR, LAST_YEAR = 1, 9999
ENTITY_ID = re.compile(r"[QPL][1-9][0-9]*")
PROPERTY_ID = re.compile(r"P[1-9][0-9]*")
BATCH_ROWS = 10_000


@dataclass(frozen=True)
class PoolRequest:
    """Which groups and periods to pool: no subjects means every subject of ``pid``."""

    subjects: tuple[str, ...]
    pid: str | None
    from_year: int
    to_year: int
    granularity: str = "year"

    def check(self) -> None:
        """Raise :class:`UsageError` for ids, years or a granularity the query cannot use."""
        if not self.subjects and self.pid is None:
            raise UsageError("give one or more subjects, or --pid for every group of a property")
        for qid in self.subjects or (None,):
            check_query(qid, self.pid, self.from_year, self.to_year, self.granularity)


def check_query(
    qid: str | None, pid: str | None, from_year: int, to_year: int, granularity: str
) -> None:
    """Raise :class:`UsageError` unless the arguments of :func:`pools` can work."""
    check_years(from_year, to_year)
    if granularity not in GRANULARITIES:
        raise UsageError(f"granularity {granularity!r} is not one of {', '.join(GRANULARITIES)}")
    if qid is not None and not ENTITY_ID.fullmatch(qid):
        raise UsageError(f"{qid!r} is not an entity id like Q42, P31 or L1")
    if pid is not None and not PROPERTY_ID.fullmatch(pid):
        raise UsageError(f"--pid {pid!r} is not a property id like P39")


def check_years(from_year: int, to_year: int) -> None:
    """Raise :class:`UsageError` unless ``FIRST_YEAR <= from_year <= to_year <= LAST_YEAR``."""
    if from_year > to_year:
        raise UsageError(f"--from-year {from_year} is after --to-year {to_year}")
    if from_year < FIRST_YEAR or to_year > LAST_YEAR:
        raise UsageError(f"years must lie within {FIRST_YEAR}…{LAST_YEAR}")


def pools(
    connection: duckdb.DuckDBPyConnection,
    qid: str | None,
    pid: str | None,
    from_year: int,
    to_year: int,
    granularity: str = "year",
) -> duckdb.DuckDBPyRelation:
    """The pools query (sql/pools/pools.sql) as a relation: one row per reported group.

    Columns: subject, pid, granularity, state, changes, all_objects, periods (a list of
    structs: period, first_day, last_day, objects, precision_only, unqualified, filled).
    ``qid`` / ``pid`` None mean every subject / every property.
    """
    check_query(qid, pid, from_year, to_year, granularity)
    values = [qid, pid, from_year, to_year, granularity]
    return connection.sql(load_sql("pools/pools"), params=dict(zip(PARAMS, values, strict=True)))


def pool_readers(
    connection: duckdb.DuckDBPyConnection, request: PoolRequest
) -> Iterator[pa.RecordBatchReader]:
    """The groups of ``request`` as Arrow batch readers, one per subject (or one for all)."""
    request.check()
    for qid in request.subjects or (None,):
        relation = pools(
            connection, qid, request.pid, request.from_year, request.to_year, request.granularity
        )
        yield relation.to_arrow_reader(BATCH_ROWS)


def pool_records(
    connection: duckdb.DuckDBPyConnection, request: PoolRequest
) -> Iterator[dict[str, Any]]:
    """The groups of ``request`` as dicts (periods as lists of dicts)."""
    for reader in pool_readers(connection, request):
        for batch in reader:
            yield from batch.to_pylist()


def with_chroknow_fields(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` plus ChroKnowBench's per-period lists: ``objects_2014: [...]`` and so on."""
    extra = {f"objects_{p['period']}": p["objects"] for p in record["periods"]}
    return record | extra


def export_pools(connection: duckdb.DuckDBPyConnection, request: PoolRequest, out: Path) -> int:
    """Write one record per group to ``out`` (.jsonl or .parquet, atomically); return how many."""
    suffix = check_out(out)
    request.check()
    with published(out) as tmp:
        readers = pool_readers(connection, request)
        return _write_jsonl(readers, tmp) if suffix == ".jsonl" else _write_parquet(readers, tmp)


def _write_jsonl(readers: Iterator[pa.RecordBatchReader], path: Path) -> int:
    written = 0
    with path.open("wb") as handle:
        for reader in readers:
            for batch in reader:
                for record in batch.to_pylist():
                    handle.write(orjson.dumps(with_chroknow_fields(record)) + b"\n")
                    written += 1
    return written


def _write_parquet(readers: Iterator[pa.RecordBatchReader], path: Path) -> int:
    written, writer, schema = 0, None, None
    try:
        for reader in readers:
            schema = reader.schema
            for batch in reader:
                if batch.num_rows == 0:
                    continue
                table = _with_chroknow_columns(batch)
                writer = writer or pq.ParquetWriter(path, table.schema)
                writer.write_table(table)
                written += table.num_rows
    finally:
        if writer is not None:
            writer.close()
    if writer is None and schema is not None:  # no group: an empty file with the columns
        pq.write_table(schema.empty_table(), path)
    return written


def _with_chroknow_columns(batch: pa.RecordBatch) -> pa.Table:
    """``batch`` plus one ``objects_<period>`` column per period (all rows share the periods)."""
    table = pa.Table.from_batches([batch])
    periods = batch.column("periods")
    for index, period in enumerate(periods[0].as_py()):
        objects = pc.struct_field(pc.list_element(periods, index), "objects")
        table = table.append_column(f"objects_{period['period']}", objects)
    return table


def catalog_macro() -> str:
    """``pools(qid, pid, from_year, to_year, granularity := 'year')`` for the catalog."""
    return as_table_macro("pools/pools", "pools", PARAMS, {"granularity": "'year'"})
