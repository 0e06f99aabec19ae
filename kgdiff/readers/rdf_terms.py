"""The parts of a Wikibase RDF entity that are not statements: its terms (labels,
descriptions, aliases, lemmas), its type when the file does not say it, the datatype a value
node stands for, and the site id of a sitelink's wiki."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rdflib import Literal, URIRef
from rdflib.term import Node

from kgdiff.readers.rdf_vocabulary import RDFS_LABEL, Pairs
from kgdiff.wikibase_rdf import SCHEMA, SKOS, WIKIBASE
from kgdiff.wikisites import FAMILIES, SPECIAL_HOSTS

NODE_DATATYPES = {
    "TimeValue": "time",
    "QuantityValue": "quantity",
    "GlobecoordinateValue": "globe-coordinate",
}
_LABELS = (RDFS_LABEL,)
_DESCRIPTION = URIRef(SCHEMA + "description")
_ALIAS = URIRef(SKOS + "altLabel")
_LEMMA = URIRef(WIKIBASE + "lemma")


def node_kind(details: Mapping[str, Node]) -> str:
    """A value node's class from its predicates (for nodes written without their type)."""
    if "timeValue" in details:
        return "TimeValue"
    if "quantityAmount" in details:
        return "QuantityValue"
    if "geoLatitude" in details:
        return "GlobecoordinateValue"
    return ""


def guess_type(qid: str) -> str:
    return {"Q": "item", "P": "property", "L": "lexeme", "M": "mediainfo"}[qid[0]]


def entity_terms(own: Pairs, kind: str) -> dict[str, Any]:
    """Labels, descriptions and aliases (a lexeme: lemmas), language codes lower-cased."""
    labels: dict[str, dict[str, str]] = {}
    descriptions: dict[str, dict[str, str]] = {}
    aliases: dict[str, list[dict[str, str]]] = {}
    lemmas: dict[str, dict[str, str]] = {}
    for p, o in own:
        if not isinstance(o, Literal) or not o.language:
            continue
        lang = o.language.lower()
        term = {"language": lang, "value": str(o)}
        if p == _LEMMA:
            lemmas[lang] = term
        elif kind == "lexeme":
            continue
        elif p in _LABELS:
            labels[lang] = term
        elif p == _DESCRIPTION:
            descriptions[lang] = term
        elif p == _ALIAS:
            aliases.setdefault(lang, []).append(term)
    if kind == "lexeme":
        return {"lemmas": lemmas}
    terms: dict[str, Any] = {"labels": labels, "descriptions": descriptions}
    if kind != "mediainfo":
        terms["aliases"] = aliases
    return terms


_FAMILIES = {project: suffix for suffix, project in FAMILIES.items()}
_SPECIAL_SITES = {host: site for site, (host, _language) in SPECIAL_HOSTS.items()}
_HOST = re.compile(r"https?://([^/]+)/")


def site_id(url: str) -> str | None:
    """The Wikimedia site id of a wiki's URL (``https://en.wikipedia.org/`` → ``enwiki``),
    None for a site outside Wikimedia's naming."""
    found = _HOST.match(url)
    if found is None:
        return None
    host = found[1]
    if host in _SPECIAL_SITES:
        return _SPECIAL_SITES[host]
    language, _, rest = host.partition(".")
    family = rest.removesuffix(".org")
    if family not in _FAMILIES or not language:
        return None
    return language.replace("-", "_") + _FAMILIES[family]
