"""``GET /health`` and ``GET /v1/snapshots``."""

from __future__ import annotations

from typing import Any

import duckdb
from fastapi import APIRouter

from api.deps import Facts
from api.models.common import Health, Pong, Snapshots
from api.problems import as_query_params, problem, responses
from kgdiff import __version__
from kgdiff.errors import KgdiffError

router = APIRouter(tags=["meta"])


@router.get("/ping", response_model=Pong)
async def ping() -> Any:
    """Liveness: the service answers, without reading the store (``/health`` reads it); on
    the event loop itself, so that it never waits for a worker thread behind heavy routes."""
    return {"pong": True}


@router.get("/health", response_model=Health, responses=responses(503))
def health(facts: Facts) -> Any:
    """Whether the store can be read, its Wikidata snapshots and kgdiff's version; ``degraded``
    (still 200) when its catalog leaves out a folder it cannot read, with why."""
    try:
        state = facts.watch.state()
    except (KgdiffError, duckdb.Error, OSError) as exc:
        detail = as_query_params(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        return problem(503, "store-unreadable", "The store cannot be read", detail)
    status = "degraded" if state.left_out else "ok"
    return {
        "status": status,
        "snapshots": state.snapshots,
        "version": __version__,
        "problems": state.left_out,
    }


@router.get("/v1/snapshots", response_model=Snapshots)
def snapshots(facts: Facts) -> Any:
    """The store's Wikidata snapshots, oldest first."""
    return {"snapshots": facts.watch.state().listing.to_dicts()}
