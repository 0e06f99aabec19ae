"""kgdiff: a temporal knowledge graph from Wikidata and Wikipedia dumps.

For a language model's knowledge cutoff, kgdiff tells which facts are stable,
which evolved and which are uncharted, with the evidence behind each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # kept out of the import: every parse worker imports this package
    from pathlib import Path

    from kgdiff.query.graph import KnowledgeGraph

__version__ = "0.1.0"

CATALOG_PARTS = ("kgdiff.temporal.catalog_part", "kgdiff.evidence.catalog_part")
"""The modules that add views and macros to a store's catalog, in the order they run (each
has a ``CATALOG_PART``; the store makes its own views and macros first)."""


def open(store: str | Path | None = None, lookup: bool = True) -> KnowledgeGraph:
    """The knowledge graph of a store (default: ``$KGDIFF_STORE``, then ``./kgdiff-data``),
    whose methods answer with polars DataFrames (:mod:`kgdiff.query.graph`); ``lookup=False``
    reads the catalog's views even where the store's lookup copy could answer."""
    from kgdiff.query.graph import KnowledgeGraph

    return KnowledgeGraph.open(store, lookup)
