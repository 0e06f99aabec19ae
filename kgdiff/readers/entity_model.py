"""Typed msgspec view of a Wikibase entity in the canonical JSON serialisation.

Only the fields kgdiff needs are declared, so msgspec skips everything else
(hashes, snak datatypes of references, reference contents, forms and senses)
without building Python objects. Wikibase writes an empty map as ``[]`` (PHP
arrays), so every map is typed ``dict | list``. The structs never form reference
cycles, so they are not tracked by the cyclic garbage collector (``gc=False``):
millions are created per chunk.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec


class ValueFields(msgspec.Struct, frozen=True, gc=False):
    """The union of the fields of every structured datavalue type."""

    id: str | None = None
    entity_type: str | None = msgspec.field(default=None, name="entity-type")
    numeric_id: int | None = msgspec.field(default=None, name="numeric-id")
    time: str | None = None
    precision: float | None = None
    calendarmodel: str | None = None
    amount: str | float | None = None
    unit: str | None = None
    text: str | None = None
    language: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    globe: str | None = None


class DataValue(msgspec.Struct, frozen=True, gc=False):
    """A snak's ``datavalue``: its type name and its value."""

    type: str = ""
    value: str | float | ValueFields | list[Any] | None = None


class Snak(msgspec.Struct, frozen=True, gc=False):
    """A main snak or a qualifier snak."""

    snaktype: str = "value"
    property: str = ""
    datatype: str | None = None
    datavalue: DataValue | None = None


class Statement(msgspec.Struct, frozen=True, gc=False):
    """A statement; references are only counted, never decoded."""

    mainsnak: Snak
    id: str | None = None
    rank: str = "normal"
    qualifiers: dict[str, list[Snak]] | list[Any] = msgspec.field(default_factory=list)
    qualifiers_order: list[str] = msgspec.field(default_factory=list, name="qualifiers-order")
    references: list[msgspec.Raw] = msgspec.field(default_factory=list)


Claims = dict[str, list[Statement]] | list[Any]


class Term(msgspec.Struct, frozen=True, gc=False):
    """A label, description, alias or lemma (its language is the map key)."""

    value: str = ""


class Sitelink(msgspec.Struct, frozen=True, gc=False):
    """A link to a page of a Wikimedia site."""

    title: str = ""
    badges: list[str] = msgspec.field(default_factory=list)


Terms = dict[str, Term] | list[Any]

Int64 = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
"""An integer stored as Arrow int64: larger ones make the entity a reject, not a crash."""


class Entity(msgspec.Struct, gc=False):
    """An entity of any type (item, property, lexeme, mediainfo, redirect)."""

    id: str = ""
    type: str = ""
    datatype: str | None = None
    labels: Terms = msgspec.field(default_factory=list)
    descriptions: Terms = msgspec.field(default_factory=list)
    aliases: dict[str, list[Term]] | list[Any] = msgspec.field(default_factory=list)
    sitelinks: dict[str, Sitelink] | list[Any] = msgspec.field(default_factory=list)
    lemmas: Terms = msgspec.field(default_factory=list)
    claims: Claims = msgspec.field(default_factory=list)
    statements: Claims = msgspec.field(default_factory=list)
    lastrevid: Int64 | None = None
    modified: str | None = None
    redirect: str | None = None
    redirects: dict[str, str] | None = None


ENTITY_DECODER = msgspec.json.Decoder(Entity)


def decode_entity(data: bytes | str) -> Entity:
    """Decode one canonical entity JSON document (raises ``msgspec.DecodeError``)."""
    return ENTITY_DECODER.decode(data)


def entity_from_dict(doc: dict[str, Any]) -> Entity:
    """Build an :class:`Entity` from an already decoded canonical dict.

    Used for inputs that must be inspected as dicts first (legacy XML texts,
    API responses); round-trips through JSON so both paths decode alike.
    """
    return ENTITY_DECODER.decode(msgspec.json.encode(doc))


def statement_groups(entity: Entity) -> dict[str, list[Statement]]:
    """The entity's statements by property (items use ``claims``, mediainfo ``statements``)."""
    for groups in (entity.claims, entity.statements):
        if isinstance(groups, dict) and groups:
            return groups
    return {}
