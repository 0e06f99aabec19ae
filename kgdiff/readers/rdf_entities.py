"""Wikibase RDF → entity documents in Wikibase's canonical JSON (the shape of a JSON dump).

Each chunk (:mod:`kgdiff.readers.rdf_chunks`) is parsed into its own rdflib graph; its
triples are given to the entity they belong to:

* an entity's own triples (``wd:Q42 …``; its type, terms, ``p:`` links, a redirect's
  ``owl:sameAs``, the munged form's ``schema:version`` / ``schema:dateModified``);
* its statements' nodes (``s:Q42-…``, the entity read from the node's name);
* its sitelinks' pages and its ``data:`` dataset node (by their ``schema:about``).

Value nodes (``v:…``) and reference nodes (``ref:…``) are shared between entities (WDQS
dumps write each only the first time it occurs): they go to a bounded cache
(:data:`NODE_CACHE`, least recently used out), where the entity's statements find them when
it is complete. An entity is complete once a later chunk holds another entity's triples and
none of its own (dumps write an entity's triples together), or at the end of the file.

The order of an entity's statements, aliases and qualifiers is the file's: rdflib's memory
store keeps the order triples were added in.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import rdflib
from rdflib import RDF, URIRef
from rdflib.plugins.stores.memory import Memory
from rdflib.term import Node

from kgdiff.readers.rdf_chunks import NQUADS, Chunk
from kgdiff.readers.rdf_nodes import NODE_CACHE, NodeCache, PendingEntity, RdfStats
from kgdiff.readers.rdf_statements import StatementReading
from kgdiff.readers.rdf_terms import entity_terms, guess_type, site_id
from kgdiff.readers.rdf_values import (
    datatype_id,
    entity_id,
)
from kgdiff.readers.rdf_vocabulary import (
    ABOUT,
    CLASSES,
    DUMP_NODE,
    OWL_SAME_AS,
    REFERENCE_IRI,
    VALUE_IRI,
    Pairs,
    prop_kind,
    statement_id,
)
from kgdiff.wikibase_rdf import SCHEMA, WIKIBASE

RECENT_ENTITIES = 100_000
"""Entities already written that are remembered, to tell a file not grouped by entity."""
LOOSE_SUBJECTS = 10_000
"""Subjects not yet placed (a page whose ``schema:about`` is in a later chunk of a file not
grouped by subject) and pages already placed, remembered for other chunks."""


class NotGroupedError(ValueError):
    """An entity's triples came back after other entities' (the file is not grouped by
    entity: sorted by predicate, or concatenated from files that share entities)."""

    def __init__(self, qid: str) -> None:
        super().__init__(qid)
        self.qid = qid


Triple = tuple[Node, Node, Node]


class _OrderStore(Memory):
    """An rdflib store that keeps the triples parsed into it as a list, in the order parsed
    (rdflib's own memory store does not keep the file's order, which gives the order of an
    entity's statements, aliases and qualifiers). Nothing is indexed: nothing queries it."""

    def __init__(self) -> None:
        super().__init__()
        self.parsed: list[Triple] = []

    def add(self, triple: Any, context: Any, quoted: bool = False) -> None:
        self.parsed.append(triple)


def parse_chunk(chunk: Chunk) -> list[Triple]:
    """The chunk's triples in the file's order, without repeats (N-Quads: of every graph).

    rdflib logs, per literal, a traceback for every ``xsd:dateTime`` Python cannot hold (BCE
    years, years past 9999); its lexical form, which is what is read, is kept: the logger
    ``rdflib.term`` is set to errors only."""
    logging.getLogger("rdflib.term").setLevel(logging.ERROR)
    store = _OrderStore()
    if chunk.format == NQUADS:
        with warnings.catch_warnings():  # rdflib's own N-Quads parser uses its deprecated API
            warnings.simplefilter("ignore", DeprecationWarning)
            rdflib.Dataset(store=store).parse(data=chunk.text, format="nquads")
    else:
        rdflib.Graph(store=store).parse(data=chunk.text, format=chunk.format)
    return list(dict.fromkeys(store.parsed))


class EntityBuilder(StatementReading):
    """Chunk graphs in, complete entity documents out (see the module docstring).

    ``datatypes`` are property datatypes known beforehand (the store's snapshots); a
    property's ``wikibase:propertyType`` in the file takes precedence.
    """

    def __init__(
        self,
        datatypes: Mapping[str, str] | None = None,
        cache_bound: int = NODE_CACHE,
        grouped: bool = True,
    ) -> None:
        self.grouped = grouped
        """False: hold every entity until the end (a file in any order, in memory)."""
        self._written: OrderedDict[str, None] = OrderedDict()
        self._loose: OrderedDict[Node, Pairs] = OrderedDict()
        self._page_owner: OrderedDict[Node, str] = OrderedDict()
        self.datatypes: dict[str, str] = dict(datatypes or {})
        self.cache = NodeCache(cache_bound)
        self.pending: dict[str, PendingEntity] = {}
        self.stats = RdfStats()
        self.versioned = False
        """Some entity had a dataset node or a version: entities without one are then only
        described for the others' sake (Special:EntityData's referenced properties)."""

    # -- gathering -------------------------------------------------------------------------

    def add_triples(self, triples: Iterable[Triple]) -> Iterator[dict[str, Any]]:
        """Take one chunk's triples (in file order); yield the entities it completes."""
        by_subject: dict[Node, Pairs] = {}
        for s, p, o in triples:
            by_subject.setdefault(s, []).append((p, o))
        seen: set[str] = set()
        for subject, pairs in by_subject.items():
            owner = self._place(subject, pairs)
            if owner is not None:
                seen.add(owner)
        if seen and self.grouped:
            for qid in [q for q in self.pending if q not in seen]:
                self._remember(qid)
                doc = self._build(qid, self.pending.pop(qid))
                if doc is not None:
                    yield doc

    def finish(self) -> Iterator[dict[str, Any]]:
        """The entities still pending at the end of the file."""
        self.stats.counts["other_triples"] += sum(map(len, self._loose.values()))
        self._loose.clear()
        while self.pending:
            qid = next(iter(self.pending))
            doc = self._build(qid, self.pending.pop(qid))
            if doc is not None:
                yield doc

    def _remember(self, qid: str) -> None:
        self._written[qid] = None
        if len(self._written) > RECENT_ENTITIES:
            self._written.popitem(last=False)

    def _pending(self, qid: str) -> PendingEntity:
        found = self.pending.get(qid)
        if found is None:
            if qid in self._written:
                raise NotGroupedError(qid)
            found = self.pending[qid] = PendingEntity()
        return found

    def _place(self, subject: Node, pairs: Pairs) -> str | None:
        """Give ``subject``'s triples to their entity (or the cache); return the entity."""
        qid = entity_id(subject)
        if qid is not None:
            if "-" in qid:  # a lexeme's form or sense: not modelled by the store
                self.stats.counts["form_sense_triples"] += len(pairs)
                return qid.partition("-")[0]
            for p, o in pairs:
                if p == URIRef(WIKIBASE + "propertyType") and qid.startswith("P"):
                    self.datatypes[qid] = datatype_id(str(o))
            self._pending(qid).add(subject, pairs)
            return qid
        statement = statement_id(subject)
        if statement is not None:
            owner = statement[0]
            if "-" in owner:
                self.stats.counts["form_sense_triples"] += len(pairs)
                return owner.partition("-")[0]
            self._pending(owner).add(subject, pairs)
            return owner
        text = str(subject) if isinstance(subject, URIRef) else ""
        if VALUE_IRI.fullmatch(text) or REFERENCE_IRI.fullmatch(text):
            self.cache.put(text, pairs)
            return None
        about = [entity_id(o) for p, o in pairs if p == ABOUT]
        described = about[0] if about else self._page_owner.get(subject)
        if described is not None:
            pending = self._pending(described)
            if subject not in pending.subjects:
                pending.abouts.append(subject)
            pending.add(subject, self._loose.pop(subject, []) + pairs)
            self._page_owner[subject] = described
            if len(self._page_owner) > LOOSE_SUBJECTS:
                self._page_owner.popitem(last=False)
            return described
        if subject == DUMP_NODE:
            self.stats.is_dump = True
            self.stats.counts["other_triples"] += len(pairs)
            return None
        self._loose.setdefault(subject, []).extend(pairs)
        if len(self._loose) > LOOSE_SUBJECTS:
            self.stats.counts["other_triples"] += len(self._loose.popitem(last=False)[1])
        return None

    # -- building (statements: :class:`~kgdiff.readers.rdf_statements.StatementReading`) ----

    def _sitelink(self, page: Node, entity: PendingEntity) -> tuple[str, dict[str, Any]] | None:
        pairs = entity.subjects.get(page, [])
        title = next((str(o) for p, o in pairs if p == URIRef(SCHEMA + "name")), None)
        wiki = next((str(o) for p, o in pairs if p == URIRef(SCHEMA + "isPartOf")), None)
        site = site_id(wiki or str(page))
        if title is None or site is None:
            self.stats.counts["sitelinks_unreadable"] += 1
            return None
        badges = [b for p, o in pairs if p == URIRef(WIKIBASE + "badge") and (b := entity_id(o))]
        return site, {"site": site, "title": title, "badges": badges}

    def _build(self, qid: str, entity: PendingEntity) -> dict[str, Any] | None:
        own = entity.subjects.get(URIRef(_entity_iri(entity, qid)), [])
        if entity.datasets or any(p == URIRef(SCHEMA + "version") for p, _o in own):
            self.versioned = True
        elif self.versioned:
            self.stats.counts["stub_entities"] += 1
            return None
        kind = next((CLASSES[o] for p, o in own if p == RDF.type and o in CLASSES), None)
        redirect = next((entity_id(o) for p, o in own if p == OWL_SAME_AS), None)
        if redirect is not None and kind is None:
            self.stats.counts["redirects"] += 1
            return {"id": qid, "redirect": redirect}
        doc: dict[str, Any] = {"id": qid, "type": kind or guess_type(qid)}
        if doc["type"] == "property" and qid in self.datatypes:
            doc["datatype"] = self.datatypes[qid]
        terms = entity_terms(own, doc["type"])
        doc.update(terms)
        claims: dict[str, list[dict[str, Any]]] = {}
        for p, o in own:
            link = prop_kind(p)
            if link is None or link[0] != "p":
                continue
            statement = self._statement(link[1], o, entity)
            if statement is not None:
                claims.setdefault(link[1], []).append(statement)
                self.stats.counts["statements"] += 1
        doc["statements" if doc["type"] == "mediainfo" else "claims"] = claims
        if doc["type"] not in ("lexeme", "mediainfo"):
            sitelinks = dict(s for page in entity.articles if (s := self._sitelink(page, entity)))
            doc["sitelinks"] = sitelinks
        _revision(doc, own, entity)
        self.stats.counts["entities"] += 1
        return doc


def _entity_iri(entity: PendingEntity, qid: str) -> str:
    for subject in entity.subjects:
        if entity_id(subject) == qid:
            return str(subject)
    return ""


def _revision(doc: dict[str, Any], own: Pairs, entity: PendingEntity) -> None:
    """``lastrevid`` and ``modified`` from the dataset node (or, munged, the entity)."""
    pairs = [pair for node in entity.datasets for pair in entity.subjects.get(node, [])] + own
    for p, o in pairs:
        if p == URIRef(SCHEMA + "version") and "lastrevid" not in doc:
            with contextlib.suppress(ValueError):
                doc["lastrevid"] = int(str(o))
        elif p == URIRef(SCHEMA + "dateModified") and "modified" not in doc:
            doc["modified"] = str(o)
