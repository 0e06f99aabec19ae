"""``GET /v1/evidence`` and ``GET /v1/revisions``: Wikipedia's support for the facts, heavy
routes answered by the service's work processes (:mod:`api.heavy`)."""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from api.deps import Gap, Lang, Pid, Subject
from api.heavy import HEAVY_RESPONSES, gap_params, heavy_answer
from api.heavy_answers import evidence_json, revisions_json
from api.models.evidence import Evidence, Revisions
from api.problems import responses

router = APIRouter(tags=["evidence"], responses={**HEAVY_RESPONSES, **responses(409)})
Wiki = Annotated[str, Query(pattern=r"^[a-z][a-z_-]{1,30}wiki$", description="e.g. enwiki")]


@router.get("/v1/evidence", response_model=Evidence)
async def evidence(
    request: Request,
    subject: Subject,
    pid: Pid = None,
    snapshot: Annotated[
        str | None, Query(max_length=200, description="Wikipedia snapshot (default: each)")
    ] = None,
) -> Any:
    """The Wikipedia sentences that mention a subject's facts (``kgdiff evidence show``)."""
    work = partial(evidence_json, subject=subject, pid=pid, snapshot=snapshot)
    query = {"subject": subject, "pid": pid, "snapshot": snapshot}
    return await heavy_answer(request, "/v1/evidence", query, work)


@router.get("/v1/revisions", response_model=Revisions)
async def revisions(
    request: Request,
    gap: Gap,
    subject: Subject,
    cutoff: Annotated[date, Query(description="The knowledge cutoff.")],
    current: Annotated[date | None, Query(description="Default: the latest snapshot's.")] = None,
    pid: Pid = None,
    wiki: Wiki = "enwiki",
    lang: Lang = "en",
) -> Any:
    """The first revision stating each of a subject's knowledge updates, from the store's
    latest history snapshot of the wiki."""
    work = partial(
        revisions_json,
        subject=subject,
        cutoff=cutoff,
        current=current,
        pid=pid,
        wiki=wiki,
        lang=lang,
        gap=gap,
    )
    query: dict[str, object] = {"subject": subject, "cutoff": cutoff, "current": current}
    query |= {"pid": pid, "wiki": wiki, "lang": lang} | gap_params(gap)
    return await heavy_answer(request, "/v1/revisions", query, work, ids=[subject, pid])
