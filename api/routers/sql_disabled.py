"""``POST /v1/sql`` of a service started without ``--enable-sql``: a 404 problem that says
so and how to turn the route on (a bare 404 left a client guessing whether the URL was
wrong). It is not in the OpenAPI document, as the route is not served."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.problems import problem

router = APIRouter(tags=["sql"])

DETAIL = (
    "this service was started without --enable-sql, so it does not answer POST /v1/sql;"
    " start it with 'kgdiff serve --enable-sql' (or KGDIFF_API_ENABLE_SQL=1) to query the"
    " catalog with read-only SELECTs"
)


@router.post("/v1/sql", include_in_schema=False)
async def sql_disabled() -> JSONResponse:
    """404: SQL is off in this service (see the module)."""
    return problem(404, "sql-disabled", "SQL is not enabled", DETAIL, instance="/v1/sql")
