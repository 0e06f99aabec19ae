"""Response models shared by several routes: which snapshot each date read, snapshots,
health."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field

from kgdiff.temporal.dates import DateRead

Day = date


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


Utc = Annotated[datetime, AfterValidator(_utc)]
"""A moment in UTC: the store keeps them without a zone, and RFC 3339 wants one."""


class Read(BaseModel):
    """Which snapshot answered one date of the question, and how far the date is from it."""

    view: str = Field(description="record or valid (time)")
    role: str = Field(description="the date's role: cutoff, init, current, date, day…")
    day: date
    snapshot: str | None
    snapshot_date: date | None
    coverage: str | None
    gap_days: int | None = Field(description="the date minus the snapshot's date")
    problem: str | None = Field(description="why the date is beyond the data (gap allowed)")

    @classmethod
    def of(cls, read: DateRead) -> Read:
        """The model of a :class:`~kgdiff.temporal.dates.DateRead`."""
        return cls(
            view=read.view,
            role=read.role,
            day=read.day,
            snapshot=read.snapshot,
            snapshot_date=read.snapshot_date,
            coverage=read.coverage,
            gap_days=read.gap_days,
            problem=read.problem,
        )


def reads(found: list[DateRead]) -> list[Read]:
    """The models of some reads."""
    return [Read.of(read) for read in found]


class Snapshot(BaseModel):
    """A Wikidata snapshot of the store."""

    name: str
    date: Day
    coverage: str = Field(description="full (a whole dump) or subset")
    kind: str | None
    dump_date: Day | None
    entities: int | None
    statements: int | None
    qualifiers: int | None
    labels: int | None
    sitelinks: int | None
    rejects: int | None
    source_sha256: str | None
    source_format: str | None
    tool_version: str | None
    created_at: Utc | None


class Snapshots(BaseModel):
    """The store's Wikidata snapshots, oldest first."""

    snapshots: list[Snapshot]


class Pong(BaseModel):
    """The liveness answer."""

    pong: bool


class Health(BaseModel):
    """Whether the store can be read."""

    status: str = Field(
        description="ok; degraded when the catalog leaves out a published folder it cannot"
        " read (a damaged snapshot or build): the others still answer"
    )
    snapshots: int = Field(description="Wikidata snapshots in the store")
    version: str = Field(description="kgdiff's version")
    problems: list[str] = Field(
        default_factory=list,
        description="What is left out of the catalog and why, one line each, with what to do",
    )


class Notes(BaseModel):
    """Why an answer is empty, where it stops, which ids have no label."""

    notes: list[str] = Field(default_factory=list)
