"""Errors as ``application/problem+json`` (RFC 9457): type, title, status, detail, and the
parameters at fault (``invalid_params``).

kgdiff's errors already say in one line what went wrong and what to do; the service sends
that line as the detail, with the command line's options (``--allow-gap``) written as the
query parameters that do the same (``allow_gap=true``).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from api.public_text import public_text
from kgdiff.errors import (
    BeyondDataError,
    KgdiffError,
    StoreError,
    UnknownIdError,
    UsageError,
    WorkerDiedError,
)
from kgdiff.ids import ENTITY_ID
from kgdiff.query.cursors import CursorError
from kgdiff.query.fact_pages import BuildGoneError
from kgdiff.query.jobs import JobFailedError, JobsBusyError

LOG = logging.getLogger(__name__)
MEDIA_TYPE = "application/problem+json"
TYPE_BASE = "https://kgdiff.invalid/problems/"
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
OPTION = re.compile(r"--([a-z][a-z-]*)( DAYS)?")
OPTION_PARAMS = {"allow-gap": "allow_gap=true", "max-gap": "max_gap", "hops": "max_hops"}
OPTION_PARAMS |= {"from-year": "from", "to-year": "to"}

RETRY_SECONDS = 10
"""When a client refused for too many jobs at once is told to ask again (Retry-After)."""

# (error class, status, type slug, title), the first that matches wins
KINDS: list[tuple[type[KgdiffError], int, str, str]] = [
    (CursorError, 400, "bad-cursor", "Bad cursor"),
    (BuildGoneError, 410, "build-evicted", "The classification was removed meanwhile"),
    (JobsBusyError, 429, "jobs-busy", "Too many results being made"),
    (JobFailedError, 500, "job-failed", "The job failed"),
    (WorkerDiedError, 500, "job-failed", "The job failed"),
    (UnknownIdError, 404, "unknown-id", "Unknown id"),
    (BeyondDataError, 422, "date-beyond-data", "Date beyond the data"),
    (UsageError, 422, "invalid-parameter", "Invalid parameter"),
    (StoreError, 409, "store-not-ready", "The store cannot answer this"),
]


class InvalidParam(BaseModel):
    """A request parameter at fault and why."""

    name: str
    reason: str


class Problem(BaseModel):
    """An error (RFC 9457 problem details)."""

    type: str = Field(description="A URI naming the kind of problem.")
    title: str
    status: int
    detail: str
    instance: str | None = None
    invalid_params: list[InvalidParam] = Field(default_factory=list)


def problem(
    status: int,
    slug: str,
    title: str,
    detail: str,
    params: list[InvalidParam] | None = None,
    instance: str | None = None,
) -> JSONResponse:
    """A problem response (``instance``: the path asked)."""
    body = Problem(
        type=TYPE_BASE + slug,
        title=title,
        status=status,
        detail=detail,
        instance=instance,
        invalid_params=params or [],
    )
    return JSONResponse(body.model_dump(), status_code=status, media_type=MEDIA_TYPE)


def as_query_params(message: str) -> str:
    """``message`` with the command line's options written as query parameters."""

    def name(match: re.Match[str]) -> str:
        option = OPTION_PARAMS.get(match.group(1), match.group(1).replace("-", "_"))
        return option + ("=DAYS" if match.group(2) else "")

    return OPTION.sub(name, message)


def offending(message: str, request: Request) -> list[InvalidParam]:
    """The request's parameters that ``message`` is about (named in it, or whose id or date
    value it quotes), each with the clause of the message about it."""
    asked = [*request.path_params.items(), *request.query_params.multi_items()]
    clauses = [c for c in re.split(r"(?<=[.;])\s+", message) if c]
    found: dict[str, str] = {}
    for key, value in asked:
        token = str(value).strip().upper()
        quotable = ENTITY_ID.fullmatch(token) or DATE.fullmatch(token)
        about = [
            c for c in clauses if key in re.findall(r"[a-z_]+", c) or (quotable and token in c)
        ]
        if about:
            found.setdefault(key, about[0].rstrip(";"))
    return [InvalidParam(name=key, reason=reason) for key, reason in found.items()]


async def kgdiff_error(request: Request, exc: Exception) -> JSONResponse:
    """A kgdiff error as a problem (400, 404, 409 or 422; see :data:`KINDS`)."""
    assert isinstance(exc, KgdiffError)
    detail = public_text(as_query_params(str(exc)), request.app.state.graph.layout.root)
    for kind, status, slug, title in KINDS:
        if isinstance(exc, kind):
            params = offending(detail, request)
            response = problem(status, slug, title, detail, params, request.url.path)
            if status == 429:
                response.headers["Retry-After"] = str(RETRY_SECONDS)
            return response
    LOG.error("unexpected kgdiff error: %s", exc)
    return problem(500, "internal", "Internal error", detail)


async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
    """A parameter or body FastAPI could not parse, as a 422 problem naming it."""
    assert isinstance(exc, RequestValidationError)
    params = [
        InvalidParam(name=_param_name(error["loc"]), reason=error["msg"]) for error in exc.errors()
    ]
    detail = "; ".join(f"{p.name}: {p.reason}" for p in params) or "invalid request"
    return problem(422, "invalid-parameter", "Invalid parameter", detail, params, request.url.path)


def _param_name(loc: tuple[int | str, ...]) -> str:
    """The parameter of a validation error's location (``("query", "level", 0)``: level)."""
    names = [str(part) for part in loc[1:] if isinstance(part, str)]
    return names[0] if names else str(loc[0]) if loc else "request"


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's errors (no such route, method not allowed) as problems."""
    assert isinstance(exc, HTTPException)
    slug = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "http-error")
    response = problem(exc.status_code, slug, str(exc.detail), str(exc.detail))
    for name, value in (exc.headers or {}).items():
        response.headers[name] = value
    return response


async def unexpected(request: Request, exc: Exception) -> JSONResponse:
    """A bug: logged with its traceback, answered with a 500 problem that says no more."""
    LOG.exception("internal error on %s", request.url.path, exc_info=exc)
    return problem(500, "internal", "Internal error", "internal error; see the server's log")


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of problems with these statuses."""
    schema = {"$ref": "#/components/schemas/Problem"}
    return {
        status: {
            "description": DESCRIPTIONS.get(status, "A problem"),
            "content": {MEDIA_TYPE: {"schema": schema}},
        }
        for status in statuses
    }


DESCRIPTIONS = {
    400: "A malformed cursor or query",
    404: "An id no snapshot of the store knows, or no such resource",
    409: "The store lacks what the question needs (e.g. a history snapshot)",
    410: "The classification being paged was removed meanwhile: ask again",
    422: "A parameter out of range, or a date the snapshots cannot answer",
    413: "The request's body is larger than the service takes (kgdiff serve --max-body)",
    414: "The request's URL is longer than the service takes (kgdiff serve --max-url)",
    429: "Too many requests of this kind at once: retry after the Retry-After seconds",
    501: "Not available in this build of the service",
    503: "The store cannot be read",
}
