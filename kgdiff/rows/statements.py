"""Statement and qualifier rows of an entity (the ingest hot path).

Rows are plain tuples in schema order; the buffers transpose them into Arrow
arrays once per batch, which is far cheaper than one Python list per column.
"""

from __future__ import annotations

from typing import Any

from kgdiff.readers.entity_model import Snak, Statement
from kgdiff.rows.values import SnakValue, snak_value
from kgdiff.timevalue import to_date32

TEMPORAL = {"P580": 0, "P582": 1, "P585": 2}
NO_INTERVALS: tuple[Any, ...] = (None,) * 9


class RowError(ValueError):
    """A value inside an otherwise well-formed entity could not be read."""


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
                current = bounds[slot] = bounds[slot] or [None, None, None]
                _envelope(current, value, snak.snaktype)
    flat: list[Any] = []
    for bound in bounds:
        flat.extend(bound or (None, None, None))
    return tuple(flat), ordinal


def _value_columns(snak: Snak, value: SnakValue) -> tuple[Any, ...]:
    """The VALUE_FIELDS columns of a snak (see :mod:`kgdiff.rows.schema`)."""
    head = (snak.snaktype, snak.datatype, value.value_type, value.key, value.object_qid)
    time = value.time
    if time is None:
        return (*head, None, None, None, None)
    return (*head, time.precision, time.calendar, to_date32(time.lo), to_date32(time.hi))


def _qualifier_row(
    snak: Snak, value: SnakValue, head: tuple[Any, ...], out: list[tuple[Any, ...]]
) -> None:
    if value.error is not None:
        raise RowError(f"qualifier {head[3]} of {head[2]}: {value.error}")
    out.append((*head, *_value_columns(snak, value)))


def statement_rows(
    statement: Statement,
    subject: str,
    pid: str,
    ordinal: int,
    statements: list[tuple[Any, ...]],
    qualifiers: list[tuple[Any, ...]],
) -> None:
    """Append the row of one statement and the rows of its qualifiers (raises RowError)."""
    snak = statement.mainsnak
    value = snak_value(snak)
    if value.error is not None:
        raise RowError(f"statement {statement.id or pid}: {value.error}")
    sid = statement.id
    intervals, n_qualifiers = _qualifier_rows(statement, sid, subject, pid, qualifiers)
    statements.append(
        (
            sid,
            subject,
            pid,
            ordinal,
            statement.rank,
            *_value_columns(snak, value),
            *intervals,
            n_qualifiers,
            len(statement.references),
        )
    )
