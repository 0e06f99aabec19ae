"""Write object pools to CSV, JSON lines or Parquet with ChroKnowBench's per-period fields.

Each record gets ``objects_<period>`` (``objects_2014``, ``objects_2014-03``) next to its
``periods``; in CSV, lists and structs are JSON text (:mod:`kgdiff.temporal.writers`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from kgdiff.ids import repeated_ids
from kgdiff.temporal.pools import PoolRequest, pool_readers
from kgdiff.temporal.writers import check_out, write_reader


@dataclass
class PoolExport:
    """What an export wrote: groups, their subjects, and the ids it shows without a label."""

    groups: int = 0
    subjects: set[str] = field(default_factory=set)
    unlabelled: set[str] = field(default_factory=set)


def with_chroknow_columns(batch: pa.RecordBatch) -> pa.Table:
    """``batch`` plus one ``objects_<period>`` column per period (all rows share the periods)."""
    table = pa.Table.from_batches([batch])
    periods = batch.column("periods")
    for index, period in enumerate(periods[0].as_py()):
        objects = pc.struct_field(pc.list_element(periods, index), "objects")
        table = table.append_column(f"objects_{period['period']}", objects)
    return table


def with_chroknow_table(table: pa.Table) -> pa.Table:
    """A whole pools answer with its ``objects_<period>`` columns (an empty one as it is)."""
    if table.num_rows == 0:
        return table
    return pa.concat_tables(with_chroknow_columns(b) for b in table.to_batches() if b.num_rows)


def unlabelled_ids(batch: pa.RecordBatch | pa.Table) -> set[str]:
    """The ids a batch of pools shows without a label (its label repeats the id)."""
    pairs = [("subject", "subject_label"), ("pid", "pid_label")]
    pairs.append(("all_objects", "all_objects_labels"))
    found: set[str] = set()
    for ids, labels in pairs:
        found |= repeated_ids(batch.column(ids), batch.column(labels))
    return found


def export_pools(
    connection: duckdb.DuckDBPyConnection, request: PoolRequest, out: Path
) -> PoolExport:
    """Write one record per group to ``out`` (.csv, .jsonl or .parquet, atomically)."""
    check_out(out)
    request.check()
    tally = PoolExport()
    tables = _tables(pool_readers(connection, request), tally)
    first = next(tables, None)
    if first is None:
        empty = _empty_schema(connection, request)
        write_reader(pa.RecordBatchReader.from_batches(empty, []), out)
        return tally
    batches = (batch for table in chain([first], tables) for batch in table.to_batches())
    write_reader(pa.RecordBatchReader.from_batches(first.schema, batches), out)
    return tally


def _tables(readers: Iterator[pa.RecordBatchReader], tally: PoolExport) -> Iterator[pa.Table]:
    for reader in readers:
        for batch in reader:
            if batch.num_rows == 0:
                continue
            tally.groups += batch.num_rows
            tally.subjects |= set(batch.column("subject").to_pylist())
            tally.unlabelled |= unlabelled_ids(batch)
            yield with_chroknow_columns(batch)


def _empty_schema(connection: duckdb.DuckDBPyConnection, request: PoolRequest) -> pa.Schema:
    """The columns of a pools answer (no group: the file holds only them)."""
    return next(pool_readers(connection, request)).schema
