"""Turn decoded entities into row tuples for the part tables (the ingest hot path).

Rows are plain tuples in schema order; :class:`RowBuffer` transposes them into
Arrow arrays once per batch, which is far cheaper than appending to one Python
list per column.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pyarrow as pa

from kgdiff.readers.entity_model import Entity, Snak, Statement, statement_groups
from kgdiff.rows.schema import PART_SCHEMAS
from kgdiff.rows.values import SnakValue, snak_value
from kgdiff.timevalue import to_date32

TEMPORAL = {"P580": 0, "P582": 1, "P585": 2}
NO_INTERVALS: tuple[Any, ...] = (None,) * 9
EMPTY_JSON = frozenset((b"", b"[]", b"{}", b"null"))


class RowError(ValueError):
    """A value inside an otherwise well-formed entity could not be read."""


def _raw_text(raw: msgspec.Raw) -> bytes | None:
    """Raw JSON of a multilingual map as bytes (Arrow takes bytes for strings, no decoding)."""
    data = bytes(raw)
    if len(data) <= 4 and data in EMPTY_JSON:
        return None
    return data


def _envelope(current: list[Any], value: SnakValue, snaktype: str) -> None:
    """Widen a [lo, hi, snaktype] bound with another qualifier value of the same property."""
    time = value.time
    if time is None:
        current[2] = current[2] or snaktype
        return
    lo, hi = to_date32(time.lo), to_date32(time.hi)
    current[0] = lo if current[0] is None else min(current[0], lo)
    current[1] = hi if current[1] is None else max(current[1], hi)
    current[2] = "value"


def _qualifier_rows(
    statement: Statement, sid: str | None, subject: str, pid: str, out: list[tuple[Any, ...]]
) -> tuple[tuple[Any, ...], int]:
    qualifiers = statement.qualifiers
    if not isinstance(qualifiers, dict) or not qualifiers:
        return NO_INTERVALS, 0
    order = statement.qualifiers_order
    if len(order) != len(qualifiers):
        order = [*order, *(p for p in qualifiers if p not in order)]
    bounds: list[list[Any] | None] = [None, None, None]
    ordinal = 0
    for qpid in order:
        for snak in qualifiers.get(qpid, ()):
            value = snak_value(snak)
            _qualifier_row(snak, value, (sid, subject, pid, qpid, ordinal), out)
            ordinal += 1
            slot = TEMPORAL.get(qpid)
            if slot is not None:
                bound = bounds[slot] = bounds[slot] or [None, None, None]
                _envelope(bound, value, snak.snaktype)
    flat: list[Any] = []
    for bound in bounds:
        flat.extend(bound or (None, None, None))
    return tuple(flat), ordinal


def _qualifier_row(
    snak: Snak, value: SnakValue, head: tuple[Any, ...], out: list[tuple[Any, ...]]
) -> None:
    time = value.time
    if value.error is not None:
        raise RowError(f"qualifier {head[3]} of {head[2]}: {value.error}")
    out.append(
        (
            *head,
            snak.snaktype,
            snak.datatype,
            value.value_type,
            value.key,
            value.object_qid,
            time.precision if time else None,
            to_date32(time.lo) if time else None,
            to_date32(time.hi) if time else None,
        )
    )


def _statement_row(
    statement: Statement, subject: str, pid: str, ordinal: int, buffers: RowBuffers
) -> None:
    snak = statement.mainsnak
    value = snak_value(snak)
    if value.error is not None:
        raise RowError(f"statement {statement.id or pid}: {value.error}")
    sid = statement.id
    intervals, n_qualifiers = _qualifier_rows(statement, sid, subject, pid, buffers.qualifiers)
    time = value.time
    buffers.statements.append(
        (
            sid,
            subject,
            pid,
            ordinal,
            statement.rank,
            snak.snaktype,
            snak.datatype,
            value.value_type,
            value.key,
            value.object_qid,
            time.precision if time else None,
            time.calendar if time else None,
            to_date32(time.lo) if time else None,
            to_date32(time.hi) if time else None,
            *intervals,
            n_qualifiers,
            len(statement.references),
        )
    )


class RowBuffers:
    """Row tuples of one batch, for each part table."""

    def __init__(self) -> None:
        self.entities: list[tuple[Any, ...]] = []
        self.statements: list[tuple[Any, ...]] = []
        self.qualifiers: list[tuple[Any, ...]] = []

    def add_entity(self, entity: Entity, source_line: int) -> int:
        """Append the rows of one entity; return its number of statements.

        Raises :class:`RowError` without leaving partial rows behind.
        """
        marks = (len(self.statements), len(self.qualifiers))
        subject = entity.id
        count = 0
        try:
            for pid, statements in statement_groups(entity).items():
                for ordinal, statement in enumerate(statements):
                    _statement_row(statement, subject, pid, ordinal, self)
                    count += 1
        except RowError:
            del self.statements[marks[0] :], self.qualifiers[marks[1] :]
            raise
        self.entities.append(_entity_row(entity, count, source_line))
        return count

    def to_tables(self) -> dict[str, pa.Table]:
        """Transpose the buffered rows into one Arrow table per part table."""
        return {
            name: _table(rows, PART_SCHEMAS[name])
            for name, rows in (
                ("entities", self.entities),
                ("statements", self.statements),
                ("qualifiers", self.qualifiers),
            )
        }


def _entity_row(entity: Entity, n_statements: int, source_line: int) -> tuple[Any, ...]:
    redirect = entity.redirect or (entity.redirects or {}).get("to")
    return (
        entity.id,
        entity.type or ("redirect" if redirect else None),
        entity.datatype,
        redirect,
        entity.lastrevid,
        entity.modified,
        _raw_text(entity.labels),
        _raw_text(entity.descriptions),
        _raw_text(entity.aliases),
        _raw_text(entity.sitelinks),
        _raw_text(entity.lemmas),
        n_statements,
        source_line,
    )


def _table(rows: list[tuple[Any, ...]], schema: pa.Schema) -> pa.Table:
    if not rows:
        return schema.empty_table()
    columns = list(zip(*rows, strict=True))
    arrays = [pa.array(col, type=field.type) for col, field in zip(columns, schema, strict=True)]
    return pa.Table.from_arrays(arrays, schema=schema)
