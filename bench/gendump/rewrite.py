"""Turn a template into a new, unique entity: ids, statements, item values, page metadata.

The walk over an entity and the order of the RNG draws are what make the dump
reproducible for a seed: statements are visited map by map, property by property, and
each snak is retargeted (item values) or perhaps shifted (time values) in place.
"""

from __future__ import annotations

import random
from collections import Counter

import orjson

from bench.gendump.common import Entity
from bench.gendump.ids import (
    IdSpace,
    add_page_meta,
    copy_title,
    reprefix,
    unique_sitelinks,
)
from bench.gendump.perturb import (
    dropped,
    maybe_add_statement,
    maybe_rerank,
    maybe_shift_time,
)
from bench.gendump.stats import Stats
from bench.gendump.templates import Template


class Rewriter:
    """Turns a template into a unique, lightly perturbed entity."""

    def __init__(self, rng: random.Random, ids: IdSpace, stats: Stats) -> None:
        self.rng = rng
        self.ids = ids
        self.stats = stats
        self.copies: Counter[str] = Counter()

    def emit(self, template: Template, new_id: str | None = None) -> Entity:
        """A new entity from ``template``; properties keep their id (``new_id=None``)."""
        entity: Entity = orjson.loads(template.payload)
        page = self.ids.new_page()
        new_id = new_id or self.ids.new_id(template.type, page)
        copy = self.copies[template.source_id]
        self.copies[template.source_id] += 1
        entity["id"] = new_id
        self._rewrite_parts(entity, template.source_id, new_id)
        if copy and entity.get("sitelinks"):
            unique_sitelinks(entity, new_id)
        add_page_meta(entity, page, copy_title(template.title, copy, page), self.rng)
        return entity

    def _rewrite_parts(self, entity: Entity, source_id: str, new_id: str) -> None:
        for key in ("claims", "statements"):
            groups = entity.get(key)
            if isinstance(groups, dict):
                self._statements(groups, source_id, new_id, top=True)
                if maybe_add_statement(self.rng, groups, new_id, self.ids.item_refs):
                    self.stats.statements += 1
        for key in ("lexicalCategory", "language"):
            if isinstance(entity.get(key), str):
                entity[key] = self.ids.item_ref(entity[key])
        for sub in (*entity.get("forms", ()), *entity.get("senses", ())):
            sub["id"] = new_id + sub["id"][len(source_id) :]
            if "grammaticalFeatures" in sub:
                sub["grammaticalFeatures"] = [
                    self.ids.item_ref(q) for q in sub["grammaticalFeatures"]
                ]
            if isinstance(sub.get("claims"), dict):
                self._statements(sub["claims"], source_id, new_id, top=False)

    def _statements(
        self, groups: dict[str, list[Entity]], source_id: str, new_id: str, *, top: bool
    ) -> None:
        for pid in list(groups):
            kept = []
            for statement in groups[pid]:
                if dropped(self.rng):
                    continue
                statement["id"] = reprefix(statement.get("id"), source_id, new_id)
                self._statement(statement)
                kept.append(statement)
            if kept:
                groups[pid] = kept
            else:
                del groups[pid]
            if top:
                self.stats.statements += len(kept)

    def _statement(self, statement: Entity) -> None:
        self._snak(statement["mainsnak"])
        maybe_rerank(self.rng, statement)
        qualifiers = statement.get("qualifiers")
        if isinstance(qualifiers, dict):
            for snaks in qualifiers.values():
                self.stats.qualifiers += len(snaks)
                for snak in snaks:
                    self._snak(snak)
        for reference in statement.get("references", ()):
            self.stats.references += 1
            for snaks in reference["snaks"].values():
                for snak in snaks:
                    self._retarget(snak)

    def _snak(self, snak: Entity) -> None:
        datavalue = snak.get("datavalue")
        if datavalue is None:
            return
        if datavalue["type"] == "wikibase-entityid":
            self._retarget(snak)
        elif datavalue["type"] == "time":
            maybe_shift_time(self.rng, snak)

    def _retarget(self, snak: Entity) -> None:
        datavalue = snak.get("datavalue")
        if datavalue is None or datavalue["type"] != "wikibase-entityid":
            return
        value = datavalue["value"]
        if value.get("entity-type") == "item":
            qid = self.ids.item_ref(value["id"])
            value["numeric-id"] = int(qid[1:])
            value["id"] = qid
