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
import re
import warnings
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import rdflib
from rdflib import RDF, Literal, URIRef
from rdflib.plugins.stores.memory import Memory
from rdflib.term import Node

from kgdiff.readers.rdf_chunks import NQUADS, Chunk
from kgdiff.readers.rdf_values import (
    NODE_READERS,
    WIKIBASE,
    DataValue,
    datatype_id,
    entity_id,
    is_unknown,
    simple_value,
)
from kgdiff.wikisites import FAMILIES, SPECIAL_HOSTS

NODE_CACHE = 200_000
"""Value and reference nodes kept for later entities (~0.5 KB each: about 100 MB)."""
RECENT_ENTITIES = 100_000
"""Entities already written that are remembered, to tell a file not grouped by entity."""


class NotGroupedError(ValueError):
    """An entity's triples came back after other entities' (the file is not grouped by
    entity: sorted by predicate, or concatenated from files that share entities)."""

    def __init__(self, qid: str) -> None:
        super().__init__(qid)
        self.qid = qid


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
LOOSE_SUBJECTS = 10_000
"""Subjects not yet placed (a page whose ``schema:about`` is in a later chunk of a file not
grouped by subject) and pages already placed, remembered for other chunks."""

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


@dataclass
class RdfStats:
    """What the conversion met, beyond the entities themselves."""

    counts: Counter[str] = field(default_factory=Counter)
    is_dump: bool = False
    """The file declares itself a whole dump (a ``wikibase:Dump`` node)."""


@dataclass
class _Pending:
    """The triples of one entity gathered so far, by subject, in file order."""

    subjects: dict[Node, Pairs] = field(default_factory=dict)
    abouts: list[Node] = field(default_factory=list)
    """Subjects ``schema:about`` the entity: its sitelinks' pages and its dataset node."""

    def add(self, subject: Node, pairs: Pairs) -> None:
        self.subjects.setdefault(subject, []).extend(pairs)

    def _is_article(self, node: Node) -> bool:
        return any(
            (p == RDF.type and o == ARTICLE) or p == IS_PART_OF for p, o in self.subjects[node]
        )

    @property
    def articles(self) -> list[Node]:
        """The pages of the entity's sitelinks."""
        return [node for node in self.abouts if self._is_article(node)]

    @property
    def datasets(self) -> list[Node]:
        """The entity's ``data:`` node (Wikibase's, not WDQS's munged form)."""
        return [node for node in self.abouts if not self._is_article(node)]


def _local(term: Node, separator: str = "#") -> str:
    return str(term).rpartition(separator)[2]


class NodeCache:
    """Value and reference nodes by IRI, the least recently used dropped past ``bound``."""

    def __init__(self, bound: int = NODE_CACHE) -> None:
        self.bound = bound
        self._nodes: OrderedDict[str, Pairs] = OrderedDict()
        self.dropped = 0

    def put(self, key: str, pairs: Pairs) -> None:
        """Add a node's triples (a node may be written in several places: they add up)."""
        known = self._nodes.get(key)
        if known is not None:
            pairs = known + [pair for pair in pairs if pair not in known]
        self._nodes[key] = pairs
        self._nodes.move_to_end(key)
        if len(self._nodes) > self.bound:
            self._nodes.popitem(last=False)
            self.dropped += 1

    def get(self, key: str) -> Pairs | None:
        found = self._nodes.get(key)
        if found is not None:
            self._nodes.move_to_end(key)
        return found


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


class EntityBuilder:
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
        self.pending: dict[str, _Pending] = {}
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

    def _pending(self, qid: str) -> _Pending:
        found = self.pending.get(qid)
        if found is None:
            if qid in self._written:
                raise NotGroupedError(qid)
            found = self.pending[qid] = _Pending()
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

    # -- building --------------------------------------------------------------------------

    def _node(self, term: Node, entity: _Pending) -> Pairs | None:
        if isinstance(term, URIRef):
            found = self.cache.get(str(term))
            if found is not None:
                return found
        return entity.subjects.get(term)

    def _datavalue(
        self, pid: str, term: Node, node: Node | None, entity: _Pending
    ) -> DataValue | None:
        """The datavalue of a simple value ``term`` and its value node ``node`` (if any)."""
        if node is not None:
            pairs = self._node(node, entity)
            if pairs is None:
                self.stats.counts["value_nodes_missing"] += 1
            else:
                details = {_local(p): o for p, o in pairs}
                kind = next((_local(o) for p, o in pairs if p == RDF.type), "")
                if kind not in NODE_READERS:  # the type may be written elsewhere, or not
                    kind = _node_kind(details)
                reader = NODE_READERS.get(kind)
                value = reader(details) if reader else None
                if value is not None:
                    self.datatypes.setdefault(pid, _NODE_DATATYPES[kind])
                    return value
                self.stats.counts["value_nodes_unreadable"] += 1
        value, inferred, fallback = simple_value(term)
        if fallback:
            self.stats.counts["values_without_node"] += 1
        if value is None:
            self.stats.counts["values_unreadable"] += 1
        elif inferred is not None and pid not in self.datatypes:
            self.stats.counts["datatypes_inferred"] += 1
        return value

    def _snak(
        self, pid: str, value: DataValue | None, snaktype: str, datatype: str | None
    ) -> dict[str, Any]:
        snak: dict[str, Any] = {"snaktype": snaktype, "property": pid}
        if value is not None:
            snak["datavalue"] = value
        if datatype is not None:
            snak["datatype"] = datatype
        return snak

    def _datatype(self, pid: str, term: Node | None) -> str | None:
        known = self.datatypes.get(pid)
        if known is not None or term is None or is_unknown(term):
            return known
        return simple_value(term)[1]

    def _snaks(
        self, pairs: Pairs, simple: str, valued: str, entity: _Pending, skip_novalue: str = ""
    ) -> dict[str, list[dict[str, Any]]]:
        """The snaks of one statement's qualifiers (``pq``/``pqv``, no value as ``a wdno:P``)
        or one reference's (``pr``/``prv``), by property, each property's in file order.
        ``skip_novalue``: the statement's own property, whose ``wdno:`` is its main snak's."""
        entries: list[tuple[str, str, Node]] = []
        with_nodes: set[str] = set()
        for p, o in pairs:
            kind = prop_kind(o) if p == RDF.type else prop_kind(p)
            if kind is None:
                continue
            if p == RDF.type:
                if kind[0] == "wdno" and simple == "pq" and kind[1] != skip_novalue:
                    entries.append(("wdno", kind[1], o))
            elif kind[0] in (simple, valued):
                entries.append((kind[0], kind[1], o))
                if kind[0] == valued:
                    with_nodes.add(kind[1])
        snaks: dict[str, list[dict[str, Any]]] = {}
        for what, pid, term in entries:
            out = snaks.setdefault(pid, [])
            if what == "wdno":
                out.append(self._snak(pid, None, "novalue", self._datatype(pid, None)))
            elif what == valued:
                out.append(self._value_snak(pid, None, term, entity))
            elif is_unknown(term):
                out.append(self._snak(pid, None, "somevalue", self._datatype(pid, None)))
            elif not (pid in with_nodes and simple_value(term)[2]):
                out.append(self._value_snak(pid, term, None, entity))
        return snaks

    def _value_snak(
        self, pid: str, term: Node | None, node: Node | None, entity: _Pending
    ) -> dict[str, Any]:
        if term is None and node is not None:
            value = self._datavalue(pid, Literal(""), node, entity)
        else:
            assert term is not None
            value = self._datavalue(pid, term, node, entity)
        return self._snak(pid, value, "value", self._datatype(pid, term))

    def _reference(self, term: Node, entity: _Pending) -> dict[str, Any]:
        hash_ = _local(term, "/")
        reference: dict[str, Any] = {"hash": hash_, "snaks": {}, "snaks-order": []}
        pairs = self._node(term, entity)
        if pairs is None:
            self.stats.counts["reference_nodes_missing"] += 1
            return reference
        snaks = self._snaks(pairs, "pr", "prv", entity)
        reference["snaks"] = snaks
        reference["snaks-order"] = list(snaks)
        return reference

    def _statement(self, pid: str, node: Node, entity: _Pending) -> dict[str, Any] | None:
        pairs = entity.subjects.get(node)
        ids = statement_id(node)
        if pairs is None:
            self.stats.counts["statement_nodes_missing"] += 1
            return None
        rank, main, main_node, main_novalue = "normal", [], [], False
        references: list[dict[str, Any]] = []
        for p, o in pairs:
            kind = prop_kind(p)
            if p == RDF.type:
                main_novalue = main_novalue or prop_kind(o) == ("wdno", pid)
            elif p == URIRef(WIKIBASE + "rank"):
                rank = RANKS.get(_local(o), "normal")
            elif p == PROV_DERIVED:
                references.append(self._reference(o, entity))
            elif kind == ("ps", pid):
                main.append(o)
            elif kind == ("psv", pid):
                main_node.append(o)
        if main and is_unknown(main[0]):
            mainsnak = self._snak(pid, None, "somevalue", self._datatype(pid, None))
        elif main:
            value = self._datavalue(pid, main[0], main_node[0] if main_node else None, entity)
            mainsnak = self._snak(pid, value, "value", self._datatype(pid, main[0]))
        elif main_novalue:
            mainsnak = self._snak(pid, None, "novalue", self._datatype(pid, None))
        else:
            self.stats.counts["statements_without_value"] += 1
            return None
        # with a main value, a wdno: of the statement's own property is a qualifier's
        qualifiers = self._snaks(pairs, "pq", "pqv", entity, "" if main else pid)
        statement: dict[str, Any] = {"mainsnak": mainsnak, "type": "statement"}
        if ids is not None:
            statement["id"] = ids[1]
        statement["rank"] = rank
        if qualifiers:
            statement["qualifiers"] = qualifiers
            statement["qualifiers-order"] = list(qualifiers)
        if references:
            statement["references"] = references
        return statement

    def _sitelink(self, page: Node, entity: _Pending) -> tuple[str, dict[str, Any]] | None:
        pairs = entity.subjects.get(page, [])
        title = next((str(o) for p, o in pairs if p == URIRef(SCHEMA + "name")), None)
        wiki = next((str(o) for p, o in pairs if p == URIRef(SCHEMA + "isPartOf")), None)
        site = site_id(wiki or str(page))
        if title is None or site is None:
            self.stats.counts["sitelinks_unreadable"] += 1
            return None
        badges = [b for p, o in pairs if p == URIRef(WIKIBASE + "badge") and (b := entity_id(o))]
        return site, {"site": site, "title": title, "badges": badges}

    def _build(self, qid: str, entity: _Pending) -> dict[str, Any] | None:
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
        doc: dict[str, Any] = {"id": qid, "type": kind or _guess_type(qid)}
        if doc["type"] == "property" and qid in self.datatypes:
            doc["datatype"] = self.datatypes[qid]
        terms = _terms(own, doc["type"])
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


_NODE_DATATYPES = {
    "TimeValue": "time",
    "QuantityValue": "quantity",
    "GlobecoordinateValue": "globe-coordinate",
}
_LABELS = (RDFS_LABEL,)
_DESCRIPTION = URIRef(SCHEMA + "description")
_ALIAS = URIRef(SKOS + "altLabel")
_LEMMA = URIRef(WIKIBASE + "lemma")


def _node_kind(details: Mapping[str, Node]) -> str:
    """A value node's class from its predicates (for nodes written without their type)."""
    if "timeValue" in details:
        return "TimeValue"
    if "quantityAmount" in details:
        return "QuantityValue"
    if "geoLatitude" in details:
        return "GlobecoordinateValue"
    return ""


def _entity_iri(entity: _Pending, qid: str) -> str:
    for subject in entity.subjects:
        if entity_id(subject) == qid:
            return str(subject)
    return ""


def _guess_type(qid: str) -> str:
    return {"Q": "item", "P": "property", "L": "lexeme", "M": "mediainfo"}[qid[0]]


def _terms(own: Pairs, kind: str) -> dict[str, Any]:
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


def _revision(doc: dict[str, Any], own: Pairs, entity: _Pending) -> None:
    """``lastrevid`` and ``modified`` from the dataset node (or, munged, the entity)."""
    pairs = [pair for node in entity.datasets for pair in entity.subjects.get(node, [])] + own
    for p, o in pairs:
        if p == URIRef(SCHEMA + "version") and "lastrevid" not in doc:
            with contextlib.suppress(ValueError):
                doc["lastrevid"] = int(str(o))
        elif p == URIRef(SCHEMA + "dateModified") and "modified" not in doc:
            doc["modified"] = str(o)


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
