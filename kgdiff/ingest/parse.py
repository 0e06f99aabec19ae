"""Parse work done inside a worker process: a chunk of input → Arrow tables + rejects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pyarrow as pa

from kgdiff.readers.entity_model import decode_entity, entity_from_dict
from kgdiff.readers.json_dump import Chunk, LineLayout, iter_entity_lines, iter_entity_spans
from kgdiff.rows.buffers import RowBuffers
from kgdiff.rows.native import concat_groups, native_enabled, native_rows

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
    groups: list[dict[str, pa.Table]]
    """The rows, in groups that are stored apart (items, other kinds, and the entities
    the native row builder deferred; see :class:`kgdiff.rows.native.NativeRows`)."""
    entities: int = 0
    statements: int = 0
    input_bytes: int = 0
    rejects: list[Reject] = field(default_factory=list)
    layout: LineLayout = field(default_factory=LineLayout)

    @property
    def tables(self) -> dict[str, pa.Table]:
        """Every row of the chunk, the groups one after the other."""
        return concat_groups(self.groups)


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


def _add_line(
    result: ChunkResult, buffers: RowBuffers, line: int, offset: int, text: bytes
) -> None:
    try:
        result.statements += buffers.add_entity(decode_entity(text), line)
        result.entities += 1
    except (msgspec.DecodeError, ValueError) as exc:  # ValueError: bad UTF-8, RowError
        result.rejects.append(_reject(line, offset, str(exc), text))


def _python_chunk(chunk: Chunk) -> ChunkResult:
    buffers = RowBuffers()
    result = ChunkResult(chunk.seq, [], input_bytes=len(chunk.data))
    for line, offset, text in iter_entity_lines(chunk, result.layout):
        _add_line(result, buffers, line, offset, text)
    result.groups = [buffers.to_tables()]
    return result


def _native_chunk(chunk: Chunk) -> ChunkResult:
    """The extension builds the rows; the entities it defers take the Python path."""
    result = ChunkResult(chunk.seq, [], input_bytes=len(chunk.data))
    spans = list(iter_entity_spans(chunk, result.layout))
    native = native_rows(chunk.data, [(line, start, end) for line, _, start, end in spans])
    result.entities, result.statements = native.entities, native.statements
    result.groups = list(native.groups)
    if native.deferred:
        buffers = RowBuffers()
        for index in native.deferred:
            line, offset, start, end = spans[index]
            _add_line(result, buffers, line, offset, bytes(chunk.data[start:end]))
        result.groups.append(buffers.to_tables())
    return result


def parse_json_chunk(chunk: Chunk, native: bool | None = None) -> ChunkResult:
    """Decode every entity line of a JSON dump chunk into part-table rows.

    ``native`` chooses the C++ row builder (default: :func:`native_enabled`); both
    give the same rows, in a different order when entities are deferred.
    """
    use_native = native_enabled() if native is None else native
    return _native_chunk(chunk) if use_native else _python_chunk(chunk)


def parse_entity_texts(
    batch: EntityTexts,
    to_canonical: Callable[[bytes], dict[str, Any]],
    native: bool | None = None,
) -> ChunkResult:
    """Decode entity texts that may need mapping to canonical JSON (legacy XML texts).

    The native row builder (``native``, default :func:`native_enabled`) takes the texts in
    today's serialisation, as it takes a JSON dump's lines; it leaves the others (legacy
    texts, malformed ones) to the Python path. There ``to_canonical`` raises ``ValueError``
    for malformed input; a canonical dict whose fields have the wrong types fails msgspec's
    validation: both are rejects.
    """
    use_native = native_enabled() if native is None else native
    result = ChunkResult(batch.seq, [])
    items = batch.items
    if use_native and items:
        items = _native_texts(batch, result)
    buffers = RowBuffers()
    for record, offset, text in items:
        result.input_bytes += len(text)
        try:
            entity = entity_from_dict(to_canonical(text))
            result.statements += buffers.add_entity(entity, record)
            result.entities += 1
        except (msgspec.DecodeError, ValueError) as exc:  # ValueError includes RowError
            result.rejects.append(_reject(record, offset, str(exc), text))
    result.groups.append(buffers.to_tables())
    return result


def _native_texts(batch: EntityTexts, result: ChunkResult) -> list[tuple[int, int, bytes]]:
    """Build the rows of the texts the extension takes into ``result``; return the others."""
    data = bytearray()
    spans = []
    for record, _, text in batch.items:
        spans.append((record, len(data), len(data) + len(text)))
        data += text
        data += b"\n"
    native = native_rows(data, spans)
    result.entities, result.statements = native.entities, native.statements
    result.groups = list(native.groups)
    deferred = set(native.deferred)
    taken = sum(len(text) for i, (_, _, text) in enumerate(batch.items) if i not in deferred)
    result.input_bytes += taken
    return [batch.items[index] for index in native.deferred]
