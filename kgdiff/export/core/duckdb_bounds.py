"""DuckDB's memory limit held for a stretch of an export (:func:`bounded_duckdb`): the whole
export at its own limit (:func:`kgdiff.export.benchmark.duckdb_memory`), and a step that needs
more than that at its own (the chains of ``multi_hop``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from kgdiff.query.graph import KnowledgeGraph


@contextmanager
def bounded_duckdb(kg: KnowledgeGraph, limit: str) -> Iterator[None]:
    """The catalog's DuckDB held to ``limit`` of memory, with its allocator's background
    threads on, its own settings back afterwards. Without those threads DuckDB's allocator
    kept what a large query had freed: after naming the 340,000 answers of 3 × 5 M statements
    the process held 786 MB, with them 358 MB five seconds later (peak 1,006 MB, 475). The
    graph's settings take them too: a build published meanwhile (the export's first
    classification for its dates) replaces the catalog, and the graph opens it again with
    its settings, which held DuckDB to 3 GB instead."""
    wanted = {"memory_limit": limit, "allocator_background_threads": "true"}
    kept = dict(kg.settings)
    kg.settings.update(wanted)
    with kg.connection() as connection:
        before = {
            name: connection.execute("SELECT current_setting(?)", [name]).fetchone()
            for name in wanted
        }
        for name, value in wanted.items():
            connection.execute(f"SET {name} = '{value}'")
    try:
        yield
    finally:
        kg.settings.clear()
        kg.settings.update(kept)
        with kg.connection() as connection:
            for name, row in before.items():
                # the graph's own value where it has one: DuckDB writes a limit rounded
                restored = kept.get(name, None if row is None else str(row[0]))
                if restored is not None:
                    connection.execute(f"SET {name} = '{restored}'")
