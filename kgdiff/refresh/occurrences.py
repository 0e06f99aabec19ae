"""Every entity row the change files gave, with where it lies in their staging parts.

A row of an entities part is one *occurrence* of an entity: one revision read from one
input. The choice of the latest (:mod:`kgdiff.refresh.select`) needs, per occurrence, its
id, its revision (``lastrevid`` and ``modified`` from JSON; from XML, the page's revision id
and time kept by :mod:`kgdiff.refresh.inputs`), whether it is a redirect, and where it lies
(part folder, record batch, row) so the sort can leave the others out.
"""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

from kgdiff.refresh.inputs import REVISIONS_SCHEMA, ParsedInput, chunk_pages
from kgdiff.store.staging import part_file

_COLUMNS = ["qid", "lastrevid", "modified", "source_line", "redirect_to"]
OCCURRENCES_SCHEMA = pa.schema(
    [
        ("input", pa.int32()),
        ("folder", pa.string()),
        ("batch", pa.int32()),
        ("row", pa.int32()),
        ("qid", pa.string()),
        ("lastrevid", pa.int64()),
        ("modified", pa.string()),
        ("source_line", pa.int64()),
        ("redirect_to", pa.string()),
    ]
)
_PAGE_REVISIONS = pa.schema([*REVISIONS_SCHEMA, ("folder", pa.string())])
XML_REVISIONS_SCHEMA = pa.schema([("input", pa.int32()), *_PAGE_REVISIONS])


def _part_batches(parsed: ParsedInput) -> Iterator[pa.RecordBatch]:
    for _, folder in parsed.staging.part_folders():
        path = part_file(folder, "entities")
        with pa.memory_map(str(path)) as source:
            reader = ipc.open_file(source)
            for batch_index in range(reader.num_record_batches):
                batch = reader.get_batch(batch_index)
                rows = batch.num_rows
                columns = [
                    pa.array([parsed.index] * rows, pa.int32()),
                    pa.array([str(folder)] * rows, pa.string()),
                    pa.array([batch_index] * rows, pa.int32()),
                    pa.array(range(rows), pa.int32()),
                    *(batch.column(name) for name in _COLUMNS),
                ]
                yield pa.RecordBatch.from_arrays(columns, schema=OCCURRENCES_SCHEMA)


def occurrences(inputs: list[ParsedInput]) -> pa.Table:
    """The occurrences of every input, in input and part order."""
    batches = [batch for parsed in inputs for batch in _part_batches(parsed)]
    return pa.Table.from_batches(batches, schema=OCCURRENCES_SCHEMA)


def _revisions_of(parsed: ParsedInput) -> pa.Table | None:
    """The revisions of an XML input's entity pages, with the part folder that holds each
    page's rows when the workers read the XML in chunks (a page cut into chunks has a row
    per part: the same page number in two folders)."""
    if parsed.revisions is not None:
        table = pq.read_table(parsed.revisions)
        return table.append_column("folder", pa.nulls(table.num_rows, pa.string()))
    rows = [
        (record, revision, timestamp, str(folder))
        for pages, folder in chunk_pages(parsed.staging)
        for record, revision, timestamp in pages.revisions
    ]
    if not rows:
        return None
    columns = [list(column) for column in zip(*rows, strict=True)]
    return pa.table(columns, schema=_PAGE_REVISIONS)


def xml_revisions(inputs: list[ParsedInput]) -> pa.Table:
    """The revision id and time of each XML input's pages, by input and record (and part
    folder, where known)."""
    tables = []
    for parsed in inputs:
        table = _revisions_of(parsed)
        if table is None:
            continue
        index = pa.array([parsed.index] * table.num_rows, pa.int32())
        tables.append(table.add_column(0, "input", index))
    return pa.concat_tables(tables) if tables else XML_REVISIONS_SCHEMA.empty_table()
