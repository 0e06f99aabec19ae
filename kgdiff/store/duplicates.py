"""Entities whose id appears more than once in an input: one occurrence is kept, the rows of
the others are left out of every table.

The kept one is the revision with the highest ``lastrevid``; among equal ones, or where
none has one, the last read (the highest ``source_line``); an occurrence without a
``lastrevid`` loses to one with it. Occurrences may sit in different chunks, parsed by
different workers, so the finalize step finds them: its plan reads the entity ids of each
entities bucket (a subject range) and checks them for repeats (a hash: ~0.1 CPU-s per GB of
dump); only when one repeats does it read where each occurrence lies (part file, record
batch, row). Each table's bucket then leaves the rows of the dropped occurrences in its range
out. A part's batches hold each entity's rows together and in the order of its entities
(:mod:`kgdiff.store.staging`), so an entity's rows in a table start after those of the
entities before it: the counts of the entities part (``label_rows``, ``n_sitelinks``,
``n_statements``, and the statements' ``n_qualifiers``) say where.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import msgspec
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc

from kgdiff.store.buckets import ranges_overlap
from kgdiff.store.occurrences import Dropped, Occurrence
from kgdiff.store.part_reader import read_rows
from kgdiff.store.staging import group_ranges, part_file

ROW_COUNTS = {"labels": "label_rows", "sitelinks": "n_sitelinks", "statements": "n_statements"}
"""The entities part's count of an entity's rows in each table (qualifiers: see module doc)."""
_OCCURRENCE_COLUMNS = ["qid", "lastrevid", "source_line"]


def _repeated(entity_files: Sequence[str], lo: str | None, hi: str | None) -> pa.Array:
    """The ids that occur more than once in the subject range (usually none: a hash check)."""
    qids = read_rows(entity_files, "qid", lo, hi, ["qid"]).column("qid")
    if len(pc.unique(qids)) == len(qids):
        return pa.array([], pa.string())
    counts = pc.value_counts(qids)
    repeated = pc.greater(counts.field("counts"), 1)
    return counts.field("values").filter(repeated)


def _occurrences(path: str, repeated: pa.Array, lo: str | None, hi: str | None) -> list[Occurrence]:
    """Where the ids ``repeated`` (all in ``[lo, hi)``) occur in one entities part file."""
    found = []
    folder = str(Path(path).parent)
    with pa.memory_map(path) as source:
        reader = ipc.open_file(source)
        ranges = group_ranges(reader.schema)
        reader = ipc.open_file(source, options=_only(reader.schema, _OCCURRENCE_COLUMNS))
        if ranges is None or len(ranges) != reader.num_record_batches:
            ranges = None  # not recorded: every batch is read
        for group in range(reader.num_record_batches):
            if ranges is not None and not ranges_overlap(ranges[group], lo, hi):
                continue
            batch = reader.get_batch(group)
            hits = pc.indices_nonzero(pc.is_in(batch.column("qid"), value_set=repeated))
            columns = [batch.column(name).to_pylist() for name in _OCCURRENCE_COLUMNS]
            for row in hits.to_pylist():
                qid, lastrevid, line = (column[row] for column in columns)
                found.append(Occurrence(qid, lastrevid, line, folder, group, row))
    return found


def _only(schema: pa.Schema, columns: list[str]) -> ipc.IpcReadOptions:
    return ipc.IpcReadOptions(included_fields=[schema.get_field_index(c) for c in columns])


def _group_column(path: Path, group: int, column: str) -> np.ndarray:
    """Column ``column`` of record batch ``group`` of a part file, as numbers."""
    with pa.memory_map(str(path)) as source:
        schema = ipc.open_file(source).schema
        batch = ipc.open_file(source, options=_only(schema, [column])).get_batch(group)
    values: np.ndarray = batch.column(0).to_numpy(zero_copy_only=False)
    return values


def _starts(counts: np.ndarray) -> list[int]:
    """Where each row's run begins, given the runs' lengths, and where the last one ends."""
    return [0, *np.cumsum(counts, dtype=np.int64).tolist()]


def find_dropped(entity_files: Sequence[str], lo: str | None, hi: str | None) -> list[Dropped]:
    """Every occurrence to leave out among the entities of ``[lo, hi)`` in ``entity_files``
    (the entities parts of a bucket's folders), ordered by id and line."""
    repeated = _repeated(entity_files, lo, hi)
    if not len(repeated):
        return []
    by_id: dict[str, list[Occurrence]] = {}
    for path in entity_files:
        for occurrence in _occurrences(path, repeated, lo, hi):
            by_id.setdefault(occurrence.qid, []).append(occurrence)
    dropped: list[Dropped] = []
    for occurrences in by_id.values():
        kept = max(occurrences, key=lambda o: o.rank)
        dropped.extend(Dropped(o, kept) for o in occurrences if o is not kept)
    return sorted(dropped, key=lambda d: (d.loser.qid, d.loser.source_line))


def _row_ranges(folder: Path, group: int, rows: list[int], table: str) -> list[tuple[int, int]]:
    """The rows of ``table`` in record batch ``group`` of the part ``folder`` that belong to
    the entities at ``rows`` of its entities batch."""
    if table == "entities":
        return [(row, row + 1) for row in rows]
    entities = part_file(folder, "entities")
    if table in ROW_COUNTS:
        starts = _starts(_group_column(entities, group, ROW_COUNTS[table]))
        return [(starts[row], starts[row + 1]) for row in rows]
    statements = _starts(_group_column(entities, group, "n_statements"))
    qualifiers = _starts(_group_column(part_file(folder, "statements"), group, "n_qualifiers"))
    return [(qualifiers[statements[row]], qualifiers[statements[row + 1]]) for row in rows]


def row_skips(
    dropped: Iterable[Dropped], tables: Iterable[str]
) -> dict[str, dict[int, list[tuple[int, int]]]]:
    """The rows of the ``dropped`` occurrences in the part files of ``tables``, by file path
    and record batch (what :func:`kgdiff.store.part_reader.read_part` leaves out)."""
    rows: dict[tuple[str, int], list[int]] = {}
    for drop in dropped:
        rows.setdefault((drop.loser.folder, drop.loser.group), []).append(drop.loser.row)
    skips: dict[str, dict[int, list[tuple[int, int]]]] = {}
    for (folder, group), positions in rows.items():
        for table in tables:
            ranges = _row_ranges(Path(folder), group, sorted(positions), table)
            skips.setdefault(str(part_file(Path(folder), table)), {})[group] = ranges
    return skips


DUPLICATE = "duplicate"
"""The ``reason`` of a rejects record for an occurrence left out."""


def _revision(lastrevid: int | None) -> str:
    return "no lastrevid" if lastrevid is None else f"lastrevid {lastrevid}"


def reject_record(drop: Dropped) -> dict[str, object]:
    """The rejects record of an occurrence left out (without its ``source``)."""
    loser, kept = drop.loser, drop.kept
    return {
        "line": loser.source_line,
        "offset": None,
        "reason": DUPLICATE,
        "error": (
            f"duplicate id {loser.qid}: the occurrence at line {kept.source_line} "
            f"({_revision(kept.lastrevid)}) is kept, this one ({_revision(loser.lastrevid)}) "
            "is left out"
        ),
        "id": loser.qid,
        "lastrevid": loser.lastrevid,
        "kept_line": kept.source_line,
        "kept_lastrevid": kept.lastrevid,
    }


def write_dropped(dropped: Sequence[Dropped], path: Path) -> None:
    """Write the rejects records of ``dropped`` as JSON lines to ``path``."""
    path.write_bytes(b"".join(msgspec.json.encode(reject_record(d)) + b"\n" for d in dropped))
