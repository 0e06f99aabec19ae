"""Put the Spark tasks' part folders in file order, with the dump's line numbers and offsets.

Each task counted lines and bytes from the start of its split; once every split is done
the driver knows how many came before each one. The part folders then move from the
spool into the staging folder's ``parts/`` under the numbers the local ingest would give
them (in file order), with the split's line count added to each entity's ``source_line``
and to its rejects, and the split's byte count to every offset: the same parts, in the
same order, as a local ingest of the file stages.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import msgspec
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc

from kgdiff.errors import InputError
from kgdiff.spark.partitions import PartRecord, SplitRecord, TaskRecord
from kgdiff.store.staging import PartMeta, Staging, part_file, part_name


@dataclass(frozen=True)
class SplitStart:
    """How many lines and decompressed bytes of the file come before a split."""

    lines: int
    bytes: int


def split_starts(records: list[TaskRecord], source: str) -> tuple[dict[int, SplitStart], int]:
    """Each split's start (by its block offset) and the file's decompressed size."""
    splits = sorted((r for r in records if isinstance(r, SplitRecord)), key=lambda r: r.block)
    if len({split.block for split in splits}) != len(splits):
        raise InputError(f"{source}: a split was read twice; run the job again")
    starts: dict[int, SplitStart] = {}
    lines = size = 0
    for split in splits:
        starts[split.block] = SplitStart(lines, size)
        lines += split.lines
        size += split.bytes
    return starts, size


def _shift_source_lines(path: Path, lines: int) -> None:
    """Add ``lines`` to every ``source_line`` of an entities part file (kept as IPC)."""
    with pa.memory_map(str(path)) as source:
        reader = ipc.open_file(source)
        schema = reader.schema
        batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
    index = schema.get_field_index("source_line")
    shifted = [
        batch.set_column(index, "source_line", pc.add(batch.column(index), pa.scalar(lines)))
        for batch in batches
    ]
    tmp = path.with_name(f".{path.name}.tmp")
    # Uncompressed: finalize reads this file once, moments from now.
    with ipc.new_file(str(tmp), schema) as writer:
        for batch in shifted:
            writer.write_batch(batch)
    tmp.replace(path)


def _shift_rejects(path: Path, start: SplitStart) -> None:
    if not path.is_file():
        return
    out = []
    for line in path.read_bytes().splitlines():
        record = msgspec.json.decode(line)
        record["line"] += start.lines
        record["offset"] += start.bytes
        out.append(msgspec.json.encode(record) + b"\n")
    path.write_bytes(b"".join(out))


def _shifted_meta(meta: PartMeta, seq: int, start: SplitStart) -> PartMeta:
    def at(offset: int | None) -> int | None:
        return None if offset is None else offset + start.bytes

    return msgspec.structs.replace(
        meta,
        seq=seq,
        brackets=[(offset + start.bytes, char) for offset, char in meta.brackets],
        first_content=at(meta.first_content),
        last_content=at(meta.last_content),
    )


def renumber_parts(
    spool: Path, staging: Staging, records: list[TaskRecord], source: str
) -> tuple[dict[int, PartMeta], int]:
    """Move the parts the tasks reported from ``spool`` into ``staging.parts`` in file
    order (see module docstring); return their metadata by number and the file's
    decompressed size. Folders left by failed task attempts are not reported: ignored."""
    starts, size = split_starts(records, source)
    parts = sorted(
        (r for r in records if isinstance(r, PartRecord)),
        key=lambda r: (r.block, r.lines_before),
    )
    metas: dict[int, PartMeta] = {}
    for seq, record in enumerate(parts):
        folder = spool / part_name(record.seq)
        start = starts[record.block]
        meta = msgspec.json.decode((folder / "meta.json").read_bytes(), type=PartMeta)
        meta = _shifted_meta(meta, seq, start)
        _shift_source_lines(part_file(folder, "entities"), start.lines)
        _shift_rejects(folder / "rejects.jsonl", start)
        (folder / "meta.json").write_bytes(msgspec.json.encode(meta))
        folder.rename(staging.parts / part_name(seq))
        metas[seq] = meta
    return metas, size
