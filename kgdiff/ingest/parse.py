"""Parse work done inside a worker process: a chunk of input → Arrow tables + rejects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pyarrow as pa

from kgdiff.readers.entity_model import decode_entity, entity_from_dict
from kgdiff.readers.json_dump import Chunk, LineLayout, iter_entity_lines
from kgdiff.rows.buffers import RowBuffers

SNIPPET_CHARS = 200


@dataclass(frozen=True, slots=True)
class Reject:
    """A malformed record: where it is and why it was refused."""

    line: int
    offset: int
    error: str
    snippet: str


@dataclass(slots=True)
class ChunkResult:
    """What one chunk produced."""

    seq: int
    tables: dict[str, pa.Table]
    entities: int = 0
    statements: int = 0
    input_bytes: int = 0
    rejects: list[Reject] = field(default_factory=list)
    layout: LineLayout = field(default_factory=LineLayout)


@dataclass(frozen=True, slots=True)
class EntityTexts:
    """A batch of entity JSON texts from a source that is not line-framed (XML, API)."""

    seq: int
    offset: int
    items: list[tuple[int, int, bytes]]
    """``(record number, byte offset, entity JSON)`` per entity."""


def _reject(line: int, offset: int, error: str, text: bytes) -> Reject:
    snippet = text[:SNIPPET_CHARS].decode("utf-8", errors="replace")
    return Reject(line, offset, error, snippet)


def parse_json_chunk(chunk: Chunk) -> ChunkResult:
    """Decode every entity line of a JSON dump chunk into part-table rows."""
    buffers = RowBuffers()
    result = ChunkResult(chunk.seq, {}, input_bytes=len(chunk.data))
    for line, offset, text in iter_entity_lines(chunk, result.layout):
        try:
            result.statements += buffers.add_entity(decode_entity(text), line)
            result.entities += 1
        except (msgspec.DecodeError, ValueError) as exc:  # ValueError: bad UTF-8, RowError
            result.rejects.append(_reject(line, offset, str(exc), text))
    result.tables = buffers.to_tables()
    return result


def parse_entity_texts(
    batch: EntityTexts, to_canonical: Callable[[bytes], dict[str, Any]]
) -> ChunkResult:
    """Decode entity texts that may need mapping to canonical JSON (legacy XML texts).

    ``to_canonical`` raises ``ValueError`` for malformed input; a canonical dict whose
    fields have the wrong types fails msgspec's validation: both are rejects.
    """
    buffers = RowBuffers()
    result = ChunkResult(batch.seq, {})
    for record, offset, text in batch.items:
        result.input_bytes += len(text)
        try:
            entity = entity_from_dict(to_canonical(text))
            result.statements += buffers.add_entity(entity, record)
            result.entities += 1
        except (msgspec.DecodeError, ValueError) as exc:  # ValueError includes RowError
            result.rejects.append(_reject(record, offset, str(exc), text))
    result.tables = buffers.to_tables()
    return result
