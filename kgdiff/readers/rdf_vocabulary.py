"""The IRIs and names of Wikibase's RDF mapping that the RDF reader recognises: property
predicates (``p:``, ``ps:``, ``pq:`` …), statement, value and reference nodes, entity classes
and ranks, and the other vocabularies (schema.org, SKOS, OWL, PROV) the mapping uses."""

from __future__ import annotations

import re

from rdflib import URIRef
from rdflib.term import Node

from kgdiff.readers.rdf_values import WIKIBASE

PROP_IRI = re.compile(
    r".*/prop/(direct/|direct-normalized/|statement/|statement/value/|"
    r"statement/value-normalized/|qualifier/|qualifier/value/|qualifier/value-normalized/|"
    r"reference/|reference/value/|reference/value-normalized/|novalue/|)(P[1-9]\d*)"
)
KINDS = {
    "": "p",
    "direct/": "wdt",
    "direct-normalized/": "wdtn",
    "statement/": "ps",
    "statement/value/": "psv",
    "statement/value-normalized/": "psn",
    "qualifier/": "pq",
    "qualifier/value/": "pqv",
    "qualifier/value-normalized/": "pqn",
    "reference/": "pr",
    "reference/value/": "prv",
    "reference/value-normalized/": "prn",
    "novalue/": "wdno",
}
STATEMENT_IRI = re.compile(
    r".*/entity/statement/([Ll][1-9]\d*-[FS][1-9]\d{0,5}|[A-Za-z][1-9]\d*)-(.+)"
)
"""A statement node: its entity (a lexeme's form or sense ``L1-F1``: a suffix too short to
be the 8 hex digits a statement's UUID starts with, as in ``Q1009-F1658822-…``), its id."""
VALUE_IRI = re.compile(r".*/value/[^/]+")
REFERENCE_IRI = re.compile(r".*/reference/([^/]+)")
SCHEMA = "http://schema.org/"
RDFS_LABEL = URIRef("http://www.w3.org/2000/01/rdf-schema#label")
SKOS = "http://www.w3.org/2004/02/skos/core#"
OWL_SAME_AS = URIRef("http://www.w3.org/2002/07/owl#sameAs")
PROV_DERIVED = URIRef("http://www.w3.org/ns/prov#wasDerivedFrom")
ONTOLEX_ENTRY = URIRef("http://www.w3.org/ns/lemon/ontolex#LexicalEntry")
CLASSES: dict[Node, str] = {
    URIRef(WIKIBASE + "Item"): "item",
    URIRef(WIKIBASE + "Property"): "property",
    URIRef(WIKIBASE + "Lexeme"): "lexeme",
    ONTOLEX_ENTRY: "lexeme",
    URIRef(WIKIBASE + "Mediainfo"): "mediainfo",
}
RANKS = {"PreferredRank": "preferred", "NormalRank": "normal", "DeprecatedRank": "deprecated"}
DUMP_NODE = URIRef(WIKIBASE + "Dump")
ABOUT = URIRef(SCHEMA + "about")
ARTICLE = URIRef(SCHEMA + "Article")
IS_PART_OF = URIRef(SCHEMA + "isPartOf")
Pairs = list[tuple[Node, Node]]


def prop_kind(predicate: Node) -> tuple[str, str] | None:
    """``ps:P31`` → ``("ps", "P31")``; None for other predicates."""
    if not isinstance(predicate, URIRef):
        return None
    found = PROP_IRI.fullmatch(str(predicate))
    return (KINDS[found[1]], found[2]) if found else None


def statement_id(node: Node) -> tuple[str, str] | None:
    """``s:Q42-F0A…`` → ``("Q42", "Q42$F0A…")`` (entity, JSON statement id); old lower-case
    ids (``q42-…``) keep their case in the id and name the upper-case entity."""
    found = STATEMENT_IRI.fullmatch(str(node)) if isinstance(node, URIRef) else None
    if found is None:
        return None
    owner = found[1]
    return owner[0].upper() + owner[1:], f"{owner}${found[2]}"
