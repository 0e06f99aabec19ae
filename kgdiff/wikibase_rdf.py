"""Wikibase's RDF mapping as both of kgdiff's RDF faces need it: the namespaces and term IRIs
that the RDF reader recognises (:mod:`kgdiff.readers.rdf_vocabulary`) and the RDF export
writes (:mod:`kgdiff.export.rdf.ntriples`), once, below both.

IRIs are plain strings without angle brackets; each side wraps them its own way (the reader in
rdflib nodes, the export in N-Triples terms). The prefixes are those of Wikidata's dumps.
"""

from __future__ import annotations

from typing import Final

WD: Final = "http://www.wikidata.org/entity/"
WDS: Final = WD + "statement/"
WDV: Final = "http://www.wikidata.org/value/"
PROP: Final = "http://www.wikidata.org/prop/"
GENID: Final = "http://www.wikidata.org/.well-known/genid/"
WIKIBASE: Final = "http://wikiba.se/ontology#"
XSD: Final = "http://www.w3.org/2001/XMLSchema#"
GEO: Final = "http://www.opengis.net/ont/geosparql#"
GEO_WKT: Final = GEO + "wktLiteral"
SCHEMA: Final = "http://schema.org/"
SKOS: Final = "http://www.w3.org/2004/02/skos/core#"
PROV: Final = "http://www.w3.org/ns/prov#"
RDF_TYPE: Final = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL: Final = "http://www.w3.org/2000/01/rdf-schema#label"
OWL_SAME_AS: Final = "http://www.w3.org/2002/07/owl#sameAs"
PROV_DERIVED: Final = PROV + "wasDerivedFrom"
ONTOLEX_ENTRY: Final = "http://www.w3.org/ns/lemon/ontolex#LexicalEntry"
"""A lexeme's class."""
MEDIA: Final = "http://commons.wikimedia.org/wiki/Special:FilePath/"
"""Where a Commons file value points (the file's name follows)."""
COMMONS_DATA: Final = "http://commons.wikimedia.org/data/main/"
"""Where a geo shape's or a tabular data value's page is (its name follows)."""

PROPERTY_PATHS: Final = {
    "p": "",
    "wdt": "direct/",
    "wdtn": "direct-normalized/",
    "ps": "statement/",
    "psv": "statement/value/",
    "psn": "statement/value-normalized/",
    "pq": "qualifier/",
    "pqv": "qualifier/value/",
    "pqn": "qualifier/value-normalized/",
    "pr": "reference/",
    "prv": "reference/value/",
    "prn": "reference/value-normalized/",
    "wdno": "novalue/",
}
"""Each kind of property predicate (its prefix in Wikidata's dumps, ``ps:P31``) and where it
sits below :data:`PROP` (``http://www.wikidata.org/prop/statement/P31``)."""

RANK_CLASSES: Final = {
    "preferred": "PreferredRank",
    "normal": "NormalRank",
    "deprecated": "DeprecatedRank",
}
"""A statement's rank and its class in the Wikibase ontology (``wikibase:PreferredRank``)."""
