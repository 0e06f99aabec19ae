"""What the configs of one export read of their entities' lives, each read once per export
into a file and filtered for each part (:class:`~kgdiff.export.core.once_file.OnceFile`): their
dates (inceptions, births, deaths, dissolutions: :mod:`kgdiff.export.core.entity_dates`), and
how they ended as each snapshot records it (:mod:`kgdiff.export.rules.entity_ends`).

Writing a file takes the store: the first part to ask writes it while holding the export's
DuckDB (:meth:`~kgdiff.export.inputs.read_ahead.ReadAhead.exclusive`), then the file's own
lock, whichever thread asks — a read ahead asks while it holds DuckDB."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path

import polars as pl

from kgdiff.export.core.entity_dates import EntityDates
from kgdiff.export.distractors.lifespans import lifespans_of
from kgdiff.export.inputs.read_ahead import ReadAhead
from kgdiff.export.rules.entity_ends import EntityEnds
from kgdiff.export.rules.existence import existence_of
from kgdiff.query.graph import KnowledgeGraph


class EntityStates:
    """The dates and ends of ``kg``'s entities, kept in files of ``spill`` (the system's
    temporary folder when None) while the export runs."""

    def __init__(self, kg: KnowledgeGraph, ahead: ReadAhead, spill: Path | None) -> None:
        self._ahead = ahead
        self._dates = EntityDates.of_store(kg, spill)
        self._ends = EntityEnds(kg, spill)

    def existence(self, ids: Iterable[str]) -> pl.DataFrame:
        """The existence dates (:data:`~kgdiff.export.rules.existence.EXISTENCE_SCHEMA`) of
        those of ``ids`` that have some, in any snapshot (the rule on answers that did not
        exist yet)."""
        return existence_of(self._dates_of(ids))

    def lifespans(self, ids: list[str]) -> pl.DataFrame:
        """The people's lifespans among ``ids`` (in any snapshot)."""
        return lifespans_of(self._dates_of(ids))

    def ended(self, ids: Iterable[str], snapshot: str | None, day: date) -> frozenset[str]:
        """The entity ids among ``ids`` that no longer exist on ``day``, as the snapshots up to
        ``snapshot`` (every snapshot when None) record it (:class:`EntityEnds`)."""
        with self._ahead.exclusive():
            return self._ends.ended(ids, snapshot, day)

    def gone_years(self, years: pl.DataFrame) -> pl.DataFrame:
        """The (``subject``, ``year``) pairs of ``years`` whose subject no longer existed when
        the year began (:meth:`EntityEnds.gone_years`)."""
        with self._ahead.exclusive():
            return self._ends.gone_years(years)

    def _dates_of(self, ids: Iterable[str]) -> pl.DataFrame:
        with self._ahead.exclusive():
            return self._dates.of(ids)

    def close(self) -> None:
        """Remove the files (written again if asked for after)."""
        self._dates.close()
        self._ends.close()
