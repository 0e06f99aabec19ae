"""Heavy routes: answered by the service's bounded pool of work processes, never by the
threads the point lookups answer from.

A heavy question (``/v1/updates``, ``/v1/pools``, ``/v1/chains``, ``/v1/evidence``,
``/v1/revisions``; the first build of a ``/v1/facts`` classification and the staleness
curve, :mod:`kgdiff.query.fact_pages`, :mod:`kgdiff.query.curves`) is a job
(:mod:`kgdiff.query.jobs`): identical requests share one, at most ``--heavy-workers`` run at
once per worker, each in a process of its own (:mod:`kgdiff.query.work_processes`), and at
most ``--heavy-queue`` more wait; one more is answered 429 with ``Retry-After``. The route is
a coroutine: it waits for its job on the event loop, holding no thread, for up to
``KGDIFF_API_BUILD_WAIT`` seconds, and answers its JSON, or else 202 with the job to poll; the
job's ``result`` is the question's own URL (made from the parsed parameters), answered at once
from the job's answer once it is done, by any worker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import anyio.to_thread
from fastapi import Request
from fastapi.responses import JSONResponse, Response

from api.models.facts import Job as JobModel
from api.problems import responses
from api.public_text import public_text
from kgdiff.ids import normalise_ids
from kgdiff.query.jobs import Job, Jobs, JobState, Pending
from kgdiff.temporal.dates import DEFAULT_MAX_GAP, GapPolicy

JSON = "application/json"
Params = Mapping[str, object]
HEAVY_RESPONSES: dict[int | str, dict[str, Any]] = {
    202: {"model": JobModel, "description": "The answer is being made: poll Location"},
    **responses(404, 422, 429),
}
"""The answers a heavy route gives besides its own (OpenAPI)."""


async def heavy_answer(
    request: Request,
    route: str,
    params: Params,
    work: Callable[[Any], bytes],
    ids: Sequence[str | None] = (),
) -> Response:
    """The answer of ``work`` (the route's JSON, made in a work process) to the question
    ``route`` with ``params`` (None values left out): at once when a job made it already,
    after waiting for its job, or 202 with the job; 429 when the pool is full. The entity
    and property ``ids`` it asks about (None left out) are looked up first, as a point
    lookup: one no snapshot knows is answered 404 at once, without a job."""
    jobs: Jobs = request.app.state.jobs
    link = route + "?" + urlencode({k: _text(v) for k, v in params.items() if v is not None})
    key = f"{link}|{await store_tag(request)}"
    answer = jobs.answer(key)
    if answer is not None:
        return Response(answer, media_type=JSON)
    asked = normalise_ids(i for i in ids if i is not None)
    if asked:
        await anyio.to_thread.run_sync(request.app.state.graph.answers.check_ids, asked)
    jobs.forget_finished(key)  # failed, or its answer pruned: made anew
    job = jobs.submit(key, link, lambda: request.app.state.work.run(work))
    waiting = await answer_pending(Pending(job, request.app.state.wait_seconds), request)
    if waiting is not None:
        return waiting
    answer = job.answer if job.answer is not None else jobs.answer(key)
    if answer is None:  # pruned the moment it was made (a crowd of larger answers)
        return accepted(job.state, request.app.state.graph.layout.root)
    return Response(answer, media_type=JSON)


async def finished(pending: Pending) -> bool:
    """Whether ``pending``'s job is done within its wait (the wait holds no thread)."""
    if pending.job.finished.is_set():
        return True
    if pending.wait_seconds <= 0:
        return False
    try:
        await asyncio.wait_for(
            asyncio.shield(asyncio.wrap_future(pending.job.done)), pending.wait_seconds
        )
    except TimeoutError:
        return False
    return True


async def answer_pending(pending: Pending, request: Request) -> JSONResponse | None:
    """None once ``pending``'s job is done (its failure raised), else 202 with the job."""
    if not await finished(pending):
        return accepted(pending.job.state, request.app.state.graph.layout.root)
    job: Job = pending.job
    if job.failure is not None:
        raise job.failure
    return None


async def store_tag(request: Request) -> str:
    """The store's fingerprint (a thread hop only when the catalog changed)."""
    watch = request.app.state.facts.watch
    tag = watch.known_tag()
    if tag is None:
        tag = (await anyio.to_thread.run_sync(watch.state)).tag
    return str(tag)


def accepted(state: JobState, root: Path) -> JSONResponse:
    """202 with the job's state and where to poll it (the store ``root`` named in its
    error, if it failed meanwhile, written STORE)."""
    error = public_text(state.error, root) if state.error is not None else None
    job = JobModel(
        id=state.id,
        status=state.status,
        result=state.result,
        error_kind=state.error_kind,
        error=error,
    )
    return JSONResponse(
        job.model_dump(), status_code=202, headers={"Location": f"/v1/jobs/{state.id}"}
    )


def gap_params(gap: GapPolicy) -> dict[str, object]:
    """The query parameters that ask for ``gap`` (none for the default)."""
    params: dict[str, object] = {}
    if gap.allow:
        params["allow_gap"] = True
    if gap.max_gap != DEFAULT_MAX_GAP:
        params["max_gap"] = gap.max_gap
    return params


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value.isoformat() if isinstance(value, date) else str(value)
