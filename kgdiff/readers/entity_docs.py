"""Single-entity JSON documents: ``Special:EntityData``, ``wbgetentities`` and bare entities.

``Special:EntityData/Q1.json`` answers ``{"entities": {"Q1": {...}}}``; when Q1
was merged into Q2 the key stays ``Q1`` while the entity inside is Q2's, which
is how a redirect shows. ``wbgetentities&redirects=yes`` marks it explicitly
with ``"redirects": {"from": "Q1", "to": "Q2"}``; missing entities carry
``"missing": ""``. A file may also hold one entity object as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec


class EntityDocError(ValueError):
    """The document is JSON but not an entity or an API response holding entities."""


@dataclass
class DocStats:
    """What a document held besides entities."""

    missing: list[str] = field(default_factory=list)
    redirects: dict[str, str] = field(default_factory=dict)


def _redirect_record(source: str, target: str, entity: dict[str, Any]) -> dict[str, Any]:
    return {"id": source, "type": entity.get("type", "item"), "redirect": target}


def _from_response(entities: dict[str, Any], stats: DocStats) -> Iterator[dict[str, Any]]:
    for key, entity in entities.items():
        if not isinstance(entity, dict):
            raise EntityDocError(f"entities[{key!r}] is not an object")
        if "missing" in entity:
            stats.missing.append(key)
            continue
        target = entity.get("id", key)
        redirect = entity.get("redirects")
        source = redirect.get("from", key) if isinstance(redirect, dict) else key
        if source != target:
            stats.redirects[source] = target
            yield _redirect_record(source, target, entity)
        yield {k: v for k, v in entity.items() if k != "redirects"}


def iter_entity_documents(data: bytes, stats: DocStats | None = None) -> Iterator[dict[str, Any]]:
    """Yield the entity dicts held in one JSON document (legacy dicts are yielded as they are)."""
    stats = stats if stats is not None else DocStats()
    try:
        doc = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise EntityDocError(f"not valid JSON: {exc}") from exc
    if not isinstance(doc, dict):
        raise EntityDocError("expected a JSON object at the top level")
    if isinstance(doc.get("entities"), dict):
        yield from _from_response(doc["entities"], stats)
    elif "error" in doc:
        raise EntityDocError(f"the document is an API error response: {doc['error']}")
    elif "id" in doc or "entity" in doc:
        yield doc
    else:
        raise EntityDocError("no 'entities', 'id' or 'entity' key: not a Wikibase entity document")
