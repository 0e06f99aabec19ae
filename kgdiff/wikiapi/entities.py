"""Wikidata entities (and any wiki page) as of a date, through the API.

The entity JSON of the revision in force at ``T`` is the entity as Wikidata knew it then:
old revisions hold the internal serialisation used before 2014, which the ingest maps to
the canonical one (:mod:`kgdiff.readers.legacy`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime

import msgspec

from kgdiff.errors import UsageError
from kgdiff.wikiapi.client import WikiClient
from kgdiff.wikiapi.revisions import RevisionInfo, revision_at

ENTITY_ID = re.compile(r"[QPL][1-9][0-9]*")
_NAMESPACE = {"Q": "", "P": "Property:", "L": "Lexeme:"}


def check_entity_ids(ids: Iterable[str]) -> list[str]:
    """Upper-cased, de-duplicated entity ids; a usage error for anything else."""
    checked = []
    for raw in ids:
        qid = raw.strip().upper()
        if not ENTITY_ID.fullmatch(qid):
            raise UsageError(f"--entities: {raw!r} is not an entity id like Q42, P31 or L7")
        checked.append(qid)
    return list(dict.fromkeys(checked))


def entity_title(entity_id: str) -> str:
    """The page title of an entity on Wikidata (``Q42``, ``Property:P31``, ``Lexeme:L7``)."""
    return _NAMESPACE[entity_id[0]] + entity_id


NOT_YET = "no revision at that date (or no such page)"
"""The problem of an entity that did not exist at the date (its absence is knowledge)."""


@dataclass(frozen=True)
class EntityAsOf:
    """An entity's JSON as of a date; ``document`` is ``None`` when it did not exist then."""

    entity_id: str
    revision: RevisionInfo | None
    document: dict[str, object] | None
    problem: str | None = None


def entities_as_of(
    client: WikiClient, entity_ids: Iterable[str], when: datetime
) -> Iterator[EntityAsOf]:
    """For each entity, the JSON of its revision in force at ``when`` (one request each)."""
    for entity_id in entity_ids:
        revision = revision_at(client, entity_title(entity_id), when)
        if revision is None:
            yield EntityAsOf(entity_id, None, None, NOT_YET)
        elif revision.text is None:
            yield EntityAsOf(entity_id, revision, None, "the revision's text is hidden")
        else:
            yield _decoded(entity_id, revision, revision.text)


def _decoded(entity_id: str, revision: RevisionInfo, text: str) -> EntityAsOf:
    try:
        document = msgspec.json.decode(text)
    except msgspec.DecodeError as exc:
        return EntityAsOf(entity_id, revision, None, f"revision {revision.meta.revid}: {exc}")
    if not isinstance(document, dict):
        problem = f"revision {revision.meta.revid}: not a JSON object"
        return EntityAsOf(entity_id, revision, None, problem)
    return EntityAsOf(entity_id, revision, document)
