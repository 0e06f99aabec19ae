"""DuckDB's memory limit held for a stretch of an export (:func:`bounded_duckdb`): the whole
export at its own limit (:func:`kgdiff.export.benchmark.duckdb_memory`), and a step that needs
more than that at its own (the chains of ``multi_hop``); and what DuckDB keeps of freed memory
handed back between the export's stretches of DuckDB work (:func:`release_duckdb`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

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


RELEASE_FLOOR = "64MB"
"""DuckDB's memory limit for the moment :func:`release_duckdb` lowers it to."""


def release_duckdb(kg: KnowledgeGraph) -> None:
    """Have the catalog's DuckDB hand back what it keeps of memory its queries freed: its
    limit lowered to :data:`RELEASE_FLOOR` and set back at once, which evicts the pages it
    caches (read again from their files when asked) and returns what its allocator holds.
    After the ``qa`` naming and its distractor tiers at 3 × 25 M statements the process went
    from 1.05 GB (steady 20 s on) to 0.78 GB so. A limit that cannot be met (pages in use) is
    left as it was. The caller holds DuckDB (no other query runs meanwhile: one would run
    out of the floor)."""
    with kg.connection() as connection:
        row = connection.execute("SELECT current_setting('memory_limit')").fetchone()
        # the graph's own value where it has one: DuckDB writes a limit rounded
        limit = kg.settings.get("memory_limit", str(row[0]) if row else None)
        if limit is None:
            return
        try:
            connection.execute(f"SET memory_limit = '{RELEASE_FLOOR}'")
        except duckdb.Error:
            pass  # more than the floor is pinned: what could be evicted was
        finally:
            connection.execute(f"SET memory_limit = '{limit}'")
