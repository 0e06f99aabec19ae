"""Legacy Wikibase internal serialisation (entity page text before ~2014) → canonical JSON.

Legacy keys: ``entity`` ("q1" or ["item", 1]), ``label``/``description`` {lang: text},
``aliases`` {lang: [texts]}, ``links`` {site: title | {"name", "badges"}}, ``datatype``, and
``claims`` [{"m", "q", "g", "rank", "refs"}] with list snaks: ["value", 31, type, value],
["somevalue", 31], ["novalue", 31]. Redirects are {"entity": "Q1", "redirect": "Q2"}.

Not mapped, because the legacy text does not hold them: snak and reference ``hash`` fields,
``mainsnak.datatype`` (needs a property lookup: a "string" may be an identifier, a URL or a
file), the ``id`` of a statement without guid (none is invented), ``lastrevid``/``modified``.
Empty qualifiers, references and alias lists are omitted, as in Wikidata's own JSON. Values
are copied unchanged, unknown types included; wikibase-entityid values gain an ``id`` ("Q5").
"""

from __future__ import annotations

import re
from typing import Any

JsonDict = dict[str, Any]

_PREFIX_OF_TYPE = {"item": "Q", "property": "P", "lexeme": "L", "mediainfo": "M"}
_TYPE_OF_PREFIX = {prefix: kind for kind, prefix in _PREFIX_OF_TYPE.items()}
_ENTITY_ID = re.compile(r"([QPLM])([1-9][0-9]*)")
_PROPERTY_ID = re.compile(r"P?([1-9][0-9]*)")
_RANKS = {0: "deprecated", 1: "normal", 2: "preferred"}
_SNAK_TYPES = frozenset({"value", "somevalue", "novalue"})
_CANONICAL_MAPS = ("labels", "descriptions", "aliases", "sitelinks", "claims")


class LegacyFormatError(ValueError):
    """An entity document that is neither canonical nor legacy, or a malformed legacy field."""


def is_legacy(doc: JsonDict) -> bool:
    """Tell whether ``doc`` is in the legacy internal serialisation (redirects included)."""
    legacy_keys = ("entity", "label", "description", "links")
    legacy = any(key in doc for key in legacy_keys) or isinstance(doc.get("claims"), list)
    return legacy and "type" not in doc


def to_canonical(doc: JsonDict) -> JsonDict:
    """Return ``doc`` in the canonical Wikibase JSON shape (legacy input → a new dict).

    Canonical input comes back as is, or as a shallow copy when empty maps written ``[]`` are
    set to ``{}``. Raises :class:`LegacyFormatError` naming the offending key or field."""
    if not isinstance(doc, dict):
        raise LegacyFormatError(f"entity document must be a JSON object, not {_kind(doc)}")
    if "type" in doc:
        if isinstance(doc["type"], str) and isinstance(doc.get("id"), str):
            return _fix_canonical_maps(doc)
        raise LegacyFormatError("canonical entity needs string 'type' and 'id' fields")
    if "entity" not in doc:
        keys = ", ".join(sorted(map(str, doc))[:8]) or "none"
        raise LegacyFormatError(f"neither canonical ('type') nor legacy ('entity'); keys: {keys}")
    entity_id, entity_type = _entity_id(doc["entity"], "entity")
    if "redirect" in doc:
        target = _entity_id(doc["redirect"], "redirect")[0]
        return {"type": entity_type, "id": entity_id, "redirect": target}
    return _legacy_entity(doc, entity_id, entity_type)


def _legacy_entity(doc: JsonDict, entity_id: str, entity_type: str) -> JsonDict:
    out: JsonDict = {
        "type": entity_type,
        "id": entity_id,
        "labels": _terms(doc.get("label"), "label"),
        "descriptions": _terms(doc.get("description"), "description"),
        "aliases": _aliases(doc.get("aliases")),
    }
    if entity_type != "property" or "links" in doc:
        out["sitelinks"] = _sitelinks(doc.get("links"))
    out["claims"] = _claims(doc)
    if "datatype" in doc:
        out["datatype"] = doc["datatype"]
    return out


def _kind(value: object) -> str:
    return type(value).__name__


def _fix_canonical_maps(doc: JsonDict) -> JsonDict:
    empty: JsonDict = {key: {} for key in _CANONICAL_MAPS if doc.get(key) == []}
    return {**doc, **empty} if empty else doc


def _as_map(raw: object, field: str) -> dict[Any, Any]:
    # PHP serialised empty arrays as [] where a map was meant.
    if raw is None or raw == []:
        return {}
    if not isinstance(raw, dict):
        raise LegacyFormatError(f"field '{field}' must be an object, not {_kind(raw)}")
    return raw


def _entity_id(raw: object, field: str) -> tuple[str, str]:
    if isinstance(raw, str):
        match = _ENTITY_ID.fullmatch(raw.upper())
        if match:
            return match.group(0), _TYPE_OF_PREFIX[match.group(1)]
    elif isinstance(raw, list) and len(raw) == 2 and str(raw[0]) in _PREFIX_OF_TYPE:
        number = raw[1]
        if isinstance(number, int) and not isinstance(number, bool) and number > 0:
            return f"{_PREFIX_OF_TYPE[raw[0]]}{number}", raw[0]
    raise LegacyFormatError(f"field '{field}': unrecognised entity id {raw!r:.80}")


def _text(raw: object, field: str) -> str:
    if isinstance(raw, dict):
        raw = raw.get("value")
    if not isinstance(raw, str):
        raise LegacyFormatError(f"field '{field}' must be a string, not {_kind(raw)}")
    return raw


def _terms(raw: object, field: str) -> JsonDict:
    return {
        lang: {"language": lang, "value": _text(text, f"{field}.{lang}")}
        for lang, text in _as_map(raw, field).items()
    }


def _alias_texts(raw: object, field: str) -> list[object]:
    if isinstance(raw, list):
        return raw
    if isinstance(raw, dict):
        # A PHP list with gaps ({"0": "a", "2": "b"}) keeps its order in the indices.
        try:
            return [raw[key] for key in sorted(raw, key=int)]
        except ValueError as exc:
            raise LegacyFormatError(f"field '{field}' has a non-numeric index") from exc
    raise LegacyFormatError(f"field '{field}' must be a list, not {_kind(raw)}")


def _aliases(raw: object) -> JsonDict:
    out: JsonDict = {}
    for lang, texts in _as_map(raw, "aliases").items():
        field = f"aliases.{lang}"
        values = [_text(text, field) for text in _alias_texts(texts, field)]
        if values:
            out[lang] = [{"language": lang, "value": value} for value in values]
    return out


def _sitelinks(raw: object) -> JsonDict:
    out: JsonDict = {}
    for site, link in _as_map(raw, "links").items():
        field = f"links.{site}"
        badges: object = []
        if isinstance(link, dict):
            badges = link.get("badges", [])
            link = link.get("name", link.get("title"))
        if not isinstance(badges, list):
            raise LegacyFormatError(f"field '{field}.badges' must be a list, not {_kind(badges)}")
        out[site] = {"site": site, "title": _text(link, field), "badges": list(badges)}
    return out


def _claims(doc: JsonDict) -> JsonDict:
    # "statements" is not in the samples; it is read like "claims" in case a revision has it.
    raw = _as_list(doc.get("claims"), "claims") + _as_list(doc.get("statements"), "statements")
    grouped: JsonDict = {}
    for index, claim in enumerate(raw):
        statement = _statement(claim, f"claims[{index}]")
        grouped.setdefault(statement["mainsnak"]["property"], []).append(statement)
    return grouped


def _statement(raw: object, field: str) -> JsonDict:
    if not isinstance(raw, dict):
        raise LegacyFormatError(f"field '{field}' must be an object, not {_kind(raw)}")
    out: JsonDict = {"mainsnak": _snak(raw.get("m"), f"{field}.m"), "type": "statement"}
    guid = raw.get("g")
    if guid is not None:
        if not isinstance(guid, str):
            raise LegacyFormatError(f"field '{field}.g' must be a string, not {_kind(guid)}")
        out["id"] = guid
    out["rank"] = _rank(raw.get("rank", 1), f"{field}.rank")
    qualifiers, order = _group(_as_list(raw.get("q"), f"{field}.q"), f"{field}.q")
    if qualifiers:
        out["qualifiers"] = qualifiers
        out["qualifiers-order"] = order
    references = _references(_as_list(raw.get("refs"), f"{field}.refs"), f"{field}.refs")
    if references:
        out["references"] = references
    return out


def _references(refs: list[object], field: str) -> list[JsonDict]:
    out = []
    for number, ref in enumerate(refs):
        where = f"{field}[{number}]"
        snaks, order = _group(_as_list(ref, where), where)
        out.append({"snaks": snaks, "snaks-order": order})
    return out


def _as_list(raw: object, field: str) -> list[object]:
    if raw is None or raw == {}:
        return []
    if not isinstance(raw, list):
        raise LegacyFormatError(f"field '{field}' must be a list, not {_kind(raw)}")
    return raw


def _rank(raw: object, field: str) -> str:
    if isinstance(raw, int) and not isinstance(raw, bool) and raw in _RANKS:
        return _RANKS[raw]
    if isinstance(raw, str) and raw in _RANKS.values():
        return raw
    raise LegacyFormatError(f"field '{field}': unknown rank {raw!r:.40}")


def _group(snaks: list[object], field: str) -> tuple[JsonDict, list[str]]:
    grouped: JsonDict = {}
    for index, raw in enumerate(snaks):
        snak = _snak(raw, f"{field}[{index}]")
        grouped.setdefault(snak["property"], []).append(snak)
    return grouped, list(grouped)


def _snak(raw: object, field: str) -> JsonDict:
    if not isinstance(raw, list) or len(raw) < 2 or str(raw[0]) not in _SNAK_TYPES:
        raise LegacyFormatError(f"field '{field}': not a snak: {raw!r:.80}")
    snak: JsonDict = {"snaktype": raw[0], "property": _property_id(raw[1], field)}
    if raw[0] == "value":
        if len(raw) < 4 or not isinstance(raw[2], str):
            raise LegacyFormatError(f"field '{field}': value snak without type and value")
        snak["datavalue"] = {"value": _value(raw[2], raw[3]), "type": raw[2]}
    return snak


def _property_id(raw: object, field: str) -> str:
    if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0:
        return f"P{raw}"
    if isinstance(raw, str) and (match := _PROPERTY_ID.fullmatch(raw.upper())):
        return f"P{match.group(1)}"
    raise LegacyFormatError(f"field '{field}': bad property id {raw!r:.40}")


def _value(value_type: str, value: object) -> object:
    if value_type != "wikibase-entityid" or not isinstance(value, dict) or "id" in value:
        return value
    prefix = _PREFIX_OF_TYPE.get(str(value.get("entity-type")))
    number = value.get("numeric-id")
    if prefix is None or not isinstance(number, int) or isinstance(number, bool):
        return value
    return {**value, "id": f"{prefix}{number}"}
