"""``GET /v1/search`` and ``GET /v1/staleness``: finding entities by name, and how a store's
groups split into levels as the cutoff moves."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any, Literal

import polars as pl
from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from api.deps import Curves, Facts, Graph, Lang
from api.heavy import accepted, answer_pending
from api.models.overview import SearchAnswer, Staleness
from api.problems import responses
from kgdiff.query.answer import Answer
from kgdiff.query.fact_pages import FactPages
from kgdiff.query.jobs import Pending
from kgdiff.query.search import MAX_RESULTS, MAX_TEXT
from kgdiff.temporal.seed_cutoffs import seed_cutoffs

router = APIRouter(tags=["overview"])


@router.get("/v1/search", response_model=SearchAnswer, responses=responses(422))
def search(
    graph: Graph,
    q: Annotated[
        str,
        Query(min_length=1, max_length=MAX_TEXT, description="An id, or a label's start."),
    ],
    lang: Lang = "en",
    limit: Annotated[int, Query(ge=1, le=MAX_RESULTS)] = 10,
) -> Any:
    """Entities whose id is ``q`` or whose label or alias starts with it (any case), best
    first: the id, an exact label, label prefixes, alias prefixes."""
    answer = graph.answers.search(q, lang, limit)
    return {"query": q, "items": answer.frame.to_dicts(), "notes": answer.notes}


@router.get(
    "/v1/staleness",
    response_model=Staleness,
    responses={
        202: {"description": "The curve is being made: poll Location"},
        **responses(422, 429),
    },
)
async def staleness(
    request: Request,
    curves: Curves,
    facts: Facts,
    mode: Annotated[Literal["record", "valid"], Query(description="record or valid time")] = (
        "record"
    ),
) -> Any:
    """Each level's groups for the first day of every month between the first and the
    latest snapshot, made once per store by the service's work processes
    (:mod:`api.heavy`); a large store answers 202 with the job to poll."""
    ready = await run_in_threadpool(curves.prepare, mode)
    if isinstance(ready, Pending):
        waiting = await answer_pending(ready, request)
        if waiting is not None:
            return waiting
        ready = await run_in_threadpool(curves.prepare, mode)
        if isinstance(ready, Pending):
            return accepted(ready.job.state, curves.graph.layout.root)
    return await run_in_threadpool(_staleness, ready, facts, mode)


def _staleness(ready: Answer, facts: FactPages, mode: str) -> dict[str, Any]:
    state = facts.watch.state()
    return {
        "init": state.first,
        "current": state.latest,
        "mode": mode,
        "months": _months(ready.frame),
        "seed_cutoffs": [asdict(seed) for seed in seed_cutoffs()],
        "notes": ready.notes,
    }


def _months(frame: pl.DataFrame) -> list[dict[str, Any]]:
    months = frame.group_by("cutoff", "total", "covered", maintain_order=True).agg(
        pl.col("level"), pl.col("groups")
    )
    return [
        {
            "cutoff": row["cutoff"],
            "total": row["total"],
            "covered": row["covered"],
            "counts": dict(zip(row["level"], row["groups"], strict=True)),
        }
        for row in months.to_dicts()
    ]
