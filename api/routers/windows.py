"""``GET /v1/pools``, ``GET /v1/chains`` and ``GET /v1/updates``: questions over a window
of time."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from api.deps import Gap, Graph, Lang, Pid, Subject
from api.models.common import reads
from api.models.windows import Chains, Pools, Updates
from api.problems import responses
from kgdiff.query.narrowed import relations_through
from kgdiff.temporal.pools import FIRST_YEAR, LAST_YEAR

router = APIRouter(tags=["windows"], responses=responses(404, 422))
Year = Annotated[int | None, Query(ge=FIRST_YEAR, le=LAST_YEAR)]
RELATIONS = r"^[Pp][1-9][0-9]{0,11}(,[Pp][1-9][0-9]{0,11})*$"


@router.get("/v1/pools", response_model=Pools)
def pools(
    graph: Graph,
    gap: Gap,
    subject: Subject,
    pid: Pid = None,
    from_year: Annotated[Year, Query(alias="from", description="First year")] = None,
    to_year: Annotated[
        Year, Query(alias="to", description="Default: the latest snapshot's")
    ] = None,
    granularity: Literal["year", "month"] = "year",
    lang: Lang = "en",
) -> Any:
    """A subject's chronological object pools per year (or month)."""
    answer = graph.answers.pools(subject, pid, from_year, to_year, granularity, lang, gap)
    return {"items": answer.frame.to_dicts(), "notes": answer.notes}


@router.get("/v1/chains", response_model=Chains)
def chains(
    graph: Graph,
    gap: Gap,
    date: Annotated[date, Query(description="The date the chains hold at (record time).")],
    subject: Subject,
    relations: Annotated[
        str | None, Query(pattern=RELATIONS, description="Only hops between these properties.")
    ] = None,
    max_hops: Annotated[int, Query(ge=2, le=5)] = 3,
    pid: Pid = None,
    lang: Lang = "en",
) -> Any:
    """Multi-hop chains from a subject valid at a date, with labels."""
    through = relations_through(relations.split(",")) if relations else None
    answer = graph.answers.chains(date, subject, through, max_hops, pid, lang, gap)
    return {"reads": reads(answer.reads), "items": answer.frame.to_dicts(), "notes": answer.notes}


@router.get("/v1/updates", response_model=Updates)
def updates(
    graph: Graph,
    gap: Gap,
    cutoff: Annotated[date, Query(description="The knowledge cutoff.")],
    current: Annotated[date | None, Query(description="Default: the latest snapshot's.")] = None,
    pid: Pid = None,
    lang: Lang = "en",
) -> Any:
    """Knowledge updates after the cutoff (AntiLeakBench, valid time), with labels."""
    answer = graph.answers.updates(cutoff, current, pid, lang, gap)
    return {"reads": reads(answer.reads), "items": answer.frame.to_dicts(), "notes": answer.notes}
