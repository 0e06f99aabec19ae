"""The baseline to beat: straightforward research code on top of qwikidata.

Usage::

    .venv/bin/python -m bench.qwikidata_baseline PATH.json[.gz|.bz2] [--limit N]

One process reads the dump with :class:`qwikidata.json_dump.WikidataJsonDump`
(``bz2``/``gzip`` modules, ``json.loads`` per line), builds ``WikidataItem`` /
``WikidataProperty`` / ``WikidataLexeme`` objects and extracts the rows the kgdiff
ingest produces: an entity row, one row per label/description/alias (lemma for
lexemes), per sitelink, per statement (with its reference count) and per qualifier.
Rows go into plain lists that are counted and dropped every 10 000 entities.
Prints one line of JSON (MB = 10**6 bytes of uncompressed input).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from qwikidata.claim import WikidataClaimGroup
from qwikidata.datavalue import (
    GlobeCoordinate,
    MonolingualText,
    Quantity,
    String,
    Time,
    WikibaseEntityId,
    WikibaseUnmappedEntityId,
)
from qwikidata.entity import WikidataItem, WikidataLexeme, WikidataProperty
from qwikidata.json_dump import WikidataJsonDump

FLUSH_EVERY = 10_000
Row = tuple[Any, ...]
# WikidataItem | WikidataProperty | WikidataLexeme; qwikidata ships no type information.
QwikidataEntity: TypeAlias = Any


@dataclass
class Rows:
    """Row lists of the current batch plus running totals."""

    entities: list[Row] = field(default_factory=list)
    terms: list[Row] = field(default_factory=list)
    sitelinks: list[Row] = field(default_factory=list)
    statements: list[Row] = field(default_factory=list)
    qualifiers: list[Row] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)

    def flush(self) -> None:
        """Count the buffered rows and drop them (a real tool would write them out here)."""
        for name in ("entities", "terms", "sitelinks", "statements", "qualifiers"):
            rows: list[Row] = getattr(self, name)
            self.totals[name] = self.totals.get(name, 0) + len(rows)
            rows.clear()


def value_string(datavalue: Any) -> str | None:
    """The value as a string: entity id, raw time string, amount, text, or lat,lon."""
    if datavalue is None:
        return None
    if isinstance(datavalue, WikibaseEntityId):
        return str(datavalue.value["id"])
    if isinstance(datavalue, Time):
        return str(datavalue.value["time"])
    if isinstance(datavalue, Quantity):
        return str(datavalue.value["amount"])
    if isinstance(datavalue, MonolingualText):
        return str(datavalue.value["text"])
    if isinstance(datavalue, GlobeCoordinate):
        return f"{datavalue.value['latitude']},{datavalue.value['longitude']}"
    if isinstance(datavalue, String | WikibaseUnmappedEntityId):
        return str(datavalue.value)
    return str(datavalue)


def entity_object(entity_dict: dict[str, Any]) -> QwikidataEntity | None:
    """The qwikidata object for an entity dict (``None`` for types qwikidata lacks)."""
    kind = entity_dict.get("type")
    if kind == "item":
        return WikidataItem(entity_dict)
    if kind == "property":
        return WikidataProperty(entity_dict)
    if kind == "lexeme":
        return WikidataLexeme(entity_dict)
    return None


def term_text(entity: QwikidataEntity | None, kind: str, terms: dict[str, Any], lang: str) -> str:
    """A label/lemma or description through qwikidata's getters (raw dict for mediainfo)."""
    if isinstance(entity, WikidataLexeme):
        return str(entity.get_lemma(lang))
    if isinstance(entity, WikidataItem | WikidataProperty):
        text = entity.get_label(lang) if kind == "label" else entity.get_description(lang)
        return str(text)
    return str(terms[lang]["value"])


def add_terms(rows: Rows, eid: str, entity: QwikidataEntity | None, doc: dict[str, Any]) -> None:
    """One row per label, description and alias (lemmas for lexemes), in every language."""
    label_key = "lemmas" if isinstance(entity, WikidataLexeme) else "labels"
    for kind, key in (("label", label_key), ("description", "descriptions")):
        terms = doc.get(key)
        if not isinstance(terms, dict):
            continue
        for lang in terms:
            rows.terms.append((eid, kind, lang, term_text(entity, kind, terms, lang)))
    if isinstance(entity, WikidataItem | WikidataProperty) and isinstance(doc.get("aliases"), dict):
        for lang in doc["aliases"]:
            for alias in entity.get_aliases(lang):
                rows.terms.append((eid, "alias", lang, alias))


def claim_groups(entity: QwikidataEntity | None, doc: dict[str, Any]) -> dict[str, Any]:
    """Top-level statement groups (qwikidata's own for items/properties/lexemes)."""
    if entity is not None:
        return dict(entity.get_claim_groups())
    statements = doc.get("statements")
    if not isinstance(statements, dict):
        return {}
    return {pid: WikidataClaimGroup(group) for pid, group in statements.items()}


def add_statements(rows: Rows, eid: str, groups: dict[str, Any]) -> int:
    """One row per statement (with its reference count) and per qualifier."""
    count = 0
    for pid, group in groups.items():
        for claim in group:
            snak = claim.mainsnak
            value = value_string(snak.datavalue)
            rows.statements.append(
                (
                    eid,
                    pid,
                    claim.claim_id,
                    claim.rank,
                    snak.snaktype,
                    snak.snak_datatype,
                    value,
                    len(claim.references),
                )
            )
            for qpid, qualifiers in claim.qualifiers.items():
                for qualifier in qualifiers:
                    qsnak = qualifier.snak
                    qvalue = value_string(qsnak.datavalue)
                    rows.qualifiers.append((claim.claim_id, qpid, qsnak.snaktype, qvalue))
            count += 1
    return count


def add_entity(rows: Rows, doc: dict[str, Any]) -> int:
    """All rows of one entity; returns its number of statements."""
    entity = entity_object(doc)
    eid = doc["id"]
    if isinstance(entity, WikidataItem | WikidataProperty):
        label, description = entity.get_label("en"), entity.get_description("en")
    elif isinstance(entity, WikidataLexeme):
        label, description = entity.get_lemma("en"), ""
    else:
        label = (doc.get("labels") or {}).get("en", {}).get("value", "")
        description = (doc.get("descriptions") or {}).get("en", {}).get("value", "")
    rows.entities.append((eid, doc["type"], label, description))
    add_terms(rows, eid, entity, doc)
    if isinstance(entity, WikidataItem):
        for site, sitelink in entity.get_sitelinks(prefix="").items():
            rows.sitelinks.append((eid, site, sitelink["title"]))
    return add_statements(rows, eid, claim_groups(entity, doc))


def iter_entities(dump: WikidataJsonDump, counter: list[int]) -> Iterator[dict[str, Any]]:
    """``WikidataJsonDump.__iter__``, counting the uncompressed bytes in ``counter[0]``."""
    for line_str in dump.iter_lines():
        counter[0] += len(line_str) if line_str.isascii() else len(line_str.encode("utf-8"))
        line_str = line_str.rstrip(",\n")
        if line_str in ("[", "]", ""):
            continue
        yield json.loads(line_str)


def run(path: str, limit: int | None) -> dict[str, Any]:
    """Ingest ``path`` the qwikidata way; return the figures."""
    start = time.perf_counter()
    rows = Rows()
    counter = [0]
    entities = statements = 0
    for doc in iter_entities(WikidataJsonDump(path), counter):
        statements += add_entity(rows, doc)
        entities += 1
        if entities % FLUSH_EVERY == 0:
            rows.flush()
        if limit is not None and entities >= limit:
            break
    rows.flush()
    seconds = time.perf_counter() - start
    return {
        "tool": "qwikidata",
        "file": path,
        "bytes": counter[0],
        "seconds": round(seconds, 3),
        "entities": entities,
        "statements": statements,
        "mb_per_s": round(counter[0] / 1e6 / seconds, 2),
        "entities_per_s": round(entities / seconds, 1),
        "statements_per_s": round(statements / seconds, 1),
        "rows": rows.totals,
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: print one line of JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.qwikidata_baseline")
    parser.add_argument("path", help="wikidata-*.json, .json.gz or .json.bz2")
    parser.add_argument("--limit", type=int, default=None, help="stop after N entities")
    args = parser.parse_args(argv)
    result = run(args.path, args.limit)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
