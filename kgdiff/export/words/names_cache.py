"""The labels and aliases an export's naming queries read, kept while it runs.

Every naming query (``sql/export/entity_names.sql``: one per config that names values not
named before, five or six in a full export) read the labels' files three times, each a scan of
every label and alias of every snapshot however few the ids: at 3 × 5 M statements ~3.7 CPU-s
a query before it named anything. The export now reads them once into an attached DuckDB
database of its language (:func:`names_database`: the labels and aliases in that
language, and the other names of the entities with aliases in it), which every cursor of the
graph's database sees (47 MB at 3 × 5 M statements, 474 MB at 3 × 50 M). An export keeps the
database in a file of a temporary folder beside its output (:func:`names_kept`), whose pages
DuckDB reads within its memory limit and lets go of beyond it; held in memory, it took the
limit's room at 3 × 50 M and would outgrow any limit at full scale (~15 GB). A naming outside
an export holds it in memory, compressed. The tables carry the store's fingerprint; a naming
query on a store that changed since builds them again. DuckDB shares one database among the
graphs of a store opened in one process, so an export keeps the tables while it runs and the
last one to end detaches them: a long-lived process (the service, a notebook) does not hold
them after.
"""

from __future__ import annotations

import hashlib
import math
import re
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from kgdiff.export.core.leftovers import spill_prefix
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.lookup import store_tag
from kgdiff.sqlfiles import render
from kgdiff.store.store_root import root_text

NAMESAKES_PART_LABELS = 2_000_000
"""The labels of a snapshot grouped at once to find its namesakes (the export's DuckDB holds
their values and ids; a snapshot of 200 M statements has ~14 M English labels)."""
_lock = threading.Lock()  # one build at a time; a second asker then finds it made
# (store, database): the exports running on the store (its root, as its connections name it:
# the same while an export publishes a build, which replaces the catalog and its database)
_kept: Counter[tuple[str, str]] = Counter()
# the folder the exports running on a store (those counted in _kept) keep its files in
_folders: dict[str, tempfile.TemporaryDirectory[str]] = {}


def names_database(lang: str) -> str:
    """The attached database of the names in ``lang`` (a plain identifier)."""
    return "kgdiff_export_names_" + re.sub(r"\W", "_", lang)


def _built_for(connection: duckdb.DuckDBPyConnection, database: str) -> str | None:
    """The store fingerprint the tables were built for (None: not built)."""
    try:
        row = connection.execute(f'SELECT tag FROM "{database}".cache_key').fetchone()
    except duckdb.CatalogException:
        return None
    return str(row[0]) if row else None


def ensure_names_cache(connection: duckdb.DuckDBPyConnection, lang: str) -> str:
    """Make the tables ``sql/export/entity_names.sql`` reads, for ``lang`` and the store as it
    is now, unless they are already there; the database that holds them."""
    database, tag = names_database(lang), store_tag(connection)
    with _lock:
        connection.execute(_attach(connection, database, tag))
        if _built_for(connection, database) == tag:
            return database
        connection.execute(f'DROP TABLE IF EXISTS "{database}".cache_key')
        for name in ("export/names_cache_in_lang", "export/names_cache_other_names"):
            connection.execute(render(name, names=database), {"lang": lang})
        fill_namesakes(connection, database)
        # compressed as a database file's are (288 MB → 47 MB at 3 × 5 M statements, 0.7 s)
        connection.execute(f'CHECKPOINT "{database}"')
        key = render("export/names_cache_key", names=database)
        connection.execute(key, {"tag": tag})
    return database


def _store_of(connection: duckdb.DuckDBPyConnection) -> str:
    """The root of the store whose catalog ``connection`` reads, as :func:`root_text` gives it
    (sql/catalog/set_store_root.sql)."""
    row = connection.execute("SELECT getvariable('kgdiff_store')").fetchone()
    return str(row[0]) if row else ""


def fill_namesakes(
    connection: duckdb.DuckDBPyConnection, database: str, part_labels: int = NAMESAKES_PART_LABELS
) -> None:
    """The namesakes of ``database`` (sql/export/names_cache_namesakes.sql), a snapshot and
    about ``part_labels`` of its labels at a time."""
    connection.execute(render("export/names_cache_namesakes_table", names=database))
    fill = render("export/names_cache_namesakes", names=database)
    counts = connection.execute(render("export/names_cache_label_counts", names=database))
    for snapshot, labels in counts.fetchall():
        parts = max(1, math.ceil(labels / part_labels))
        for part in range(parts):
            connection.execute(fill, {"snapshot": snapshot, "parts": parts, "part": part})


def _attach(connection: duckdb.DuckDBPyConnection, database: str, tag: str) -> str:
    """The statement attaching ``database`` (if it is not): a file of the folder of the
    exports running on the store (one per store: two stores' graphs are two DuckDB instances,
    which cannot open one file), in memory while none runs."""
    folder = _folders.get(_store_of(connection))
    if folder is None:
        return f"ATTACH IF NOT EXISTS ':memory:' AS \"{database}\" (READ_WRITE, COMPRESS)"
    store = hashlib.sha256(tag.encode("utf-8")).hexdigest()[:16]
    path = str(Path(folder.name) / f"{database}-{store}.duckdb").replace("'", "''")
    return f"ATTACH IF NOT EXISTS '{path}' AS \"{database}\" (READ_WRITE)"


@contextmanager
def names_kept(kg: KnowledgeGraph, lang: str, folder: Path | None = None) -> Iterator[None]:
    """Keep the names' tables of ``lang`` while an export runs, in a temporary folder of
    ``folder`` (the system's temporary folder when None) made by the first export running on
    the store; detach them after the last export running on the store in ``lang`` ends, and
    remove the folder after the last export running on the store."""
    store = root_text(kg.layout)
    key = (store, names_database(lang))
    with _lock:
        _kept[key] += 1
        if store not in _folders:
            # named by this process: a killed export's is removed by the next (core.leftovers)
            _folders[store] = tempfile.TemporaryDirectory(prefix=spill_prefix(), dir=folder)
    try:
        yield
    finally:
        with _lock:
            _let_go(kg, key)


def _let_go(kg: KnowledgeGraph, key: tuple[str, str]) -> None:
    """One export fewer on ``key``: its names detached after the last, the store's folder
    removed after its last export (whatever the detaching raised)."""
    store, database = key
    _kept[key] -= 1
    try:
        if _kept[key] <= 0:
            del _kept[key]
            _detach(kg, database)
    finally:
        if not any(other == store for other, _ in _kept):
            _folders.pop(store).cleanup()


def _detach(kg: KnowledgeGraph, database: str) -> None:
    """Detach ``database``; where the catalog cannot be opened any more (removed while the
    export failed) there is nothing to free, and the export's own error is the one to show."""
    try:
        with kg.connection() as connection:
            connection.execute(f'DETACH DATABASE IF EXISTS "{database}"')
    except (duckdb.Error, OSError):
        pass
