"""Response models of ``/v1/facts`` and ``/v1/jobs``."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field

from api.models.common import Read


class FactGroup(BaseModel):
    """One (subject, property) group of a classification, as ``kgdiff classify`` exports it,
    with labels (an id without a label stands for itself)."""

    subject: str
    subject_label: str
    pid: str
    pid_label: str
    level: str = Field(description="stable, evolved, uncharted, recent, retracted, …")
    change_kind: str | None = Field(description="evolved only: added, removed, replaced, mixed")
    change_nature: str | None = Field(
        description="evolved only (and, with substantive=true, the stable groups it moved):"
        " substantive, reformatted or refined"
    )
    changed_after_cutoff: bool | None
    latest: list[str]
    latest_labels: list[str]
    outdated: list[str]
    outdated_labels: list[str]
    all_answers: list[str]
    all_answers_labels: list[str]
    ambiguous_reason: str | None
    not_covered_in: list[str] | None
    record_level: str | None
    valid_level: str | None
    backfilled: bool | None


class FactsPage(BaseModel):
    """A page of classified groups in (subject, pid) order; ``next_cursor`` fetches the
    next page (null after the last)."""

    init: date
    cutoff: date
    current: date
    mode: str
    lang: str
    reads: list[Read]
    limit: int
    items: list[FactGroup]
    next_cursor: str | None


class Job(BaseModel):
    """A classification made in the background: poll ``/v1/jobs/{id}`` until ``status`` is
    done, then read ``result`` (or see ``error`` when it failed)."""

    id: str
    status: str = Field(description="queued, running, done or failed")
    result: str = Field(description="where the result is read once the job is done")
    error_kind: str | None = None
    error: str | None = None
