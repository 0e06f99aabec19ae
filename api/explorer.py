"""The explorer page: ``GET /`` answers ``static/index.html`` and ``/explorer/…``
its stylesheet and ES modules. The page only calls the service's public ``/v1`` routes, so
these routes stay out of the OpenAPI schema."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"


def mount(app: FastAPI) -> None:
    """Serve the explorer from ``app``: the page at ``/``, its assets under ``/explorer``."""

    @app.get("/", include_in_schema=False)
    def explorer_page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/explorer", StaticFiles(directory=STATIC), name="explorer")
