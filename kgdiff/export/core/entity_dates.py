"""The dates of the store's entities that the export's rules read (an inception, a birth, a
death, a dissolution: ``sql/export/entity_dates.sql``), read once per export into a file of
its spill folder and filtered there for each part's ids.

Each part of the export asked the store for the dates of its own ids, a scan of every
snapshot's statements each time: at 3 × 100 M statements 4.5–4.8 s a query, 24 % of the
export's CPU (people's lifespans 13 %, existence dates 11 %). All of them at once take one
such scan (7.6 s there: 1.2 M entities, an 8 MB file), and a part's ids are then found in the
file in a tenth of a second."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

import polars as pl

from kgdiff.export.core.leftovers import SpillFolder
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.sqlfiles import load_sql
from kgdiff.temporal.writers import write_relation
from kgdiff.valuetext import is_entity

ENTITY_DATES_SCHEMA = pl.Schema(
    {
        "qid": pl.String(),
        "began": pl.Date(),
        "ended": pl.Date(),
        "born": pl.Int64(),
        "died": pl.Int64(),
    }
)
"""An entity's earliest inception and latest end (``began``, ``ended``: days), its year of
birth (the earliest) and of death (the latest) (``born``, ``died``); null where it has none."""


class EntityDates:
    """The entities' dates, written into a file of ``parent`` (the system's temporary folder
    when None) by ``write`` (which writes ``sql/export/entity_dates.sql``'s rows to the path
    it is given) the first time they are asked for, from any thread."""

    def __init__(self, write: Callable[[Path], None], parent: Path | None = None) -> None:
        self._write, self._parent = write, parent
        self._folder: SpillFolder | None = None
        self._path: Path | None = None
        self._lock = threading.Lock()

    @classmethod
    def of_store(cls, kg: KnowledgeGraph, parent: Path | None = None) -> EntityDates:
        """The dates of the entities of ``kg``'s store."""
        return cls(partial(write_entity_dates, kg), parent)

    def of(self, ids: Iterable[str]) -> pl.DataFrame:
        """The dates (:data:`ENTITY_DATES_SCHEMA`, sorted by id) of the entity ids among
        ``ids`` that have some."""
        wanted = pl.Series("qid", [v for v in ids if v and is_entity(v)], dtype=pl.String())
        if wanted.is_empty():
            return pl.DataFrame(schema=ENTITY_DATES_SCHEMA)
        found = pl.scan_parquet(self._file()).filter(pl.col("qid").is_in(wanted.implode()))
        return found.collect().cast(ENTITY_DATES_SCHEMA)

    def _file(self) -> Path:
        with self._lock:
            if self._path is None:
                folder = SpillFolder(self._parent)
                path = folder.path / "entity-dates.parquet"
                try:
                    self._write(path)
                except BaseException:
                    folder.close()  # nothing half-written is kept; the next asker writes again
                    raise
                self._folder, self._path = folder, path
            return self._path

    def close(self) -> None:
        """Remove the file (it is written again if asked for after)."""
        with self._lock:
            if self._folder is not None:
                self._folder.close()
            self._folder, self._path = None, None


def write_entity_dates(kg: KnowledgeGraph, path: Path) -> None:
    """Write the dates of every entity of ``kg``'s store (``sql/export/entity_dates.sql``)
    into the Parquet file ``path``."""
    with kg.connection() as connection:
        write_relation(connection, connection.sql(load_sql("export/entity_dates")), path)
