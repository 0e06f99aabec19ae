"""The triples of a snak (a main snak, a qualifier, or a truthy claim) in Wikidata's mapping:
a value as ``ps:``/``pq:``/``wdt:`` its simple value (and ``psv:``/``pqv:`` its value node),
an unknown value as a skolem IRI, no value as the node being of class ``wdno:P``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kgdiff.export.rdf import ntriples as nt
from kgdiff.export.rdf.values import simple_value, skolem, value_node, value_node_iri


def _value_lines(
    node: str,
    kind: str,
    value_kind: str | None,
    pid: str,
    row: Mapping[str, Any],
    datatype: str | None,
) -> Iterator[str]:
    value_type, value = row["value_type"], row["value"]
    if value is None:
        return
    simple = simple_value(datatype, value_type, value)
    if simple is not None:
        yield nt.line(node, nt.prop(kind, pid), simple)
    details = value_node(value_type, value) if value_kind else None
    if value_kind is None or details is None or value_type is None:
        return
    iri = value_node_iri(value_type, value)
    yield nt.line(node, nt.prop(value_kind, pid), iri)
    for predicate, obj in details:
        yield nt.line(iri, predicate, obj)


def snak_lines(
    node: str,
    kind: str,
    pid: str,
    row: Mapping[str, Any],
    datatype: str | None,
    snak_key: str,
) -> Iterator[str]:
    """The triples of one snak about ``node``: ``kind`` is "ps", "pq" or "wdt" (the first two
    also write a value node); ``snak_key`` names the snak for its skolem IRI."""
    snaktype = row["snaktype"]
    if snaktype == "novalue":
        yield nt.line(node, nt.RDF_TYPE, nt.prop("wdno", pid))
    elif snaktype == "somevalue":
        yield nt.line(node, nt.prop(kind, pid), skolem(snak_key))
    else:
        value_kind = {"ps": "psv", "pq": "pqv"}.get(kind)
        yield from _value_lines(node, kind, value_kind, pid, row, datatype)
