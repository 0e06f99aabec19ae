"""Response models of ``/v1/evidence``, ``/v1/revisions`` and ``/v1/sql``."""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic import BaseModel, Field

from api.models.common import Read, Utc


class EvidenceRow(BaseModel):
    """A Wikipedia sentence that mentions a fact's subject and object."""

    snapshot: str
    wiki: str
    subject: str
    subject_label: str | None
    pid: str
    property_label: str | None
    object_qid: str | None
    object_label: str | None
    object_named: bool | None
    mentioned: bool | None
    weak: bool | None
    weak_reason: str | None
    page_role: str | None
    section: str | None
    term: str | None
    sentence: str | None
    mentions: int | None
    title: str | None
    page_id: int | None
    revision_id: int | None
    timestamp: Utc | None


class Evidence(BaseModel):
    """The Wikipedia evidence of a subject's facts."""

    subject: str
    items: list[EvidenceRow]
    notes: list[str]


class Revision(BaseModel):
    """The first unreverted revision stating a knowledge update (or why there is none)."""

    subject: str
    subject_label: str | None
    pid: str
    pid_label: str | None
    new_object: str
    new_object_label: str | None
    old_objects: list[str]
    new_start_lo: date | None
    title: str | None
    wiki: str
    revision_id: int | None
    timestamp: Utc | None
    sentence: str | None
    reason: str | None = Field(description="why no revision was found (null when one was)")
    snapshot: str | None
    gap_days: int | None


class Revisions(BaseModel):
    """The supporting revisions of a subject's knowledge updates."""

    subject: str
    reads: list[Read]
    items: list[Revision]
    notes: list[str]


class SqlQuery(BaseModel):
    """One read-only SELECT over the store's catalog."""

    query: str = Field(min_length=1, max_length=100_000)
    timeout_seconds: float | None = Field(
        default=None,
        gt=0,
        description=(
            "A shorter time limit for this query than the service's (--sql-timeout), e.g. to "
            "try a query that may be slow; above the service's limit is a 422."
        ),
    )


class SqlResult(BaseModel):
    """A query's answer: columns, their DuckDB types, rows (cut at the row limit)."""

    columns: list[str]
    types: list[str]
    rows: list[list[Any]]
    truncated: bool
    elapsed_seconds: float
