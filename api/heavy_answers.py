"""The heavy routes' answers as JSON, made in a work process (:mod:`api.heavy`): each
function asks the graph it is given and writes the answer its route's model gives, so the
service's process only sends the bytes. Module-level functions of keyword parameters, so a
``functools.partial`` of one pickles to the work process."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from pydantic import BaseModel

from api.models.common import reads
from api.models.evidence import Evidence, Revisions
from api.models.windows import Chains, Pools, Updates
from kgdiff.query.build_limits import BuildLimits
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.narrowed import relations_through, revisions_of
from kgdiff.temporal.dates import GapPolicy


def _json(model: type[BaseModel], answer: Mapping[str, object]) -> bytes:
    """``answer`` validated and written as ``model`` (as FastAPI writes a route's model)."""
    return model.model_validate(answer).model_dump_json().encode()


def pools_json(
    graph: KnowledgeGraph,
    *,
    subject: str,
    pid: str | None,
    from_year: int | None,
    to_year: int | None,
    granularity: str,
    lang: str,
    gap: GapPolicy,
) -> bytes:
    """``GET /v1/pools``."""
    answer = graph.answers.pools(subject, pid, from_year, to_year, granularity, lang, gap)
    return _json(Pools, {"items": answer.frame.to_dicts(), "notes": answer.notes})


def chains_json(
    graph: KnowledgeGraph,
    *,
    day: date,
    subject: str,
    relations: str | None,
    max_hops: int,
    pid: str | None,
    lang: str,
    gap: GapPolicy,
) -> bytes:
    """``GET /v1/chains``."""
    through = relations_through(relations.split(",")) if relations else None
    answer = graph.answers.chains(day, subject, through, max_hops, pid, lang, gap)
    items = answer.frame.to_dicts()
    return _json(Chains, {"reads": reads(answer.reads), "items": items, "notes": answer.notes})


def updates_json(
    graph: KnowledgeGraph,
    *,
    cutoff: date,
    current: date | None,
    pid: str | None,
    lang: str,
    gap: GapPolicy,
    max_builds: int,
) -> bytes:
    """``GET /v1/updates``: the classification the updates rest on is kept as a build made
    for requests (one of the ``max_builds`` the store keeps, least recently used out)."""
    limits = BuildLimits(max_builds=max_builds)
    answer = limits.made_for_requests(
        lambda: graph.answers.updates(cutoff, current, pid, lang, gap)
    )
    items = answer.frame.to_dicts()
    return _json(Updates, {"reads": reads(answer.reads), "items": items, "notes": answer.notes})


def evidence_json(
    graph: KnowledgeGraph, *, subject: str, pid: str | None, snapshot: str | None
) -> bytes:
    """``GET /v1/evidence``."""
    answer = graph.answers.evidence(subject, pid, snapshot)
    items = answer.frame.to_dicts()
    return _json(Evidence, {"subject": subject.upper(), "items": items, "notes": answer.notes})


def revisions_json(
    graph: KnowledgeGraph,
    *,
    subject: str,
    cutoff: date,
    current: date | None,
    pid: str | None,
    wiki: str,
    lang: str,
    gap: GapPolicy,
) -> bytes:
    """``GET /v1/revisions``."""
    answer = revisions_of(graph.answers, subject, cutoff, current, pid, wiki, lang, gap)
    body = {
        "subject": subject.upper(),
        "reads": reads(answer.reads),
        "items": answer.frame.to_dicts(),
        "notes": answer.notes,
    }
    return _json(Revisions, body)
