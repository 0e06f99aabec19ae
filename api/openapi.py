"""The service's OpenAPI document: FastAPI's, with the problem details' schema that the
error responses (``application/problem+json``) refer to."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from api.problems import Problem


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
        app.openapi_schema = document
    return app.openapi_schema
