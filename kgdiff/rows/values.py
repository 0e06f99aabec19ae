"""Value keys: the canonical string form of a snak's value (docs/data-model.md).

Object sets and the classification compare value keys, never statement ids, so
the same value written two ways (``+00000001732-02-22`` in 2014 dumps, ``+1732-02-22``
today; a quantity unit as a URI or a QID) must give the same key.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

from kgdiff.readers.entity_model import DataValue, Snak, ValueFields
from kgdiff.timevalue import TimeValueError, parse_time, time_key

SOMEVALUE = "<somevalue>"
NOVALUE = "<novalue>"
ENTITY_PREFIX = {"item": "Q", "property": "P", "lexeme": "L"}
WIKIDATA_ENTITY_URI = "http://www.wikidata.org/entity/"


class TimeFields(NamedTuple):
    """The typed fields of a time value."""

    precision: int
    calendar: str
    lo: int
    hi: int


class SnakValue(NamedTuple):
    """What kgdiff keeps of a snak's value."""

    value_type: str | None
    key: str | None
    object_qid: str | None
    time: TimeFields | None
    error: str | None


def short_entity(uri: str | None) -> str | None:
    """``http://www.wikidata.org/entity/Q2`` → ``Q2``; other strings unchanged."""
    if uri is not None and uri.startswith(WIKIDATA_ENTITY_URI):
        return uri[len(WIKIDATA_ENTITY_URI) :]
    return uri


def entity_id(fields: ValueFields) -> str | None:
    """The id of a ``wikibase-entityid`` value, rebuilt from numeric-id in old dumps."""
    if fields.id:
        return fields.id
    prefix = ENTITY_PREFIX.get(fields.entity_type or "item")
    if prefix is None or fields.numeric_id is None:
        return None
    return f"{prefix}{fields.numeric_id}"


def _amount(raw: str | float | None) -> str:
    if isinstance(raw, str):
        return raw if raw[:1] in "+-" else "+" + raw
    if raw is None:
        return ""
    text = repr(raw) if isinstance(raw, float) and not raw.is_integer() else str(int(raw))
    return text if text.startswith("-") else "+" + text


def _time_value(fields: ValueFields) -> SnakValue:
    precision = int(fields.precision if fields.precision is not None else 11)
    calendar = fields.calendarmodel or "Q1985727"
    raw = fields.time or ""
    try:
        parsed = parse_time(raw, precision, calendar)
        key = time_key(raw, precision, calendar)
    except TimeValueError as exc:
        return SnakValue("time", raw, None, None, str(exc))
    interval = parsed.interval
    time = TimeFields(parsed.precision, parsed.calendar_qid, interval.lo, interval.hi)
    return SnakValue("time", key, None, time, None)


def _structured(value_type: str, fields: ValueFields) -> SnakValue:
    if value_type == "wikibase-entityid":
        qid = entity_id(fields)
        return SnakValue(value_type, qid, qid, None, None if qid else "entity id missing")
    if value_type == "time":
        return _time_value(fields)
    if value_type == "quantity":
        unit = short_entity(fields.unit) or "1"
        return SnakValue(value_type, f"{_amount(fields.amount)}|{unit}", None, None, None)
    if value_type == "monolingualtext":
        return SnakValue(value_type, f"{fields.language}:{fields.text}", None, None, None)
    if value_type == "globecoordinate":
        globe = short_entity(fields.globe) or "Q2"
        key = f"{fields.latitude!r},{fields.longitude!r},{globe}"
        return SnakValue(value_type, key, None, None, None)
    return SnakValue(value_type, msgspec.json.encode(fields).decode(), None, None, None)


def _other(datavalue: DataValue) -> SnakValue:
    value: Any = datavalue.value
    if isinstance(value, str):
        return SnakValue(datavalue.type, value, None, None, None)
    if isinstance(value, ValueFields):
        return _structured(datavalue.type, value)
    return SnakValue(datavalue.type, msgspec.json.encode(value).decode(), None, None, None)


def snak_value(snak: Snak) -> SnakValue:
    """Value type, value key, object QID (for entity values) and time fields of a snak."""
    if snak.snaktype != "value":
        key = SOMEVALUE if snak.snaktype == "somevalue" else NOVALUE
        return SnakValue(None, key, None, None, None)
    datavalue = snak.datavalue
    if datavalue is None:
        return SnakValue(None, None, None, None, "value snak without datavalue")
    return _other(datavalue)
