"""kgdiff: a temporal knowledge graph from Wikidata and Wikipedia dumps.

For a language model's knowledge cutoff, kgdiff tells which facts are stable,
which evolved and which are uncharted, with the evidence behind each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgdiff.version import __version__ as __version__

if TYPE_CHECKING:  # kept out of the import: every parse worker imports this package
    from pathlib import Path

    from kgdiff.query.graph import KnowledgeGraph


def open(store: str | Path | None = None, lookup: bool = True) -> KnowledgeGraph:
    """The knowledge graph of a store (default: ``$KGDIFF_STORE``, then ``./kgdiff-data``),
    whose methods answer with polars DataFrames (:mod:`kgdiff.query.graph`); ``lookup=False``
    reads the catalog's views even where the store's lookup copy could answer."""
    from kgdiff.query.graph import KnowledgeGraph

    return KnowledgeGraph.open(store, lookup)
