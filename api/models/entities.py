"""Response models of ``/v1/entities``."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field

from api.models.common import Read, Utc


class Entity(BaseModel):
    """An entity as one snapshot holds it, with labels in the language asked."""

    qid: str
    snapshot: str
    type: str | None
    label: str | None
    description: str | None
    aliases: list[str]
    types: list[str] = Field(description="its instance-of (P31) classes")
    type_labels: list[str]
    redirect_to: str | None
    n_labels: int | None
    n_sitelinks: int | None
    n_statements: int | None
    lastrevid: int | None
    modified: Utc | None
    date: date
    gap_days: int | None


class EntityAnswer(BaseModel):
    """An entity as of a date (null, with a note, when the snapshot read lacks it)."""

    qid: str
    entity: Entity | None
    reads: list[Read]
    notes: list[str]


class TimelineRow(BaseModel):
    """One statement across the snapshots that hold it."""

    pid: str
    pid_label: str
    value: str | None
    value_label: str
    statement_id: str | None
    rank: str | None
    first_seen: date | None
    last_seen: date | None
    current: bool | None
    snapshots: list[str]
    valid_from: list[str] | None = Field(
        description="the start qualifiers' values as Wikidata writes them"
        " (±YYYY-MM-DDT00:00:00Z|precision|calendar), earliest first; null without one"
    )
    valid_from_lo: int | None = Field(
        description="the first day the start may be: days since 1970-01-01 (proleptic"
        " Gregorian), exact from the Big Bang to the far future; sorts like the dates"
    )
    valid_from_hi: int | None = Field(description="the last day the start may be (days)")
    valid_from_text: str | None = Field(
        description="the start as a person reads it, e.g. '13.798 billion years BCE',"
        " '15 March 44 BCE (Julian)', '1990'"
    )
    valid_until: list[str] | None
    valid_until_lo: int | None
    valid_until_hi: int | None
    valid_until_text: str | None
    point: list[str] | None
    point_lo: int | None
    point_hi: int | None
    point_text: str | None
    valid_from_snaktype: str | None = Field(
        description="the start qualifier's snak type: value, somevalue (unknown) or novalue;"
        " null without one"
    )
    valid_until_snaktype: str | None
    point_snaktype: str | None


class Timeline(BaseModel):
    """Every statement of an entity across the snapshots, in time order."""

    qid: str
    items: list[TimelineRow]
    notes: list[str]


class FactAt(BaseModel):
    """A group's object set and best-ranked values at one date."""

    subject: str
    pid: str
    objects: list[str]
    best: list[str]
    unknown: bool | None
    unknown_reason: str | None
    snapshot: str | None
    gap_days: int | None


class EntityFacts(BaseModel):
    """An entity's facts at one date."""

    qid: str
    date: date
    mode: str
    reads: list[Read]
    items: list[FactAt]
    notes: list[str]
