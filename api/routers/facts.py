"""``GET /v1/facts``: a classification's groups, a page at a time or streamed whole."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from functools import partial
from typing import Annotated, Any

import polars as pl
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.deps import ClassifyMode, Facts, Gap, IdItem, Lang, Level, PidItem
from api.heavy import accepted, answer_pending
from api.models.common import reads
from api.models.facts import FactGroup, FactsPage, Job
from api.problems import responses
from api.rows_json import rows_response
from kgdiff.ids import normalise_ids
from kgdiff.query.fact_pages import FactPages, FactsQuestion, ReadyFacts
from kgdiff.query.jobs import Pending
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
async def facts(
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
    substantive: Annotated[
        bool,
        Query(
            description="Keep only substantive changes among the evolved groups: one whose"
            " change is reformatted or refined (change_nature) is reported stable."
        ),
    ] = False,
) -> Any:
    """The groups of a classification with labels, in (subject, pid) order: a page after
    ``cursor``, or all of them as NDJSON. A classification not made yet is made first, by
    the service's work processes (:mod:`api.heavy`): waited for if small, else (or past the
    wait) 202 with the job to poll."""
    pids, subjects = normalise_ids(pid or [], "pid"), normalise_ids(subject or [], "subject")
    question = FactsQuestion(cutoff, init, current, mode, lang, gap)
    choice = PageChoice(list(dict.fromkeys(level or [])), pids, subjects, substantive)
    ndjson = NDJSON in request.headers.get("accept", "")
    asked = partial(_answer, service, question, choice, ndjson, cursor, limit)
    answer = await run_in_threadpool(asked)  # one thread hop for a page of a made build
    if isinstance(answer, Pending):
        waiting = await answer_pending(answer, request)
        if waiting is not None:
            return waiting
        answer = await run_in_threadpool(asked)
        if isinstance(answer, Pending):  # made, and evicted at once: its job again
            return accepted(answer.job.state, service.graph.layout.root)
    return answer


def _answer(
    service: FactPages,
    question: FactsQuestion,
    choice: PageChoice,
    ndjson: bool,
    cursor: str | None,
    limit: int,
) -> Response | Pending:
    """The page (or NDJSON stream) asked for, or the job making its classification."""
    service.check_ids([*choice.pids, *choice.subjects])
    ready = service.prepare(question)
    if isinstance(ready, Pending):
        return ready
    if ndjson:
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


def _lines(frames: Iterator[pl.DataFrame]) -> Iterator[bytes]:
    """NDJSON, one group a line, serialised a batch at a time by polars."""
    for frame in frames:
        yield frame.write_ndjson().encode()
