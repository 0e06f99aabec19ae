"""The IRIs and names of Wikibase's RDF mapping that the RDF reader recognises: property
predicates (``p:``, ``ps:``, ``pq:`` …), statement, value and reference nodes, entity classes
and ranks, and the other vocabularies (schema.org, SKOS, OWL, PROV) the mapping uses, as rdflib
nodes and patterns over the IRIs that :mod:`kgdiff.wikibase_rdf` shares with the RDF export."""

from __future__ import annotations

import re

from rdflib import URIRef
from rdflib.term import Node

from kgdiff import wikibase_rdf as vocab

KINDS = {path: kind for kind, path in vocab.PROPERTY_PATHS.items()}
PROP_IRI = re.compile(r".*/prop/(" + "|".join(map(re.escape, KINDS)) + r")(P[1-9]\d*)")
STATEMENT_IRI = re.compile(
    r".*/entity/statement/([Ll][1-9]\d*-[FS][1-9]\d{0,5}|[A-Za-z][1-9]\d*)-(.+)"
)
"""A statement node: its entity (a lexeme's form or sense ``L1-F1``: a suffix too short to
be the 8 hex digits a statement's UUID starts with, as in ``Q1009-F1658822-…``), its id."""
VALUE_IRI = re.compile(r".*/value/[^/]+")
REFERENCE_IRI = re.compile(r".*/reference/([^/]+)")
RDFS_LABEL = URIRef(vocab.RDFS_LABEL)
OWL_SAME_AS = URIRef(vocab.OWL_SAME_AS)
PROV_DERIVED = URIRef(vocab.PROV_DERIVED)
ONTOLEX_ENTRY = URIRef(vocab.ONTOLEX_ENTRY)
CLASSES: dict[Node, str] = {
    URIRef(vocab.WIKIBASE + "Item"): "item",
    URIRef(vocab.WIKIBASE + "Property"): "property",
    URIRef(vocab.WIKIBASE + "Lexeme"): "lexeme",
    ONTOLEX_ENTRY: "lexeme",
    URIRef(vocab.WIKIBASE + "Mediainfo"): "mediainfo",
}
RANKS = {name: rank for rank, name in vocab.RANK_CLASSES.items()}
DUMP_NODE = URIRef(vocab.WIKIBASE + "Dump")
ABOUT = URIRef(vocab.SCHEMA + "about")
ARTICLE = URIRef(vocab.SCHEMA + "Article")
IS_PART_OF = URIRef(vocab.SCHEMA + "isPartOf")
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
