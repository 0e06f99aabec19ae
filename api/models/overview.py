"""Response models of ``/v1/search`` and ``/v1/staleness``."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field


class Found(BaseModel):
    """An entity found by id or by the start of a label or alias."""

    qid: str
    match: str = Field(description="what matched: id, label or alias")
    label: str | None
    description: str | None


class SearchAnswer(BaseModel):
    """Entities for a search text, best first."""

    query: str
    items: list[Found]
    notes: list[str]


class Month(BaseModel):
    """The classification's groups per level at one month's cutoff."""

    cutoff: date
    total: int
    covered: int = Field(description="groups whose level is not not_covered")
    counts: dict[str, int] = Field(description="groups per level (every level, zeros too)")


class SeedCutoff(BaseModel):
    """A date a paper kgdiff builds on chose (a cutoff, a snapshot, a model's cutoff)."""

    name: str
    date: date
    precision: str = Field(description="month (the first day stands for it) or day")
    paper: str
    role: str = Field(description="init, cutoff, current or model cutoff")


class Staleness(BaseModel):
    """Level counts month by month from the first snapshot (init) to the latest
    (current), with the seed papers' dates to mark."""

    init: date | None
    current: date | None
    mode: str
    months: list[Month]
    seed_cutoffs: list[SeedCutoff]
    notes: list[str]
