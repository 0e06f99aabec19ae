"""The service's OpenAPI document: FastAPI's, with the problem details' schema that the
error responses (``application/problem+json``) refer to."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from api.problems import Problem, responses


def openapi_of(app: FastAPI) -> dict[str, Any]:
    """The document (made once, then kept)."""
    if app.openapi_schema is None:
        document = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        problem = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
        schemas.update(problem.pop("$defs", {}))
        schemas["Problem"] = problem
        _declare_limits(document)
        app.openapi_schema = document
    return app.openapi_schema


def _declare_limits(document: dict[str, Any]) -> None:
    """Every operation may answer 414 (a URL past ``--max-url``), and one that takes a body
    413 (a body past ``--max-body``): the service's limits answer before any route
    (:mod:`api.limits`)."""
    for operations in document.get("paths", {}).values():
        for method, operation in operations.items():
            statuses = (413, 414) if method in ("post", "put", "patch") else (414,)
            declared = operation.setdefault("responses", {})
            for status, answer in responses(*statuses).items():
                declared.setdefault(str(status), answer)
