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
    """What an export wrote: its groups, the subjects asked that have some, the ids it shows
    without a label, and the groups read from a snapshot other than ``latest`` (their
    ``subject``, ``snapshot`` and ``periods``: few, and what the notes name)."""

    latest: str
    groups: int = 0
    subjects: set[str] = field(default_factory=set)
    unlabelled: set[str] = field(default_factory=set)
    elsewhere: list[pa.Table] = field(default_factory=list)

    def add(self, batch: pa.RecordBatch, asked: frozenset[str]) -> None:
        """Count a batch of groups in (only the subjects ``asked`` are kept by name)."""
        self.groups += batch.num_rows
        if asked:
            self.subjects |= asked & set(batch.column("subject").to_pylist())
        self.unlabelled |= unlabelled_ids(batch)
        other = pc.not_equal(batch.column("snapshot"), pa.scalar(self.latest, pa.string()))
        if pc.any(other).as_py():
            picked = pa.Table.from_batches([batch]).select(["subject", "snapshot", "periods"])
            self.elsewhere.append(picked.filter(other))

    def read_elsewhere(self) -> pa.Table | None:
        """The groups read from another snapshot than ``latest`` (None: none)."""
        return pa.concat_tables(self.elsewhere) if self.elsewhere else None


def with_chroknow_columns(batch: pa.RecordBatch) -> pa.Table:
    """``batch`` plus one ``objects_<period>`` column per period (all rows share the periods)."""
    table = pa.Table.from_batches([batch])
    periods = batch.column("periods")
    for index, period in enumerate(periods[0].as_py()):
        objects = pc.struct_field(pc.list_element(periods, index), "objects")
        table = table.append_column(f"objects_{period['period']}", objects)
    return table


def unlabelled_ids(batch: pa.RecordBatch | pa.Table) -> set[str]:
    """The ids a batch of pools shows without a label (its label repeats the id)."""
    pairs = [("subject", "subject_label"), ("pid", "pid_label")]
    pairs.append(("all_objects", "all_objects_labels"))
    found: set[str] = set()
    for ids, labels in pairs:
        found |= repeated_ids(batch.column(ids), batch.column(labels))
    return found


def export_pools(
    connection: duckdb.DuckDBPyConnection, request: PoolRequest, out: Path, latest: str
) -> PoolExport:
    """Write one record per group to ``out`` (.csv, .jsonl or .parquet, atomically), a batch
    at a time (every subject's pools at 3 × 25 M statements took 10.7 GB held whole);
    ``latest`` is the snapshot the pools read unless a subject is not in it (the groups read
    from another are kept for the notes: every group, were it wrong)."""
    check_out(out)
    request.check()
    tally = PoolExport(latest)
    tables = _tables(pool_readers(connection, request), tally, frozenset(request.subjects))
    first = next(tables, None)
    if first is None:
        empty = _empty_schema(connection, request)
        write_reader(pa.RecordBatchReader.from_batches(empty, []), out)
        return tally
    batches = (batch for table in chain([first], tables) for batch in table.to_batches())
    write_reader(pa.RecordBatchReader.from_batches(first.schema, batches), out)
    return tally


def _tables(
    readers: Iterator[pa.RecordBatchReader], tally: PoolExport, asked: frozenset[str]
) -> Iterator[pa.Table]:
    for reader in readers:
        for batch in reader:
            if batch.num_rows == 0:
                continue
            tally.add(batch, asked)
            yield with_chroknow_columns(batch)


def _empty_schema(connection: duckdb.DuckDBPyConnection, request: PoolRequest) -> pa.Schema:
    """The columns of a pools answer (no group: the file holds only them)."""
    return next(pool_readers(connection, request)).schema
