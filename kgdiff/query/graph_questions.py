"""The questions of :class:`~kgdiff.query.graph.KnowledgeGraph` that answer with a polars
DataFrame: each asks ``self.answers`` (:class:`~kgdiff.query.answers.Answers`) and hands
back its rows; the graph itself holds the connections and copies they read."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import date

import duckdb
import polars as pl

from kgdiff.query.answers import Answers
from kgdiff.query.frames import relation_frame
from kgdiff.temporal.dates import GapPolicy


class GraphQuestions:
    """Snapshots, classifications, facts, timelines, pools, chains, updates, evidence,
    supporting revisions, entities and SQL, as DataFrames."""

    answers: Answers

    def connection(self) -> AbstractContextManager[duckdb.DuckDBPyConnection]:
        """A read-only connection to the catalog for one question."""
        raise NotImplementedError

    def snapshots(self) -> pl.DataFrame:
        """One row per Wikidata snapshot, oldest first (name, date, coverage, counts…)."""
        return self.answers.snapshots().frame

    def classify(
        self,
        cutoff: date | str,
        init: date | str | None = None,
        current: date | str | None = None,
        mode: str = "record",
        level: str | Sequence[str] | None = None,
        pid: str | Sequence[str] | None = None,
        subject: str | Sequence[str] | None = None,
        lang: str = "en",
        gap: GapPolicy | None = None,
        substantive: bool = False,
    ) -> pl.DataFrame:
        """Every (subject, property) group's level for a cutoff, sorted, with labels.

        ``init`` defaults to the first snapshot's date, ``current`` to the latest one's; the
        classification is built once and reused (``STORE/builds/classify``). With
        ``substantive``, an evolved group whose change is only reformatted or refined
        (``change_nature``) is reported stable."""
        answer = self.answers.classify(
            cutoff, init, current, mode, level, pid, subject, lang=lang, gap=gap,
            substantive=substantive,
        )  # fmt: skip
        return answer.frame

    def search(self, text: str, lang: str = "en", limit: int = 10) -> pl.DataFrame:
        """Entities whose id is ``text`` or whose label or alias in ``lang`` starts with it
        (any case), best first: ``qid``, ``match``, ``label``, ``description``."""
        return self.answers.search(text, lang, limit).frame

    def staleness(self, mode: str = "record") -> pl.DataFrame:
        """The staleness curve: each level's groups, the total and the covered groups for
        the first day of every month between the first and the latest snapshot (computed
        once per store state, then read from ``STORE/builds/staleness``)."""
        return self.answers.staleness(mode).frame

    def facts_at(
        self,
        day: date | str,
        mode: str = "record",
        subject: str | Sequence[str] | None = None,
        gap: GapPolicy | None = None,
    ) -> pl.DataFrame:
        """Every group's object set and best-ranked values at one date."""
        return self.answers.facts_at(day, mode, subject, gap).frame

    def timeline(
        self, qid: str, pid: str | Sequence[str] | None = None, lang: str = "en"
    ) -> pl.DataFrame:
        """Every statement of an entity across the snapshots, in time order, with labels."""
        return self.answers.timeline(qid, pid, lang).frame

    def pools(
        self,
        qid: str | Sequence[str] | None = None,
        pid: str | None = None,
        from_year: int | None = None,
        to_year: int | None = None,
        granularity: str = "year",
        lang: str = "en",
        gap: GapPolicy | None = None,
    ) -> pl.DataFrame:
        """Chronological object pools per (subject, property) and year (or month)."""
        answer = self.answers.pools(qid, pid, from_year, to_year, granularity, lang, gap)
        return answer.frame

    def chains(
        self,
        date: date | str,
        subject: str | Sequence[str] | None = None,
        relations: dict[str, list[str]] | None = None,
        max_hops: int = 3,
        pid: str | Sequence[str] | None = None,
        lang: str = "en",
        gap: GapPolicy | None = None,
    ) -> pl.DataFrame:
        """Multi-hop chains valid at a date (record time), with labels."""
        answer = self.answers.chains(date, subject, relations, max_hops, pid, lang, gap)
        return answer.frame

    def updates(
        self,
        cutoff: date | str,
        current: date | str | None = None,
        pid: str | Sequence[str] | None = None,
        lang: str = "en",
        gap: GapPolicy | None = None,
    ) -> pl.DataFrame:
        """AntiLeakBench's knowledge updates after a cutoff (valid time), with labels."""
        return self.answers.updates(cutoff, current, pid, lang, gap).frame

    def evidence(
        self, subject: str, pid: str | None = None, snapshot: str | None = None
    ) -> pl.DataFrame:
        """The Wikipedia evidence of a subject's facts: sentences, pages, revisions."""
        return self.answers.evidence(subject, pid, snapshot).frame

    def supporting_revisions(
        self,
        cutoff: date | str,
        current: date | str | None = None,
        pid: str | Sequence[str] | None = None,
        wiki: str = "enwiki",
        wikipedia: str | None = None,
        lang: str = "en",
        gap: GapPolicy | None = None,
    ) -> pl.DataFrame:
        """The first revision that states each knowledge update, from the store's
        histories (``wikipedia``: which history snapshot; default the latest)."""
        answer = self.answers.revisions(cutoff, current, pid, wiki, wikipedia, lang, gap)
        return answer.frame

    def entity(
        self,
        qid: str,
        day: date | str | None = None,
        lang: str = "en",
        gap: GapPolicy | None = None,
    ) -> pl.DataFrame:
        """An entity as of a date (default: the latest snapshot): label, description,
        aliases, types, sitelinks count, the snapshot read."""
        return self.answers.entity(qid, day, lang, gap).frame

    def sql(self, query: str, params: dict[str, object] | None = None) -> pl.DataFrame:
        """Any read-only query over the catalog's views and macros (a trusted caller's: the
        REST service runs users' SQL through :mod:`kgdiff.query.safe_sql` instead)."""
        with self.connection() as connection:
            return relation_frame(connection.sql(query, params=params))
