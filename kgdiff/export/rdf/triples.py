"""The N-Triples lines of the store's rows: entities, terms, sitelinks, statements and
qualifiers, each from one row (a dict) of what the ``sql/rdf/`` statements read."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pyarrow as pa

from kgdiff.export.rdf import ntriples as nt
from kgdiff.export.rdf.sites import page_url, site_of
from kgdiff.export.rdf.snaks import snak_lines
from kgdiff.wikibase_rdf import ONTOLEX_ENTRY, RANK_CLASSES

ENTITY_CLASSES = {
    "item": nt.wb("Item"),
    "property": nt.wb("Property"),
    "lexeme": f"<{ONTOLEX_ENTRY}>",
}
TERM_PREDICATES = {
    "label": (nt.RDFS_LABEL, f"<{nt.SKOS}prefLabel>", f"<{nt.SCHEMA}name>"),
    "description": (f"<{nt.SCHEMA}description>",),
    "alias": (f"<{nt.SKOS}altLabel>",),
    "lemma": (nt.wb("lemma"),),
}
_NOT_NAME = re.compile(r"[^\w-]", re.ASCII)
PROPERTY_LINKS = {
    "directClaim": "wdt",
    "claim": "p",
    "statementProperty": "ps",
    "statementValue": "psv",
    "qualifier": "pq",
    "qualifierValue": "pqv",
    "novalue": "wdno",
}
"""How Wikidata's RDF ties a property to its predicates (those this export writes)."""


def rows(batch: pa.RecordBatch | pa.Table) -> Iterator[dict[str, Any]]:
    """The rows of a batch or table as dicts (column lists zipped: cheaper than ``to_pylist``)."""
    names = batch.schema.names
    columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
    for values in zip(*columns, strict=True):
        yield dict(zip(names, values, strict=True))


def statement_iri(statement_id: str) -> str:
    """``s:Q42-…``: the statement id with every character but letters, digits, ``_`` and
    ``-`` (its ``$``) replaced by ``-``, as Wikibase names statement nodes."""
    return nt.iri(nt.WDS + _NOT_NAME.sub("-", statement_id))


def datatype_name(datatype: str) -> str:
    """A datatype id as its class in the Wikibase ontology (``wikibase-item`` →
    ``WikibaseItem``, ``external-id`` → ``ExternalId``)."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-\s]+", datatype))


def _property_lines(subject: str, pid: str, datatype: str | None) -> Iterator[str]:
    if datatype:
        yield nt.line(subject, nt.wb("propertyType"), nt.wb(datatype_name(datatype)))
    for link, kind in PROPERTY_LINKS.items():
        yield nt.line(subject, nt.wb(link), nt.prop(kind, pid))


def entity_lines(row: Mapping[str, Any]) -> Iterator[str]:
    """``wd:Q42 a wikibase:Item``; a property's datatype and predicates; a redirect as
    ``owl:sameAs`` its target."""
    subject = nt.entity(row["qid"])
    if row["redirect_to"]:
        yield nt.line(subject, nt.OWL_SAME_AS, nt.entity(row["redirect_to"]))
        return
    if row["type"] in ENTITY_CLASSES:
        yield nt.line(subject, nt.RDF_TYPE, ENTITY_CLASSES[row["type"]])
    if row["type"] == "property":
        yield from _property_lines(subject, row["qid"], row["datatype"])


def label_lines(row: Mapping[str, Any]) -> Iterator[str]:
    """Labels (``rdfs:label``, ``skos:prefLabel``, ``schema:name``), descriptions, aliases."""
    subject = nt.entity(row["qid"])
    literal = nt.tagged(row["value"], row["lang"])
    for predicate in TERM_PREDICATES.get(row["kind"], ()):
        yield nt.line(subject, predicate, literal)


def sitelink_lines(row: Mapping[str, Any]) -> Iterator[str]:
    """A sitelink's page as a ``schema:Article`` about the entity, with its badges."""
    site = site_of(row["site"])
    if site is None:
        return
    page = nt.iri(page_url(site, row["title"]))
    yield nt.line(page, nt.RDF_TYPE, f"<{nt.SCHEMA}Article>")
    yield nt.line(page, f"<{nt.SCHEMA}about>", nt.entity(row["qid"]))
    yield nt.line(page, f"<{nt.SCHEMA}inLanguage>", nt.plain(site.language))
    yield nt.line(page, f"<{nt.SCHEMA}isPartOf>", nt.iri(f"https://{site.host}/"))
    yield nt.line(page, f"<{nt.SCHEMA}name>", nt.tagged(row["title"], site.language))
    for badge in row["badges"] or ():
        yield nt.line(page, nt.wb("badge"), nt.entity(badge))


def statement_lines(
    row: Mapping[str, Any], datatypes: Mapping[str, str], full: bool = True
) -> Iterator[str]:
    """The statement's node (``p:``, rank, best rank, main snak) when ``full``, and its
    truthy ``wdt:`` triple if it is best-ranked."""
    subject, pid, sid = nt.entity(row["subject"]), row["pid"], row["statement_id"]
    datatype = row["datatype"] or datatypes.get(pid)
    if row["best"]:
        yield from snak_lines(subject, "wdt", pid, row, datatype, sid)
    if not full:
        return
    node = statement_iri(sid)
    yield nt.line(subject, nt.prop("p", pid), node)
    yield nt.line(node, nt.RDF_TYPE, nt.wb("Statement"))
    if row["best"]:
        yield nt.line(node, nt.RDF_TYPE, nt.wb("BestRank"))
    yield nt.line(node, nt.wb("rank"), nt.wb(RANK_CLASSES[row["rank"]]))
    yield from snak_lines(node, "ps", pid, row, datatype, sid)


def qualifier_lines(row: Mapping[str, Any], datatypes: Mapping[str, str]) -> Iterator[str]:
    """The ``pq:`` / ``pqv:`` triples of a qualifier, about its statement's node."""
    pid = row["qualifier_pid"]
    node = statement_iri(row["statement_id"])
    key = f"{row['statement_id']}|{pid}|{row['ordinal']}"
    yield from snak_lines(node, "pq", pid, row, row["datatype"] or datatypes.get(pid), key)
