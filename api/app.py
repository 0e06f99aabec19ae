"""The FastAPI application: ``create_app()`` builds it for the store the environment names
(``kgdiff serve`` sets ``KGDIFF_STORE``; uvicorn calls it as the factory
``api.app:create_app``)."""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import duckdb
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException

import kgdiff
from api import explorer, problems
from api.etag import ETagMiddleware
from api.head import HeadAsGetMiddleware
from api.limits import RequestLimitsMiddleware
from api.openapi import openapi_of
from api.routers import entities, evidence, facts, jobs, meta, overview, sql, sql_disabled, windows
from api.settings import Settings
from kgdiff.children import die_with_parent
from kgdiff.errors import KgdiffError
from kgdiff.query.curves import StalenessCurves
from kgdiff.query.fact_pages import FactPages
from kgdiff.query.jobs import Jobs, fail_orphaned_jobs, prune_job_files
from kgdiff.query.work_processes import WorkProcesses
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.served_builds import evict_served_builds

LOG = logging.getLogger(__name__)
DESCRIPTION = (
    "kgdiff's temporal knowledge graph over HTTP: snapshots, classified facts for a knowledge"
    " cutoff, entities, timelines, pools, chains, knowledge updates, evidence and supporting"
    " revisions. Errors are application/problem+json (RFC 9457)."
)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The service for ``settings`` (default: from the environment); a
    :class:`~kgdiff.errors.StoreError` when the store has no catalog."""
    die_with_parent()  # a worker of `kgdiff serve --workers N` ends with its supervisor
    settings = settings or Settings.from_env()
    graph = kgdiff.open(settings.store)
    folder = graph.layout.root / "builds" / "jobs"
    job_list = Jobs(folder, settings.heavy_workers, settings.heavy_queue)
    work = WorkProcesses(graph.layout.root, settings.work_limits)
    pages = FactPages(graph, job_list, settings.limits, run=work.run)
    start_clean(graph.layout, job_list.folder, settings.limits.max_builds)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.enable_sql:
            sql.prepare()  # the work processes' server too
        else:
            work.prepare()
        yield
        job_list.close()
        work.close()
        graph.close()

    app = FastAPI(
        title="kgdiff", version=kgdiff.__version__, description=DESCRIPTION, lifespan=lifespan
    )
    app.state.graph, app.state.jobs, app.state.facts = graph, job_list, pages
    app.state.work, app.state.wait_seconds = work, settings.limits.wait_seconds
    app.state.max_builds = settings.limits.max_builds  # builds made for requests kept
    app.state.curves = StalenessCurves(graph, job_list, settings.limits, pages.watch, work.run)
    app.state.sql_limits = settings.sql_limits
    app.state.sql_slots = threading.BoundedSemaphore(settings.sql_concurrency)
    app.state.sql_concurrency = settings.sql_concurrency
    for module in (meta, facts, jobs, entities, windows, evidence, overview):
        app.include_router(module.router)
    app.include_router(sql.router if settings.enable_sql else sql_disabled.router)
    explorer.mount(app)
    app.add_exception_handler(KgdiffError, problems.kgdiff_error)
    app.add_exception_handler(RequestValidationError, problems.invalid_request)
    app.add_exception_handler(HTTPException, problems.http_error)
    app.add_exception_handler(Exception, problems.unexpected)
    app.add_middleware(
        ETagMiddleware,
        store_tag=lambda: pages.watch.state().tag,
        known_tag=pages.watch.known_tag,
    )
    app.add_middleware(HeadAsGetMiddleware)
    app.add_middleware(RequestLimitsMiddleware, limits=settings.requests)  # the outermost
    app.openapi = lambda: openapi_of(app)  # type: ignore[method-assign]
    return app


def start_clean(layout: StoreLayout, jobs: Path, max_builds: int) -> None:
    """What a stopped server left, settled before the first request: its unfinished jobs
    marked failed (asking again runs them anew), old job files removed, and the builds made
    for requests past ``max_builds`` (which may have been lowered) evicted. A store the
    service cannot write to, or whose catalog cannot be rebuilt, is served anyway."""
    try:
        orphans = fail_orphaned_jobs(jobs)
        pruned = prune_job_files(jobs)
        evicted = evict_served_builds(layout, max_builds)
    except (OSError, duckdb.Error, KgdiffError) as exc:
        LOG.warning("the store was not tidied at start (%s); serving it as it is", exc)
        return
    if orphans or pruned or evicted:
        LOG.info(
            "at start: %d jobs of a stopped server failed, %d job files and %d builds removed",
            len(orphans),
            pruned,
            len(evicted),
        )
