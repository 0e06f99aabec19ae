"""``POST /v1/sql``: one read-only SELECT over the store's catalog (``--enable-sql`` only).

The query runs through :mod:`kgdiff.query.safe_sql`: checked by DuckDB's parser, on a locked
read-only connection, in a process of its own, within time, memory, row and size limits.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api.deps import Graph
from api.models.evidence import SqlQuery, SqlResult
from api.problems import InvalidParam, as_query_params, problem, responses
from kgdiff.query.safe_sql import prepare_sql_processes, run_safe_sql
from kgdiff.query.sql_errors import (
    SqlCrashError,
    SqlError,
    SqlInvalidError,
    SqlOutOfMemoryError,
    SqlRefusedError,
    SqlTimeoutError,
    SqlTooLargeError,
)
from kgdiff.query.sql_limits import SqlLimits

KINDS: dict[type[SqlError], tuple[int, str, str]] = {
    SqlRefusedError: (400, "sql-refused", "SQL refused"),
    SqlInvalidError: (400, "sql-invalid", "Invalid SQL"),
    SqlTimeoutError: (422, "sql-timeout", "SQL ran too long"),
    SqlTooLargeError: (422, "sql-too-large", "SQL answer too large"),
    SqlOutOfMemoryError: (422, "sql-out-of-memory", "SQL needed too much memory"),
    SqlCrashError: (500, "sql-crash", "SQL query's process failed"),
}
"""Status, problem type and title of each way a query can fail. Every limit of the query's
is a 422: the request was read and understood, and what it asks for is more than the
service gives (time, memory, answer size). Not 413, which RFC 9110 keeps for a request's
own content too large (the body limit's answer); 500 only when the query's process fails
for a reason that is not the query's (a damaged catalog, a bug)."""

router = APIRouter(tags=["sql"])


@router.post("/v1/sql", response_model=SqlResult, responses=responses(400, 422, 429, 500))
def sql(graph: Graph, body: SqlQuery, request: Request) -> Any:
    """Answer one read-only SELECT (or WITH) over the catalog's views and macros, within the
    service's time (or the shorter time the body asks for), memory and row limits; 429 while
    the worker runs as many as it may."""
    limits = request.app.state.sql_limits
    if body.timeout_seconds is not None and body.timeout_seconds > limits.timeout_seconds:
        return timeout_above_limit(body.timeout_seconds, limits, request.url.path)
    if body.timeout_seconds is not None:
        limits = replace(limits, timeout_seconds=body.timeout_seconds)
    slots = request.app.state.sql_slots
    if not slots.acquire(blocking=False):
        return busy(request.app.state.sql_concurrency)
    try:
        answer = run_safe_sql(graph.layout, body.query, limits)
    except SqlError as exc:
        return sql_problem(exc)
    finally:
        slots.release()
    return {
        "columns": answer.columns,
        "types": answer.types,
        "rows": answer.rows,
        "truncated": answer.truncated,
        "elapsed_seconds": answer.elapsed_seconds,
    }


def timeout_above_limit(asked: float, limits: SqlLimits, path: str) -> JSONResponse:
    """422: a query may ask for less time than the service gives, not more."""
    reason = (
        f"{asked:g} s is above this service's limit of {limits.timeout_seconds:g} s "
        "(--sql-timeout): ask for less, or leave timeout_seconds out"
    )
    params = [InvalidParam(name="timeout_seconds", reason=reason)]
    detail = f"timeout_seconds: {reason}"
    return problem(422, "invalid-parameter", "Invalid parameter", detail, params, path)


def busy(concurrency: int) -> JSONResponse:
    """429: this worker runs ``concurrency`` queries already; try again in a second."""
    detail = (
        f"this worker runs {concurrency} SQL queries already (--sql-concurrency); "
        "send the query again in a moment"
    )
    response = problem(429, "sql-busy", "Too many SQL queries", detail)
    response.headers["Retry-After"] = "1"
    return response


def sql_problem(exc: SqlError) -> JSONResponse:
    """A query's error as a problem of its kind."""
    status, slug, title = KINDS.get(type(exc), (400, "sql-error", "SQL error"))
    return problem(status, slug, title, as_query_params(str(exc)))


def prepare() -> None:
    """Start the process server the queries run in now, with DuckDB preloaded, rather than
    on the first query (or after an ingest's server, which would not preload it)."""
    prepare_sql_processes()
