"""``GET /v1/entities/{qid}`` and its timeline and facts."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Query

from api.deps import Gap, Graph, Lang, Mode, Pid, Qid
from api.models.common import reads
from api.models.entities import EntityAnswer, EntityFacts, FactAt, Timeline, TimelineRow
from api.problems import responses
from api.rows_json import rows_response

router = APIRouter(tags=["entities"], responses=responses(404, 422))


@router.get("/v1/entities/{qid}", response_model=EntityAnswer)
def entity(
    graph: Graph,
    qid: Qid,
    gap: Gap,
    date: Annotated[date | None, Query(description="Default: the latest snapshot's.")] = None,
    lang: Lang = "en",
) -> Any:
    """An entity's label, description, aliases and types as of a date (record time)."""
    answer = graph.answers.entity(qid, date, lang, gap)
    rows = answer.frame.to_dicts()
    return {
        "qid": qid.upper(),
        "entity": rows[0] if rows else None,
        "reads": reads(answer.reads),
        "notes": answer.notes,
    }


@router.get("/v1/entities/{qid}/timeline", response_model=Timeline)
def timeline(graph: Graph, qid: Qid, pid: Pid = None, lang: Lang = "en") -> Any:
    """Every statement of an entity across the snapshots, in time order, with labels."""
    answer = graph.answers.timeline(qid, pid, lang)
    envelope = {"qid": qid.upper(), "notes": answer.notes}
    return rows_response(Timeline, TimelineRow, envelope, answer.frame)


@router.get("/v1/entities/{qid}/facts", response_model=EntityFacts)
def entity_facts(
    graph: Graph,
    qid: Qid,
    gap: Gap,
    date: Annotated[date, Query(description="The date the facts hold at.")],
    mode: Mode = "record",
) -> Any:
    """An entity's facts (object sets and best-ranked values) at a date."""
    answer = graph.answers.facts_at(date, mode, qid, gap)
    envelope = {
        "qid": qid.upper(),
        "date": date,
        "mode": mode,
        "reads": reads(answer.reads),
        "notes": answer.notes,
    }
    return rows_response(EntityFacts, FactAt, envelope, answer.frame)
