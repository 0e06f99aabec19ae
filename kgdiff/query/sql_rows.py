"""A query's rows as the JSON of its answer, within its limits: the last step of the query
process (kgdiff/query/sql_session.py).

The rows come from DuckDB's stream in batches of about :data:`BATCH_BYTES` of JSON (a
first batch of one row tells how large a row is), so the Python objects of a batch stay
small however wide the rows; and they are written into one buffer with the standard
library's encoder. Not orjson, nor msgspec: both write through a null pointer when an
allocation fails (orjson 3.13 does not check ``_PyBytes_Resize``), which under the
process's address-space cap is a segfault where CPython's encoder raises MemoryError. And
one buffer rather than a bytes object per row: orjson doubles its buffer as it writes and
shrinks it at the end, and glibc could not reuse the freed tails, so the 5,000 rows of 6 KB
of ``SELECT list_resize([0], 3000, 0) FROM range(5000)`` held 2.5 GB of address space
(issue 34: the cap was reached at 30 MB of answer, and orjson crashed).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import duckdb

from kgdiff.query.json_values import Json, is_plain, to_json
from kgdiff.query.sql_errors import answer_too_large, timed_out
from kgdiff.query.sql_limits import SqlLimits

BATCH_BYTES = 4 << 20
MAX_BATCH_ROWS = 1000

Converter = Callable[[object], Json] | None


def rows_json(
    connection: duckdb.DuckDBPyConnection, limits: SqlLimits, deadline: float
) -> tuple[bytes, bool]:
    """The JSON of up to ``max_rows`` rows of the connection's result, joined by commas
    (without the brackets), and whether there were more rows (one more is asked for)."""
    converters = [
        None if is_plain(column[1]) else to_json for column in connection.description or []
    ]
    encoder = json.JSONEncoder(
        ensure_ascii=False, allow_nan=False, check_circular=False, separators=(",", ":")
    )
    answer = bytearray()
    count, more = 0, False
    while not more:
        wanted = min(_batch_rows(len(answer), count), limits.max_rows + 1 - count)
        batch = connection.fetchmany(wanted)
        if count + len(batch) > limits.max_rows:
            batch, more = batch[: limits.max_rows - count], True
        if batch:
            _append(answer, encoder.encode(_converted(batch, converters)).encode())
            count += len(batch)
        if len(answer) > limits.max_result_bytes:
            raise answer_too_large(limits)
        if time.monotonic() > deadline:
            raise timed_out(limits)
        if len(batch) < wanted and not more:
            break
    return bytes(answer), more


def _batch_rows(size: int, count: int) -> int:
    """How many rows to fetch next: one to begin with, then as many as hold about
    BATCH_BYTES of JSON at the size of the rows so far."""
    if count == 0:
        return 1
    return max(1, min(MAX_BATCH_ROWS, BATCH_BYTES * count // max(1, size)))


def _converted(batch: list[tuple[Any, ...]], converters: Sequence[Converter]) -> Sequence[Any]:
    """The batch's values as JSON values (the plain columns' as they are)."""
    if all(convert is None for convert in converters):
        return batch
    return [
        [
            value if convert is None else convert(value)
            for value, convert in zip(row, converters, strict=True)
        ]
        for row in batch
    ]


def _append(answer: bytearray, rows: bytes) -> None:
    """Add the rows of a JSON list (``[r1,r2]``) to the answer, a comma before them."""
    if answer:
        answer += b","
    answer += memoryview(rows)[1:-1]
