"""Bring old Wikidata JSON (the 2014 dump) up to the current serialisation.

Done once per source entity, before it becomes a template: every map present, ``datatype``
on every snak, ``id`` on entity values, hashed snaks, qualifiers and references, 4-digit
years, canonical key order and no page metadata (that is added on emission).
"""

from __future__ import annotations

import hashlib

import orjson

from bench.gendump.common import ID_PREFIX, TIME_RE, Entity, snak_hash

CANONICAL_KEYS = {
    "item": ("type", "id", "labels", "descriptions", "aliases", "claims", "sitelinks"),
    "property": ("type", "datatype", "id", "labels", "descriptions", "aliases", "claims"),
    "lexeme": ("type", "id", "lemmas", "lexicalCategory", "language", "claims", "forms", "senses"),
    "mediainfo": ("type", "id", "labels", "descriptions", "statements"),
}
MAP_KEYS = {"labels", "descriptions", "aliases", "claims", "sitelinks", "statements", "lemmas"}
META_KEYS = ("pageid", "ns", "title", "lastrevid", "modified")
VALUE_DATATYPE = {
    "time": "time",
    "quantity": "quantity",
    "globecoordinate": "globe-coordinate",
    "monolingualtext": "monolingualtext",
    "string": "string",
}


def modern_time(text: str) -> str:
    """``+00000001952-03-11T00:00:00Z`` (2014 dumps) → ``+1952-03-11T00:00:00Z``."""
    match = TIME_RE.match(text)
    if match is None:
        return text
    sign, year, month_day, rest = match.groups()
    return f"{sign}{year.lstrip('0').rjust(4, '0')}{month_day}{rest}"


def _value_datatype(datavalue: Entity | None) -> str | None:
    if not datavalue:
        return None
    if datavalue.get("type") == "wikibase-entityid":
        return f"wikibase-{datavalue['value'].get('entity-type', 'item')}"
    return VALUE_DATATYPE.get(datavalue.get("type", ""))


def modern_snak(snak: Entity, datatypes: dict[str, str], with_hash: bool) -> Entity:
    """A snak in the current key order with ``hash`` (if asked), ``id`` and ``datatype``."""
    datavalue = snak.get("datavalue")
    if datavalue is not None:
        value = datavalue.get("value")
        if datavalue.get("type") == "wikibase-entityid" and "id" not in value:
            prefix = ID_PREFIX.get(value.get("entity-type", "item"), "Q")
            value["id"] = f"{prefix}{value['numeric-id']}"
        elif datavalue.get("type") == "time":
            value["time"] = modern_time(value["time"])
    out: Entity = {"snaktype": snak["snaktype"], "property": snak["property"]}
    if with_hash:
        out["hash"] = snak.get("hash") or snak_hash(snak)
    if datavalue is not None:
        out["datavalue"] = datavalue
    datatype = snak.get("datatype") or datatypes.get(snak["property"])
    datatype = datatype or _value_datatype(datavalue)
    if datatype:
        out["datatype"] = datatype
    return out


def modern_statement(statement: Entity, datatypes: dict[str, str]) -> None:
    """Normalise one statement in place (snaks, qualifier hashes and order, references)."""
    statement["mainsnak"] = modern_snak(statement["mainsnak"], datatypes, with_hash=True)
    statement.setdefault("type", "statement")
    statement.setdefault("rank", "normal")
    qualifiers = statement.get("qualifiers")
    if isinstance(qualifiers, dict) and qualifiers:
        for pid, snaks in qualifiers.items():
            qualifiers[pid] = [modern_snak(s, datatypes, with_hash=True) for s in snaks]
        statement.setdefault("qualifiers-order", list(qualifiers))
    for reference in statement.get("references", ()):
        snaks = reference["snaks"]
        for pid, group in snaks.items():
            snaks[pid] = [modern_snak(s, datatypes, with_hash=False) for s in group]
        reference.setdefault("snaks-order", list(snaks))
        reference.setdefault("hash", hashlib.sha1(orjson.dumps(snaks)).hexdigest())


def statement_lists(entity: Entity) -> list[dict[str, list[Entity]]]:
    """Every statement map of an entity: top level, then lexeme forms and senses."""
    maps = [entity.get("claims"), entity.get("statements")]
    for sub in (*entity.get("forms", ()), *entity.get("senses", ())):
        maps.append(sub.get("claims"))
    return [m for m in maps if isinstance(m, dict)]


def modern_entity(entity: Entity, datatypes: dict[str, str]) -> Entity:
    """The entity in the current serialisation, without page metadata (added on emission)."""
    for groups in statement_lists(entity):
        for statements in groups.values():
            for statement in statements:
                modern_statement(statement, datatypes)
    for sitelink in (entity.get("sitelinks") or {}).values():
        sitelink.pop("url", None)
    keys = CANONICAL_KEYS.get(entity["type"], ("type", "id"))
    out: Entity = {}
    for key in keys:
        if key in entity:
            out[key] = entity[key]
        elif key in MAP_KEYS:
            out[key] = {}
    for key, value in entity.items():
        if key not in out and key not in META_KEYS:
            out[key] = value
    return out
