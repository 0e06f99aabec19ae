"""``GET /v1/pools``, ``GET /v1/chains`` and ``GET /v1/updates``: questions over a window
of time, heavy routes answered by the service's work processes (:mod:`api.heavy`)."""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request

from api.deps import Gap, Lang, Pid, Subject
from api.heavy import HEAVY_RESPONSES, gap_params, heavy_answer
from api.heavy_answers import chains_json, pools_json, updates_json
from api.models.windows import Chains, Pools, Updates
from kgdiff.temporal.pools import FIRST_YEAR, LAST_YEAR

router = APIRouter(tags=["windows"], responses=HEAVY_RESPONSES)
Year = Annotated[int | None, Query(ge=FIRST_YEAR, le=LAST_YEAR)]
RELATIONS = r"^[Pp][1-9][0-9]{0,11}(,[Pp][1-9][0-9]{0,11})*$"


@router.get("/v1/pools", response_model=Pools)
async def pools(
    request: Request,
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
    work = partial(
        pools_json,
        subject=subject,
        pid=pid,
        from_year=from_year,
        to_year=to_year,
        granularity=granularity,
        lang=lang,
        gap=gap,
    )
    query: dict[str, object] = {"subject": subject, "pid": pid, "from": from_year}
    query |= {"to": to_year, "granularity": granularity, "lang": lang} | gap_params(gap)
    return await heavy_answer(request, "/v1/pools", query, work, ids=[subject, pid])


@router.get("/v1/chains", response_model=Chains)
async def chains(
    request: Request,
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
    work = partial(
        chains_json,
        day=date,
        subject=subject,
        relations=relations,
        max_hops=max_hops,
        pid=pid,
        lang=lang,
        gap=gap,
    )
    query: dict[str, object] = {"date": date, "subject": subject, "relations": relations}
    query |= {"max_hops": max_hops, "pid": pid, "lang": lang} | gap_params(gap)
    return await heavy_answer(request, "/v1/chains", query, work, ids=[subject, pid])


@router.get("/v1/updates", response_model=Updates)
async def updates(
    request: Request,
    gap: Gap,
    cutoff: Annotated[date, Query(description="The knowledge cutoff.")],
    current: Annotated[date | None, Query(description="Default: the latest snapshot's.")] = None,
    pid: Pid = None,
    lang: Lang = "en",
) -> Any:
    """Knowledge updates after the cutoff (AntiLeakBench, valid time), with labels."""
    work = partial(
        updates_json,
        cutoff=cutoff,
        current=current,
        pid=pid,
        lang=lang,
        gap=gap,
        max_builds=request.app.state.max_builds,
    )
    query: dict[str, object] = {"cutoff": cutoff, "current": current, "pid": pid, "lang": lang}
    query |= gap_params(gap)
    return await heavy_answer(request, "/v1/updates", query, work, ids=[pid])
