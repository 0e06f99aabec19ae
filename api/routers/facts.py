"""``GET /v1/facts``: a classification's groups, a page at a time or streamed whole."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import polars as pl
from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from api.deps import ClassifyMode, Facts, Gap, IdItem, Lang, Level, PidItem
from api.models.common import reads
from api.models.facts import FactGroup, FactsPage, Job
from api.problems import responses
from api.public_text import public_text
from api.rows_json import rows_response
from kgdiff.query.fact_pages import FactsQuestion, ReadyFacts
from kgdiff.query.ids import normalise_ids
from kgdiff.query.jobs import JobState
from kgdiff.query.pages import PageChoice

NDJSON = "application/x-ndjson"

router = APIRouter(tags=["facts"])

FACTS_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "A page of groups (JSON), or every chosen group as NDJSON when the"
        " client accepts application/x-ndjson",
        "content": {NDJSON: {"schema": {"$ref": "#/components/schemas/FactGroup"}}},
    },
    202: {"model": Job, "description": "The classification is being made: poll Location"},
    304: {"description": "Not modified (If-None-Match)"},
    **responses(400, 404, 409, 410, 422, 429),
}


@router.get("/v1/facts", response_model=FactsPage, responses=FACTS_RESPONSES)
def facts(
    request: Request,
    service: Facts,
    gap: Gap,
    cutoff: Annotated[date, Query(description="The knowledge cutoff.")],
    init: Annotated[date | None, Query(description="Default: the first snapshot's date.")] = None,
    current: Annotated[date | None, Query(description="Default: the latest snapshot's.")] = None,
    mode: ClassifyMode = "record",
    level: Annotated[list[Level] | None, Query(description="Only these levels.")] = None,
    pid: Annotated[list[PidItem] | None, Query(description="Only these properties.")] = None,
    subject: Annotated[list[IdItem] | None, Query(description="Only these subjects.")] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="Groups per page.")] = 100,
    cursor: Annotated[str | None, Query(max_length=512, description="next_cursor")] = None,
    lang: Lang = "en",
) -> Any:
    """The groups of a classification with labels, in (subject, pid) order: a page after
    ``cursor``, or all of them as NDJSON. A classification not made yet is made first; one
    too large to make within the request answers 202 with the job to poll."""
    pids, subjects = normalise_ids(pid or [], "pid"), normalise_ids(subject or [], "subject")
    service.check_ids([*pids, *subjects])
    question = FactsQuestion(cutoff, init, current, mode, lang, gap)
    ready = service.prepare(question)
    if isinstance(ready, JobState):
        return accepted(ready, service.graph.layout.root)
    choice = PageChoice(list(dict.fromkeys(level or [])), pids, subjects)
    if NDJSON in request.headers.get("accept", ""):
        return StreamingResponse(_lines(service.stream(ready, choice)), media_type=NDJSON)
    page = service.page(ready, choice, cursor, limit)
    return _page(ready, limit, page.frame, page.next_cursor)


def _page(ready: ReadyFacts, limit: int, frame: pl.DataFrame, cursor: str | None) -> Response:
    init, cutoff, current = ready.days
    envelope = {
        "init": init,
        "cutoff": cutoff,
        "current": current,
        "mode": ready.mode,
        "lang": ready.lang,
        "reads": reads(ready.reads),
        "limit": limit,
        "next_cursor": cursor,
    }
    return rows_response(FactsPage, FactGroup, envelope, frame)


def accepted(state: JobState, root: Path) -> JSONResponse:
    """202 with the job's state and where to poll it (the store ``root`` named in its
    error, if it failed meanwhile, written STORE)."""
    error = public_text(state.error, root) if state.error is not None else None
    job = Job(
        id=state.id,
        status=state.status,
        result=state.result,
        error_kind=state.error_kind,
        error=error,
    )
    return JSONResponse(
        job.model_dump(), status_code=202, headers={"Location": f"/v1/jobs/{state.id}"}
    )


def _lines(frames: Iterator[pl.DataFrame]) -> Iterator[bytes]:
    """NDJSON, one group a line, serialised a batch at a time by polars."""
    for frame in frames:
        yield frame.write_ndjson().encode()
