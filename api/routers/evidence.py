"""``GET /v1/evidence`` and ``GET /v1/revisions``: Wikipedia's support for the facts."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Query

from api.deps import Gap, Graph, Lang, Pid, Subject
from api.models.common import reads
from api.models.evidence import Evidence, Revisions
from api.problems import responses
from kgdiff.query.narrowed import revisions_of

router = APIRouter(tags=["evidence"], responses=responses(404, 409, 422))
Wiki = Annotated[str, Query(pattern=r"^[a-z][a-z_-]{1,30}wiki$", description="e.g. enwiki")]


@router.get("/v1/evidence", response_model=Evidence)
def evidence(
    graph: Graph,
    subject: Subject,
    pid: Pid = None,
    snapshot: Annotated[
        str | None, Query(max_length=200, description="Wikipedia snapshot (default: each)")
    ] = None,
) -> Any:
    """The Wikipedia sentences that mention a subject's facts (``kgdiff evidence show``)."""
    answer = graph.answers.evidence(subject, pid, snapshot)
    return {"subject": subject.upper(), "items": answer.frame.to_dicts(), "notes": answer.notes}


@router.get("/v1/revisions", response_model=Revisions)
def revisions(
    graph: Graph,
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
    answer = revisions_of(graph.answers, subject, cutoff, current, pid, wiki, lang, gap)
    return {
        "subject": subject.upper(),
        "reads": reads(answer.reads),
        "items": answer.frame.to_dicts(),
        "notes": answer.notes,
    }
