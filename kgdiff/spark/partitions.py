"""What a Spark task runs: the lines of its splits of a dump → kgdiff part folders.

Spark's text source hands each task the lines of one or more *splits* of the file (a
split's lines are those that start inside its byte range, so the splits, in order of
their start, hold every line once). The lines go through the local ingest's own worker
function (:func:`kgdiff.ingest.worker.run_task`, native row builder or Python) in chunks
of ``chunk_bytes``; line numbers and offsets are counted from the start of the split,
because a task cannot know how many lines come before it. The driver adds those once
every split is done (:mod:`kgdiff.spark.renumber`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pyarrow as pa

from kgdiff.ingest.worker import Task, run_task
from kgdiff.readers.json_dump import Chunk
from kgdiff.rows.native import native_enabled

RECORD_SCHEMA = pa.schema([("record", pa.string())])
"""What the tasks return: one JSON record per part folder written and per split read."""
RECORD_DDL = "record string"
""":data:`RECORD_SCHEMA` as Spark declares it."""
SEQ_STRIDE = 1 << 20
"""Temporary part numbers are ``attempt * SEQ_STRIDE + n``: unique across task attempts."""


class PartRecord(msgspec.Struct, frozen=True, tag="part"):
    """A part folder written by a task: its temporary number and where its chunk starts."""

    seq: int
    block: int
    lines_before: int
    bytes_before: int
    builder: str


class SplitRecord(msgspec.Struct, frozen=True, tag="split"):
    """A split's whole size: the lines and decompressed bytes (newlines included) it held."""

    block: int
    lines: int
    bytes: int


TaskRecord = PartRecord | SplitRecord


class _Split:
    """The state of the split being read: lines waiting for the next chunk, and counts."""

    def __init__(self, block: int) -> None:
        self.block = block
        self.pending: list[bytes] = []
        self.pending_bytes = 0
        self.lines = 0
        self.bytes = 0


class SplitParser:
    """Cuts each split's lines into chunks and parses them into part folders."""

    def __init__(self, spool: str, source: str, chunk_bytes: int, compression: str) -> None:
        self.spool = Path(spool)
        self.source = source
        self.chunk_bytes = chunk_bytes
        self.compression = compression
        self.next_seq = 0

    def _flush(self, split: _Split) -> Iterator[TaskRecord]:
        if not split.pending:
            return
        seq = self.next_seq
        self.next_seq += 1
        data = b"\n".join(split.pending) + b"\n"
        chunk = Chunk(seq, split.bytes, split.lines, data)
        run_task(Task(chunk, self.spool, self.source, self.compression))
        builder = "native" if native_enabled() else "python"
        yield PartRecord(seq, split.block, split.lines, split.bytes, builder)
        split.lines += len(split.pending)
        split.bytes += split.pending_bytes + len(split.pending)
        split.pending, split.pending_bytes = [], 0

    def _add(self, split: _Split, lines: list[bytes]) -> Iterator[TaskRecord]:
        for line in lines:
            split.pending.append(line)
            split.pending_bytes += len(line)
            if split.pending_bytes >= self.chunk_bytes:
                yield from self._flush(split)

    def _end(self, split: _Split) -> Iterator[TaskRecord]:
        yield from self._flush(split)
        yield SplitRecord(split.block, split.lines, split.bytes)

    def run(self, batches: Iterator[pa.RecordBatch], attempt: int) -> Iterator[TaskRecord]:
        """Parse the ``(value, block)`` batches of one task; yield what was written."""
        self.next_seq = attempt * SEQ_STRIDE
        split: _Split | None = None
        for batch in batches:
            # Binary, not str: the bytes exactly as in the file, even where not UTF-8.
            values = batch.column(0).cast(pa.large_binary()).to_pylist()
            blocks = batch.column(1).to_pylist()
            runs = itertools.groupby(range(len(values)), key=blocks.__getitem__)
            for block, indices in runs:
                if split is None or split.block != block:
                    if split is not None:
                        yield from self._end(split)
                    split = _Split(block)
                yield from self._add(split, [values[i] for i in indices])
        if split is not None:
            yield from self._end(split)


def _as_batch(records: list[TaskRecord]) -> pa.RecordBatch:
    encoded = [msgspec.json.encode(record).decode() for record in records]
    return pa.RecordBatch.from_arrays([pa.array(encoded, pa.string())], schema=RECORD_SCHEMA)


def split_parser(
    spool: str, source: str, chunk_bytes: int, compression: str
) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """The function for ``DataFrame.mapInArrow`` over ``(value, block)`` rows of one file."""

    def parse(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyspark import TaskContext

        context = TaskContext.get()
        attempt = context.taskAttemptId() if context is not None else 0
        parser = SplitParser(spool, source, chunk_bytes, compression)
        for record in parser.run(batches, attempt):
            yield _as_batch([record])

    return parse


def decode_records(rows: list[str]) -> list[TaskRecord]:
    """The records the tasks returned (see :data:`RECORD_SCHEMA`)."""
    decoder = msgspec.json.Decoder(TaskRecord)
    return [decoder.decode(row) for row in rows]
