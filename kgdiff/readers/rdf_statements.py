"""Statements of a Wikibase RDF entity → canonical JSON: a statement node's rank, main snak,
qualifiers and references, each snak's datavalue read from its value node (``psv:``/``pqv:``,
found in the entity's own triples or the cache of shared nodes) or, without one, from the
simple value; unknown values (blank nodes, skolem IRIs) and no-values (``wdno:``)."""

from __future__ import annotations

from typing import Any

from rdflib import RDF, Literal, URIRef
from rdflib.term import Node

from kgdiff.readers.rdf_nodes import NodeCache, PendingEntity, RdfStats, local_name
from kgdiff.readers.rdf_terms import NODE_DATATYPES, node_kind
from kgdiff.readers.rdf_values import NODE_READERS, DataValue, is_unknown, simple_value
from kgdiff.readers.rdf_vocabulary import PROV_DERIVED, RANKS, Pairs, prop_kind, statement_id
from kgdiff.wikibase_rdf import WIKIBASE


class StatementReading:
    """The statement half of :class:`~kgdiff.readers.rdf_entities.EntityBuilder`: it holds
    the properties' ``datatypes``, the ``cache`` of shared value and reference nodes and the
    ``stats`` the reading counts in."""

    datatypes: dict[str, str]
    cache: NodeCache
    stats: RdfStats

    # --------------------------------------------------------------------------

    def _node(self, term: Node, entity: PendingEntity) -> Pairs | None:
        if isinstance(term, URIRef):
            found = self.cache.get(str(term))
            if found is not None:
                return found
        return entity.subjects.get(term)

    def _datavalue(
        self, pid: str, term: Node, node: Node | None, entity: PendingEntity
    ) -> DataValue | None:
        """The datavalue of a simple value ``term`` and its value node ``node`` (if any)."""
        if node is not None:
            pairs = self._node(node, entity)
            if pairs is None:
                self.stats.counts["value_nodes_missing"] += 1
            else:
                details = {local_name(p): o for p, o in pairs}
                kind = next((local_name(o) for p, o in pairs if p == RDF.type), "")
                if kind not in NODE_READERS:  # the type may be written elsewhere, or not
                    kind = node_kind(details)
                reader = NODE_READERS.get(kind)
                value = reader(details) if reader else None
                if value is not None:
                    self.datatypes.setdefault(pid, NODE_DATATYPES[kind])
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
        self, pairs: Pairs, simple: str, valued: str, entity: PendingEntity, skip_novalue: str = ""
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
        self, pid: str, term: Node | None, node: Node | None, entity: PendingEntity
    ) -> dict[str, Any]:
        if term is None and node is not None:
            value = self._datavalue(pid, Literal(""), node, entity)
        else:
            assert term is not None
            value = self._datavalue(pid, term, node, entity)
        return self._snak(pid, value, "value", self._datatype(pid, term))

    def _reference(self, term: Node, entity: PendingEntity) -> dict[str, Any]:
        hash_ = local_name(term, "/")
        reference: dict[str, Any] = {"hash": hash_, "snaks": {}, "snaks-order": []}
        pairs = self._node(term, entity)
        if pairs is None:
            self.stats.counts["reference_nodes_missing"] += 1
            return reference
        snaks = self._snaks(pairs, "pr", "prv", entity)
        reference["snaks"] = snaks
        reference["snaks-order"] = list(snaks)
        return reference

    def _statement(self, pid: str, node: Node, entity: PendingEntity) -> dict[str, Any] | None:
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
                rank = RANKS.get(local_name(o), "normal")
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
