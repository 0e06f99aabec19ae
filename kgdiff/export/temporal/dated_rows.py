"""The rows the ``temporal`` config's items are built from, read a range of groups at a time
and kept on disk per kind (:class:`~kgdiff.export.dataset.sorted_rows.SortedRows`), so that
neither the dated statements (2.4 M at 3 × 50 M statements) nor the rows made of them are
held whole.

Each range's statements and periods come from ``sql/export/temporal_statements.sql`` and
``sql/export/temporal_periods.sql`` for the range's groups alone: every column of a statement
depends on its own group, its subject and its object only, so the ranges' rows together are
those of one read of every group, row for row."""

from __future__ import annotations

from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import duckdb
import polars as pl

from kgdiff.export.core.file_frames import frame_through_file
from kgdiff.export.core.leftovers import SpillFolder
from kgdiff.export.core.subject_range import subject_range
from kgdiff.export.dataset.sorted_rows import ID, SortedRows
from kgdiff.export.inputs.groups import Groups
from kgdiff.export.temporal import rows
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.sqlfiles import load_sql

TEMPORAL_KINDS = ("timestamp", "interval", "implicit", "unanswerable")
"""The splits, one per kind of item."""
RANGE_GROUPS = 400_000
"""Catalogued groups read at a time (about a third of them dated at 3 × 50 M statements:
~0.4 M statements and their rows per range). DuckDB's read and the rows made of it are what a
range holds: at 3 × 50 M statements the read alone peaked at 3.3 GB with ranges of 1 M groups,
2.6 GB with 250,000 (and took 1.5 times as long): the ranges are as wide as ``pools``'."""


@dataclass
class DatedRows:
    """The rows of each kind (with their ids, in id order, on disk) and what the config
    names and counts of the statements read."""

    kinds: dict[str, SortedRows]
    tallies: dict[str, Counter[str]] = field(default_factory=dict)
    """Per kind, why groups have no row (counted as the rows are made)."""
    snapshot: str | None = None
    """The snapshot read (None: no statement)."""
    statements: int = 0
    periods: int = 0
    dated_groups: int = 0
    pairs: list[pl.DataFrame] = field(default_factory=list)
    """The (``pid``, ``value``) of the statements, distinct per range."""
    subjects: list[pl.Series] = field(default_factory=list)
    """The statements' subjects, distinct per range."""

    def value_pairs(self) -> pl.DataFrame:
        """Every (``pid``, ``value``) of the statements, distinct."""
        empty = pl.DataFrame(schema={"pid": pl.String(), "value": pl.String()})
        return pl.concat([empty, *self.pairs], how="vertical_relaxed").unique()

    def all_subjects(self) -> pl.Series:
        """Every subject of the statements, distinct (ranges share none)."""
        return pl.concat([pl.Series("subject", [], pl.String()), *self.subjects])


def read_range(
    connection: duckdb.DuckDBPyConnection, groups: pl.DataFrame, current: date, folder: Path
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The dated statements of ``groups`` (``subject``, ``pid``: a range of subjects) in the
    snapshot read for ``current``, and their periods (handed over through files of ``folder``:
    :mod:`~kgdiff.export.core.file_frames`); the positions held again registered before
    (:func:`register_terms`)."""
    connection.register("temporal_groups", groups.to_arrow())
    statements = load_sql("export/temporal_statements")
    params = {"current": current, **subject_range(groups)}
    facts = frame_through_file(connection, statements, params, folder)
    connection.register("temporal_facts", facts.to_arrow())
    periods = frame_through_file(
        connection,
        load_sql("export/temporal_periods"),
        {"last_year": last_whole_year(facts)},
        folder,
    )
    return facts, periods


def register_terms(connection: duckdb.DuckDBPyConnection, current: date) -> None:
    """Register on ``connection`` every position held in more than one statement as of
    ``current`` (``sql/export/temporal_terms.sql``), which each range's statements read."""
    terms = connection.sql(load_sql("export/temporal_terms"), params={"current": current})
    connection.register("temporal_terms", terms.to_arrow_table())


def last_whole_year(facts: pl.DataFrame) -> int:
    """The last year the snapshot read knows whole (0 when nothing was read)."""
    if facts.is_empty():
        return 0
    day: date = facts.get_column("snapshot_date")[0]
    return day.year if (day.month, day.day) == (12, 31) else day.year - 1


def kind_sources(
    facts: pl.DataFrame, periods: pl.DataFrame, tallies: dict[str, Counter[str]]
) -> dict[str, tuple[pl.DataFrame, pl.Expr]]:
    """Per kind, the rows its items are built from and the expression of their ids."""
    snapshot_date = None if facts.is_empty() else facts.get_column("snapshot_date")[0]
    summary = rows.group_summary(facts)
    undoubted = periods.select("subject", "pid").unique().height
    tallies["implicit"]["no_year_without_doubt"] += summary.height - undoubted
    implicit, unknown = rows.known_value_rows(rows.implicit_rows(periods, summary))
    # No year after the data is asked: it is unanswerable from the store only, and a
    # model trained later knows it (docs/benchmark-export.md#unanswerable-years).
    unanswerable = pl.concat([rows.before_subject_rows(summary, tallies["unanswerable"]), unknown])
    return {
        "timestamp": (rows.timestamp_rows(facts, snapshot_date), rows.TIMESTAMP_KEY),
        "interval": (rows.interval_rows(facts, snapshot_date), rows.INTERVAL_KEY),
        "implicit": (implicit, rows.YEAR_KEY["implicit"]),
        "unanswerable": (unanswerable, rows.YEAR_KEY["unanswerable"]),
    }


def read_dated_rows(kg: KnowledgeGraph, groups: Groups, current: date) -> DatedRows:
    """Every kind's rows of the groups' dated statements in the snapshot read for
    ``current``, a range of :data:`RANGE_GROUPS` groups at a time."""
    spill = groups.naming.spill
    dated = DatedRows(
        {kind: SortedRows(f"temporal-{kind}", spill) for kind in TEMPORAL_KINDS},
        {kind: Counter() for kind in TEMPORAL_KINDS},
    )
    with closing(SpillFolder(spill)) as folder, kg.connection() as connection:
        register_terms(connection, current)
        for part in groups.file.ranges(RANGE_GROUPS):
            facts, periods = read_range(connection, part, current, folder.path)
            _keep(dated, facts, periods)
    return dated


def _keep(dated: DatedRows, facts: pl.DataFrame, periods: pl.DataFrame) -> None:
    """Add a range's rows and what is counted and named of its statements to ``dated``."""
    sources = kind_sources(facts, periods, dated.tallies)
    if facts.is_empty():
        return
    dated.snapshot = str(facts.get_column("snapshot")[0])
    dated.statements += facts.height
    dated.periods += periods.height
    dated.dated_groups += facts.select("subject", "pid").unique().height
    dated.pairs.append(facts.select("pid", "value").unique())
    dated.subjects.append(facts.get_column("subject").unique())
    for kind, (frame, key) in sources.items():
        dated.kinds[kind].add(frame.with_columns(key.alias(ID)).sort(ID))
