"""The native row builder (``kgdiff._native``, C++ on simdjson) and its Arrow tables.

The extension parses canonical entity JSON and builds the part tables' columns
as Arrow buffers; entities it leaves to Python (malformed ones, and rare value
shapes it does not model) come back as *deferred* and go through
:class:`kgdiff.rows.buffers.RowBuffers`, which stays the reference
implementation. ``KGDIFF_NATIVE=0`` switches the extension off.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pyarrow as pa

from kgdiff.readers.json_dump import ChunkBytes
from kgdiff.rows.schema import ENTITY_ROWS, PART_SCHEMAS
from kgdiff.rows.terms import indexed_term_tables


def _load_extension() -> ModuleType | None:
    try:
        return importlib.import_module("kgdiff._native")
    except ImportError:  # built without a C++ compiler or simdjson: the Python path does it all
        return None


_native = _load_extension()

TABLE_ORDER = ("entities", "statements", "qualifiers", "labels", "sitelinks")
_INDEX_FIELDS = [pa.field("entity", pa.int32()), pa.field("kind", pa.int8())]
_LABEL_COLUMNS = [*_INDEX_FIELDS, *list(PART_SCHEMAS["labels"])[2:]]
_SITELINK_COLUMNS = [_INDEX_FIELDS[0], *list(PART_SCHEMAS["sitelinks"])[1:]]


def native_enabled() -> bool:
    """Whether ingest uses the extension (built, and not switched off with KGDIFF_NATIVE=0)."""
    return _native is not None and os.environ.get("KGDIFF_NATIVE", "1") != "0"


def native_module() -> ModuleType | None:
    """The extension, when :func:`native_enabled`."""
    return _native if native_enabled() else None


@dataclass(frozen=True, slots=True)
class NativeRows:
    """What the extension built from a chunk's entity lines."""

    groups: list[dict[str, pa.Table]]
    """The rows of the items, then those of the other kinds (properties, lexemes, ...):
    stored apart, so finalize reads each only for the subject ranges it overlaps."""
    entities: int
    statements: int
    deferred: list[int]
    """Positions (in the spans given) of the entities left to the Python path."""

    @property
    def tables(self) -> dict[str, pa.Table]:
        """Every row, the groups one after the other."""
        return concat_groups(self.groups)


def concat_groups(groups: Sequence[dict[str, pa.Table]]) -> dict[str, pa.Table]:
    """The tables of ``groups`` one after the other (no copy: one chunk per group)."""
    if not groups:
        return {}
    return {name: pa.concat_tables([group[name] for group in groups]) for name in groups[0]}


def _buffer(data: bytes | None) -> pa.Buffer | None:
    return None if data is None else pa.py_buffer(data)


def _array(kind: pa.DataType, buffers: tuple[Any, ...]) -> pa.Array:
    validity = _buffer(buffers[0])
    if pa.types.is_list(kind):
        items = _array(kind.value_type, buffers[2])
        offsets = pa.py_buffer(buffers[1])
        length = len(offsets) // 4 - 1
        return pa.Array.from_buffers(kind, length, [validity, offsets], children=[items])
    if kind == pa.string():
        offsets = pa.py_buffer(buffers[1])
        length = len(offsets) // 4 - 1
        return pa.Array.from_buffers(kind, length, [validity, offsets, pa.py_buffer(buffers[2])])
    values = pa.py_buffer(buffers[1])
    return pa.Array.from_buffers(kind, len(values) // (kind.bit_width // 8), [validity, values])


def _columns(
    schema: pa.Schema | list[pa.Field], columns: Sequence[tuple[Any, ...]]
) -> list[pa.Array]:
    return [_array(field.type, buffers) for field, buffers in zip(schema, columns, strict=True)]


def _tables(raw: Sequence[Sequence[tuple[Any, ...]]]) -> dict[str, pa.Table]:
    columns = dict(zip(TABLE_ORDER, raw, strict=True))
    schemas = {**PART_SCHEMAS, "entities": ENTITY_ROWS}
    tables = {
        name: pa.Table.from_arrays(_columns(schemas[name], columns[name]), schema=schemas[name])
        for name in ("entities", "statements", "qualifiers")
    }
    labels = _columns(_LABEL_COLUMNS, columns["labels"])
    sitelinks = _columns(_SITELINK_COLUMNS, columns["sitelinks"])
    tables.update(indexed_term_tables(tables["entities"], labels, sitelinks, PART_SCHEMAS))
    return {name: tables[name] for name in PART_SCHEMAS}


def native_rows(data: ChunkBytes, spans: Sequence[tuple[int, int, int]]) -> NativeRows:
    """Rows of the entities ``data[start:end]`` for each ``(source line, start, end)``.

    Raises ``RuntimeError`` when the extension is not built (see :func:`native_enabled`).
    """
    if _native is None:
        raise RuntimeError(
            "kgdiff._native is not built; reinstall with a C++ compiler and simdjson"
        )
    items, others, entities, statements, deferred = _native.entity_rows(data, spans)
    return NativeRows([_tables(items), _tables(others)], entities, statements, deferred)
