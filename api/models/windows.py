"""Response models of ``/v1/pools``, ``/v1/chains`` and ``/v1/updates``."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field

from api.models.common import Read


class PoolPeriod(BaseModel):
    """A group's objects in one year or month."""

    period: str
    first_day: date
    last_day: date
    objects: list[str]
    objects_labels: list[str]
    precision_only: list[str]
    unqualified: list[str]
    filled: bool | None
    gap_days: int | None


class PoolGroup(BaseModel):
    """A (subject, property) group's chronological object pools."""

    subject: str
    subject_label: str
    pid: str
    pid_label: str
    granularity: str
    state: str
    changes: int
    all_objects: list[str]
    all_objects_labels: list[str]
    periods: list[PoolPeriod]
    snapshot: str | None = Field(
        description="the snapshot the subject's pools read: the latest, or, when that is a"
        " subset snapshot without the subject, the latest earlier one that holds it"
    )


class Pools(BaseModel):
    """Chronological object pools; the notes say where they stop and why some are missing."""

    items: list[PoolGroup]
    notes: list[str]


class Hop(BaseModel):
    """One statement of a chain."""

    subject: str
    subject_label: str | None
    pid: str
    pid_label: str | None
    object: str
    object_label: str | None
    statement_id: str | None
    rank: str | None
    start: list[str] | None = Field(
        description="its start qualifiers' values as Wikidata writes them"
        " (±YYYY-MM-DDT00:00:00Z|precision|calendar), earliest first; null without one"
    )
    start_lo: int | None = Field(
        description="the first day the start may be: days since 1970-01-01 (any date)"
    )
    start_text: str | None = Field(
        description="the start as a person reads it, e.g. '21 April 753 BCE (Julian)'"
    )


class Chain(BaseModel):
    """A multi-hop chain valid at the date, and its answer (the last hop's object)."""

    start_subject: str
    start_label: str | None
    ref_date: date
    snapshot: str | None
    gap_days: int | None
    n_hops: int
    hops: list[Hop]
    answer: str
    answer_label: str | None
    answer_aliases: list[str]
    answers: list[str]


class Chains(BaseModel):
    """Chains valid at a date (record time)."""

    reads: list[Read]
    items: list[Chain]
    notes: list[str]


class Update(BaseModel):
    """A knowledge update after the cutoff (AntiLeakBench, valid time)."""

    subject: str
    subject_label: str
    pid: str
    pid_label: str
    new_object: str
    new_object_label: str
    old_objects: list[str]
    old_objects_labels: list[str]
    new_statement_id: str | None
    new_start_lo: date | None
    new_start_hi: date | None
    old_statement_ids: list[str]
    old_end_hi: date | None
    snapshot: str | None
    gap_days: int | None


class Updates(BaseModel):
    """Knowledge updates between the cutoff and the current date."""

    reads: list[Read]
    items: list[Update]
    notes: list[str]
