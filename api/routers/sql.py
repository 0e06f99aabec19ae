"""``POST /v1/sql``: one read-only SELECT over the store's catalog (``--enable-sql`` only).

The query runs through :mod:`kgdiff.query.safe_sql` (checked, locked down, in a process of
its own, within limits). That module is imported here, when a query comes, so that a
service built without it still starts, and answers 501 saying so.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.deps import Graph
from api.models.evidence import SqlQuery, SqlResult
from api.problems import as_query_params, problem, responses
from kgdiff.errors import KgdiffError

SAFE_SQL = "kgdiff.query.safe_sql"
# (a word of the error's class name, status, type slug, title), the first that matches wins
KINDS = [
    ("Refused", 400, "sql-refused", "SQL refused"),
    ("Invalid", 400, "sql-invalid", "Invalid SQL"),
    ("Time", 422, "sql-timeout", "SQL ran too long"),
    ("TooLarge", 422, "sql-too-large", "SQL answer too large"),
]

router = APIRouter(tags=["sql"])


def safe_sql() -> ModuleType | None:
    """The safe SQL module, or None when this build of kgdiff lacks it."""
    try:
        return importlib.import_module(SAFE_SQL)
    except ModuleNotFoundError as exc:
        if exc.name != SAFE_SQL:
            raise
        return None


@router.post("/v1/sql", response_model=SqlResult, responses=responses(400, 422, 501))
def sql(graph: Graph, body: SqlQuery) -> Any:
    """Answer one read-only SELECT (or WITH) over the catalog's views and macros, within the
    service's time, memory and row limits."""
    module = safe_sql()
    if module is None:
        detail = f"this build of kgdiff has no {SAFE_SQL}: POST /v1/sql cannot run queries"
        return problem(501, "sql-unavailable", "SQL not available", detail)
    try:
        answer = module.run_safe_sql(graph.layout, body.query)
    except KgdiffError as exc:
        return sql_problem(exc)
    return {
        "columns": answer.columns,
        "types": answer.types,
        "rows": answer.rows,
        "truncated": answer.truncated,
        "elapsed_seconds": answer.elapsed_seconds,
    }


def sql_problem(exc: KgdiffError) -> JSONResponse:
    """A query's error as a problem, by the kind its class name tells."""
    name = type(exc).__name__
    status, slug, title = next(
        ((s, k, t) for word, s, k, t in KINDS if word in name), (400, "sql-error", "SQL error")
    )
    return problem(status, slug, title, as_query_params(str(exc)))


def prepare() -> None:
    """Start what queries run in now, rather than on the first query (if the module can)."""
    module = safe_sql()
    starter = getattr(module, "prepare_sql_processes", None)
    if callable(starter):
        starter()
