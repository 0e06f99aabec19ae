"""DuckDB's Python values as JSON values that every JSON reader takes exactly.

Rules (the column's DuckDB type, reported beside the rows, tells how to read them back):
integers within ±(2^53 - 1) are numbers, larger ones (HUGEINT sums, UBIGINT hashes) decimal
strings, since JavaScript and many JSON readers would round them; DECIMAL values are strings
(``"1.50"``: exact, scale kept); NaN and ±infinity are the strings ``"NaN"``, ``"Infinity"``,
``"-Infinity"``; dates, times and timestamps are ISO 8601 (DuckDB hands dates beyond
Python's years 1-9999 over as its own text, e.g. ``"5877642-06-25"``, kept as is); INTERVAL
is an ISO 8601 duration (``"P90DT5S"``); BLOB is base64; UUID its text; lists and arrays are
lists; structs objects; maps objects whose keys are text (JSON's keys must be).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from uuid import UUID

import orjson

SAFE_INTEGER = 2**53 - 1
# DuckDB types whose Python values are JSON values already, as to_json would leave them:
# booleans, integers of at most 32 bits, text (VARCHAR, JSON, ENUM) and NULL.
PLAIN_TYPES = frozenset(
    {"boolean", "tinyint", "smallint", "integer", "utinyint", "usmallint", "uinteger"}
    | {"varchar", "enum", "null"}
)

Json = None | bool | int | float | str | list[Any] | dict[str, Any]


def to_json(value: object) -> Json:
    """``value`` (as DuckDB's Python client returns it) as a JSON value."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value if -SAFE_INTEGER <= value <= SAFE_INTEGER else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else _non_finite(value)
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {_key(key): to_json(item) for key, item in value.items()}
    return _scalar_text(value)


def _non_finite(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


def _key(key: object) -> str:
    """A map key as an object key: text as is, anything else as its JSON text."""
    if isinstance(key, str):
        return key
    return orjson.dumps(to_json(key)).decode()


def _scalar_text(value: object) -> str:
    """The text of the values JSON has no type for."""
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return _duration(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, Decimal | UUID):
        return str(value)
    # Anything else DuckDB may hand over in a later version: its text, never a failure.
    return str(value)


def _duration(value: timedelta) -> str:
    """ISO 8601 duration of a timedelta (DuckDB gives INTERVAL's months as 30 days)."""
    sign = "-" if value < timedelta(0) else ""
    value = abs(value)
    seconds = value.seconds + value.microseconds / 1_000_000
    text = f"{seconds:.6f}".rstrip("0").rstrip(".")
    return f"{sign}P{value.days}DT{text}S"


def is_plain(duckdb_type: Any) -> bool:
    """Whether every value of a column of ``duckdb_type`` (a ``DuckDBPyType``) is a JSON
    value as DuckDB's Python client hands it over, so that :func:`to_json` may be skipped:
    the :data:`PLAIN_TYPES`, and lists, arrays and structs of them (``INTEGER[]``, not
    ``DOUBLE[]``, whose NaN must become text, nor ``MAP``, whose keys may not be text)."""
    kind = str(duckdb_type.id)
    if kind in ("list", "array"):
        return is_plain(dict(duckdb_type.children)["child"])
    if kind == "struct":
        return all(is_plain(child) for _, child in duckdb_type.children)
    return kind in PLAIN_TYPES
