"""Turtle and TriG through rdflib: the streamed lines parsed into a graph (or a dataset of
named graphs) in memory and serialised with Wikidata's and kgdiff's prefixes. For subsets
(``--entities``): rdflib holds about 1 KB per triple."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from pathlib import Path

import rdflib

from kgdiff.export.rdf import ntriples as nt
from kgdiff.wikibase_rdf import PROV

PREFIXES = {**nt.PREFIXES, "kgdiff": nt.KGDIFF, "prov": PROV}


def _bind(graph: rdflib.Graph) -> None:
    # rdflib logs a traceback per xsd:dateTime Python cannot hold (BCE years); the lexical
    # form, which is what is written, is kept
    logging.getLogger("rdflib.term").setLevel(logging.ERROR)
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, rdflib.Namespace(namespace), replace=True)


def write_ttl(lines: Iterator[str], path: Path) -> int:
    """N-Triples ``lines`` as Turtle at ``path``; the number of triples."""
    graph = rdflib.Graph()
    _bind(graph)
    graph.parse(data="".join(lines), format="nt")
    graph.serialize(destination=path, format="turtle", encoding="utf-8")
    return len(graph)


def write_trig(lines: Iterator[str], path: Path) -> int:
    """N-Quads ``lines`` as TriG at ``path``; the number of quads."""
    dataset = rdflib.Dataset()
    _bind(dataset)
    with warnings.catch_warnings():  # rdflib's own N-Quads and TriG use its deprecated API
        warnings.simplefilter("ignore", DeprecationWarning)
        dataset.parse(data="".join(lines), format="nquads")
        dataset.serialize(destination=path, format="trig", encoding="utf-8")
    return sum(1 for _ in dataset.quads((None, None, None, None)))
