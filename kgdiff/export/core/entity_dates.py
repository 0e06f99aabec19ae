"""The dates of the store's entities that the export's rules read (an inception, a birth, a
death, a dissolution: ``sql/export/entity_dates.sql``), read once per export into a file of
its spill folder and filtered there for each part's ids.

Each part of the export asked the store for the dates of its own ids, a scan of every
snapshot's statements each time: at 3 × 100 M statements 4.5–4.8 s a query, 24 % of the
export's CPU (people's lifespans 13 %, existence dates 11 %). All of them at once take one
such scan (7.6 s there: 1.2 M entities, an 8 MB file), and a part's ids are then found in the
file in a tenth of a second."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

import polars as pl

from kgdiff.export.core.once_file import OnceFile
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
        self._file = OnceFile("entity-dates.parquet", write, parent)

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
        found = pl.scan_parquet(self._file.path()).filter(pl.col("qid").is_in(wanted.implode()))
        return found.collect().cast(ENTITY_DATES_SCHEMA)

    def close(self) -> None:
        """Remove the file (it is written again if asked for after)."""
        self._file.close()


def write_entity_dates(kg: KnowledgeGraph, path: Path) -> None:
    """Write the dates of every entity of ``kg``'s store (``sql/export/entity_dates.sql``)
    into the Parquet file ``path``."""
    with kg.connection() as connection:
        write_relation(connection, connection.sql(load_sql("export/entity_dates")), path)
