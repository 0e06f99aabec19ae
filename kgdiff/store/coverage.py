"""The entities a subset snapshot knows about: its ``coverage`` table.

A snapshot built from a whole dump is *full*: an entity it lacks did not exist (or was
deleted) on its date, so the classification may read the absence as knowledge. A snapshot
built from an entity list, ``--limit``, a sample or a filtered dump is a *subset*: it knows
nothing about the entities it does not list, so their groups are *not covered* there
(docs/classification.md). A subset snapshot's folder holds ``coverage/part-00000.parquet``,
one sorted, distinct ``qid`` column: every entity (and redirect) it holds, plus the ids it
knows to be absent (an ``ingest api`` entity that did not exist on the date).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from kgdiff.store.layout import table_files

COVERAGE_TABLE = "coverage"
COVERAGE_SCHEMA = pa.schema([pa.field("qid", pa.string(), nullable=False)])


def write_coverage(folder: Path, also_known: Iterable[str] = ()) -> int:
    """Write the coverage table of the snapshot folder ``folder`` (not yet published): the
    ids of its entities table and ``also_known``; return how many ids it lists."""
    held = [
        pq.ParquetFile(path).read(columns=["qid"]).column("qid").cast(pa.string())
        for path in table_files(folder, "entities")
    ]
    known = pa.chunked_array([*held, pa.array(sorted(set(also_known)), pa.string())])
    distinct = pc.unique(known)
    ordered = pc.take(distinct, pc.sort_indices(distinct))
    out = folder / COVERAGE_TABLE
    out.mkdir(exist_ok=True)
    table = pa.Table.from_arrays([ordered], schema=COVERAGE_SCHEMA)
    pq.write_table(table, out / "part-00000.parquet", compression="zstd")
    return int(table.num_rows)
