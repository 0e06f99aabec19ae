"""The labels and aliases an export's naming queries read, kept in memory while it runs.

Every naming query (``sql/export/entity_names.sql``: one per config that names values not
named before, six in a full export) read the labels' files three times, each a scan of every
label and alias of every snapshot however few the ids: at 3 × 5 M statements ~3.7 CPU-s a
query before it named anything. The export now reads them once into an attached in-memory
DuckDB database (:data:`DATABASE`: the labels and aliases in the export's language, and the
other names of the entities with aliases in it), which every cursor of the graph's database
sees and DuckDB holds compressed within its memory limit (47 MB at 3 × 5 M statements), and
detaches it when it ends (:func:`release_names_cache`). The tables carry the store's
fingerprint and the language they were built for; a naming query on a store that changed
since, or in another language, builds them again.
"""

from __future__ import annotations

import threading

import duckdb

from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.lookup import store_tag
from kgdiff.sqlfiles import load_sql

DATABASE = "kgdiff_export_names"
"""The attached in-memory database of the names' tables (named in their SQL files)."""

_building = threading.Lock()  # one build at a time; a second asker then finds it made


def _built_for(connection: duckdb.DuckDBPyConnection) -> tuple[str, str] | None:
    """The store fingerprint and language the tables were built for (None: not built)."""
    try:
        row = connection.execute(f"SELECT tag, lang FROM {DATABASE}.cache_key").fetchone()
    except duckdb.CatalogException:
        return None
    return (str(row[0]), str(row[1])) if row else None


def ensure_names_cache(connection: duckdb.DuckDBPyConnection, lang: str) -> None:
    """Make the tables ``sql/export/entity_names.sql`` reads, for ``lang`` and the store as it
    is now, unless they are already there."""
    wanted = (store_tag(connection), lang)
    with _building:
        connection.execute(f"ATTACH IF NOT EXISTS ':memory:' AS {DATABASE} (READ_WRITE, COMPRESS)")
        if _built_for(connection) == wanted:
            return
        connection.execute(f"DROP TABLE IF EXISTS {DATABASE}.cache_key")
        connection.execute(load_sql("export/names_cache_in_lang"), {"lang": lang})
        connection.execute(load_sql("export/names_cache_other_names"), {"lang": lang})
        # compressed as a database file's are (288 MB → 47 MB at 3 × 5 M statements, 0.7 s)
        connection.execute(f"CHECKPOINT {DATABASE}")
        connection.execute(load_sql("export/names_cache_key"), {"tag": wanted[0], "lang": lang})


def release_names_cache(kg: KnowledgeGraph) -> None:
    """Free the names' tables (an export's end): a long-lived process (the service, a
    notebook) should not keep them."""
    with _building, kg.connection() as connection:
        connection.execute(f"DETACH DATABASE IF EXISTS {DATABASE}")
