"""Which subjects no longer exist on a day (``sql/export/entity_ends.sql``: a death, a
dissolution or demolition, an end of existence, or a birth more than 130 years before): the
export asks about them in the past tense ("Which country was Elvis Presley a citizen of?",
docs/relations.md#english), and ``pools`` asks no year that began after its subject ended.

How every entity ended, as each snapshot records it, is read once per export into a file of
its spill folder (:class:`~kgdiff.export.core.once_file.OnceFile`), which each part filters
for its ids, its snapshots and its day: each part of ``qa``, ``multi_hop`` and ``updates``,
and each year of each range of ``pools``, asked the store instead, a scan of every snapshot's
statements each time."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path

import polars as pl

from kgdiff.export.core.once_file import OnceFile
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.sqlfiles import load_sql
from kgdiff.temporal.writers import write_relation
from kgdiff.valuetext import is_entity

ENDS_SCHEMA = pl.Schema(
    {
        "qid": pl.String(),
        "snapshot": pl.String(),
        "ends_from": pl.Date(),
        "died_unknown": pl.Boolean(),
        "born_by": pl.Date(),
    }
)
"""What a snapshot records of how an entity ended (``sql/export/entity_ends.sql``)."""
OLDEST_ALIVE_YEARS = 130
"""A person born surely more than this many years before a day is no longer alive on it."""
GONE_SCHEMA = pl.Schema({"subject": pl.String(), "year": pl.Int64()})


def ended_by(day: date | pl.Expr) -> pl.Expr:
    """Whether an :data:`ENDS_SCHEMA` row says its entity no longer existed on ``day`` (a
    date, or an expression of the rows' dates)."""
    when = day if isinstance(day, pl.Expr) else pl.lit(day, pl.Date())
    # a month's end kept as DuckDB's date arithmetic keeps it: 29 February less 130 years is
    # 28 February
    born_before = when.dt.offset_by(f"-{OLDEST_ALIVE_YEARS}y")
    return (
        (pl.col("ends_from") <= when) | pl.col("died_unknown") | (pl.col("born_by") < born_before)
    ).fill_null(False)


class EntityEnds:
    """How the entities of a store ended, read into a file of ``parent`` (the system's
    temporary folder when None) the first time it is asked for, from any thread."""

    def __init__(self, kg: KnowledgeGraph, parent: Path | None = None) -> None:
        self._kg = kg
        self._days: dict[str, date] = {}
        self._file = OnceFile("entity-ends.parquet", self._write, parent)

    def _write(self, path: Path) -> None:
        with self._kg.connection() as connection:
            write_relation(connection, connection.sql(load_sql("export/entity_ends")), path)
            listed = connection.sql(load_sql("query/snapshots")).pl()
        self._days = dict(zip(listed["name"], listed["date"], strict=True))

    def ended(self, ids: Iterable[str], snapshot: str | None, day: date) -> frozenset[str]:
        """The entity ids among ``ids`` that no longer exist on ``day``, as the snapshots up
        to ``snapshot`` (every snapshot when None) record it."""
        rows = self._rows(ids).filter(ended_by(day))  # the file and the snapshots' dates read
        if snapshot is not None:
            if snapshot not in self._days:
                return frozenset()
            upto = [name for name, on in self._days.items() if on <= self._days[snapshot]]
            rows = rows.filter(pl.col("snapshot").is_in(upto))
        return frozenset(rows.select("qid").collect().get_column("qid").to_list())

    def gone_years(self, years: pl.DataFrame) -> pl.DataFrame:
        """The distinct (``subject``, ``year``) pairs of ``years`` whose subject no longer
        existed on the first day of the year, as any snapshot records it (:data:`GONE_SCHEMA`,
        sorted)."""
        pairs = years.select("subject", "year").unique()
        rows = self._rows(pairs.get_column("subject")).collect()
        begins = pl.date(pl.col("year"), 1, 1)
        found = pairs.join(rows, left_on="subject", right_on="qid").filter(ended_by(begins))
        return found.select("subject", "year").unique().sort("subject", "year").cast(GONE_SCHEMA)

    def _rows(self, ids: Iterable[str]) -> pl.LazyFrame:
        """The rows of the entity ids among ``ids``."""
        wanted = pl.Series([v for v in ids if v and is_entity(v)], dtype=pl.String())
        found = pl.scan_parquet(self._file.path()).filter(pl.col("qid").is_in(wanted.implode()))
        return found.cast(ENDS_SCHEMA)

    def close(self) -> None:
        """Remove the file (it is written again if asked for after)."""
        self._file.close()
