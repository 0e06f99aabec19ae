"""Answers with what they rest on: the rows (a polars DataFrame), the snapshot each date
read, and why a question found nothing. The command line and the REST service print or
send these; :class:`~kgdiff.query.graph.KnowledgeGraph` hands Python users the rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path

import duckdb
import polars as pl

from kgdiff.errors import UsageError
from kgdiff.ids import DEFAULT_LANG, normalise_id
from kgdiff.query.answer import Answer, Day, Ids, as_day, id_list, level_list
from kgdiff.query.classified import GroupChoice, classified_rows
from kgdiff.query.entity import entity_as_of
from kgdiff.query.evidence_answers import EvidenceAnswers
from kgdiff.query.frames import frame_of, relation_frame
from kgdiff.query.graph_access import GraphAccess
from kgdiff.query.ids import check_known, why_empty
from kgdiff.query.labels import labels_for
from kgdiff.query.overview_answers import OverviewAnswers
from kgdiff.query.timeline_labels import label_ids, remember_value_labels, with_labels
from kgdiff.query.window_answers import (
    chains_of,
    pool_years,
    pools_of,
    updates_of,
    write_chains_of,
    write_pools_of,
)
from kgdiff.sqlfiles import load_sql, run_arrow
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.builds import Build, classification
from kgdiff.temporal.chains import (
    DEFAULT_HOPS,
    ChainQuery,
    Relations,
    chain_ranges,
    load_relations,
)
from kgdiff.temporal.classify import check_mode
from kgdiff.temporal.dates import DateRead, GapPolicy, check_answerable
from kgdiff.temporal.facts import check_day, facts_at, part_facts_at, subject_parts
from kgdiff.temporal.parts import CLASSIFY_MEMORY, Part, PartDone, plan_parts
from kgdiff.temporal.pools import PoolRequest, pool_ranges
from kgdiff.temporal.timeline import timeline
from kgdiff.temporal.updates import UpdatesQuery
from kgdiff.temporal.window import Window, check_window, with_defaults


class Answers(EvidenceAnswers, OverviewAnswers):
    """The questions, each answered with an :class:`Answer` (see the graph's methods)."""

    def __init__(self, graph: GraphAccess) -> None:
        self.graph = graph

    def snapshots(self) -> Answer:
        """The Wikidata snapshots, oldest first."""
        with self.graph.lookup() as connection:
            return Answer(frame_of(run_arrow(connection, "query/snapshots", {})))

    def span(self) -> tuple[date, date]:
        """The first and the latest snapshot's dates (the default init and current)."""
        memo = self.graph.memos.current()
        if memo.span is not None:
            return memo.span
        with self.graph.lookup() as connection:
            row = connection.execute(load_sql("query/snapshot_span")).fetchone()
        if row is None or row[0] is None:
            raise UsageError(f"no Wikidata snapshot in {self.graph.layout.root}; ingest one")
        memo.span = (row[0], row[1])
        return memo.span

    def check_ids(self, ids: Sequence[str]) -> None:
        """A usage error for an id no snapshot knows."""
        with self.graph.lookup() as connection:
            check_known(connection, ids, self.graph.memos.current())

    def classification(
        self,
        cutoff: Day,
        init: Day | None = None,
        current: Day | None = None,
        mode: str = "record",
        gap: GapPolicy | None = None,
        on_part: PartDone | None = None,
    ) -> Build:
        """The classification build for these dates (built once, then reused; init and
        current by default the first and the latest snapshot's dates); ``on_part`` hears of
        each part done while it is built."""
        check_mode(mode)
        window, _ = self.window({"init": init, "cutoff": cutoff, "current": current}, mode, gap)
        layout = self.graph.layout
        return classification(layout, *window.triple(), mode, on_part=on_part, gap=gap)

    def window(
        self, given: Mapping[str, Day | None], mode: str = "record", gap: GapPolicy | None = None
    ) -> tuple[Window, list[DateRead]]:
        """A question's dates (role → date, None for a default: init the first snapshot's
        date, current the latest's) and their reads; one message for a date beyond the data
        or dates out of order (:mod:`kgdiff.temporal.window`), whoever asks."""
        days = {role: None if day is None else as_day(day, role) for role, day in given.items()}
        window = with_defaults(days, self.span)
        with self.graph.lookup() as connection:
            return window, check_window(connection, window, mode, gap or GapPolicy())

    def classify(
        self,
        cutoff: Day,
        init: Day | None = None,
        current: Day | None = None,
        mode: str = "record",
        level: Ids = None,
        pid: Ids = None,
        subject: Ids = None,
        lang: str = "en",
        gap: GapPolicy | None = None,
        substantive: bool = False,
    ) -> Answer:
        """The chosen groups of a classification, sorted, with labels (``substantive``: an
        evolved group whose change is reformatted or refined is reported stable)."""
        pids, subjects = id_list(pid, "pid"), id_list(subject, "subject")
        choice = GroupChoice(pids, level_list(level), subjects, substantive)
        self.check_ids([*choice.pids, *choice.subjects])
        build = self.classification(cutoff, init, current, mode, gap)
        with classified_rows(self.graph.layout, build, choice, lang) as (_, rows):
            frame = relation_frame(rows)
        return Answer(frame, build.reads)

    def facts_at(
        self, day: Day, mode: str = "record", subject: Ids = None, gap: GapPolicy | None = None
    ) -> Answer:
        """Every group's object set at one date (only the subjects asked for, if any)."""
        subjects = id_list(subject, "subject")
        when, gap = as_day(day, "day"), gap or GapPolicy()
        if not subjects:
            with self.graph.connection() as connection:
                reads = check_day(connection, when, mode, gap)
                return Answer(relation_frame(facts_at(connection, when, mode, gap)), reads)
        memo = self.graph.memos.current()
        with self.graph.lookup() as connection:
            check_known(connection, subjects, memo)
            key = ("day", when, mode, gap)
            reads = memo.reads_of(key, lambda: check_day(connection, when, mode, gap))
            copy = self.graph.facts_copy(when, mode)
            if copy is not None:
                return Answer(self.graph.facts_rows(copy, subjects), reads)
            parts = subject_parts(connection, subjects)
            frames = [
                frame_of(part_facts_at(connection, when, part, mode, gap, reads)) for part in parts
            ]
        frame = pl.concat(frames).filter(pl.col("subject").is_in(subjects))
        return Answer(frame.sort("subject", "pid"), reads)

    def timeline(self, qid: str, pid: Ids = None, lang: str = "en") -> Answer:
        """An entity's statements in time order, with labels; a note when it has none."""
        subject, pids = normalise_id(qid, "entity"), id_list(pid, "pid")
        memo = self.graph.memos.current()
        with self.graph.lookup() as connection:
            check_known(connection, [subject, *pids], memo)
        with self.graph.lookup_source(subject) as (connection, copied):
            rows = timeline(connection, subject, pids, copied is not None)
            values = list(label_ids(rows.column("value").to_pylist()))
            # the copy keeps the values' labels in the default language beside the subject's
            # rows: read with them (unless remembered), not from every range the values are in
            if copied is not None and lang == DEFAULT_LANG:
                remember_value_labels(connection, subject, values, memo)
            ids = [subject, *rows.column("pid").to_pylist(), *values]
            labels = labels_for(connection, ids, None, lang, memo, copied)
            single = pids[0] if len(pids) == 1 else None
            empty = [] if rows.num_rows else [why_empty(connection, subject, single, None)]
        notes = [f"no statements: {reason}" for reason in empty]
        frame = frame_of(with_labels(subject, rows, labels))
        note = labels.missing_note()
        return Answer(frame, [], [*notes, *([note] if note else [])])

    def pools(
        self,
        qid: Ids = None,
        pid: str | None = None,
        from_year: int | None = None,
        to_year: int | None = None,
        granularity: str = "year",
        lang: str = "en",
        gap: GapPolicy | None = None,
    ) -> Answer:
        """Chronological object pools (to the latest snapshot's year unless ``to_year``);
        the notes say where they stop and why some subjects have none."""
        with self.graph.connection() as connection:
            asked = (qid, pid, from_year, to_year, granularity, lang, gap)
            request = self._pool_request(connection, *asked)
            frame, notes = pools_of(connection, request, defaulted=to_year is None)
        return Answer(frame, [], notes)

    def write_pools(
        self,
        out: Path,
        qid: Ids = None,
        pid: str | None = None,
        from_year: int | None = None,
        to_year: int | None = None,
        granularity: str = "year",
        lang: str = "en",
        gap: GapPolicy | None = None,
    ) -> tuple[int, list[str]]:
        """:meth:`pools` written to ``out`` (.csv, .jsonl or .parquet, with ChroKnowBench's
        ``objects_<period>`` columns) a batch at a time, never held whole; the groups
        written and the notes."""
        with self.graph.connection() as connection:
            asked = (qid, pid, from_year, to_year, granularity, lang, gap)
            request = self._pool_request(connection, *asked)
            return write_pools_of(connection, request, to_year is None, out)

    def _pool_request(
        self,
        connection: duckdb.DuckDBPyConnection,
        qid: Ids,
        pid: str | None,
        from_year: int | None,
        to_year: int | None,
        granularity: str,
        lang: str,
        gap: GapPolicy | None,
    ) -> PoolRequest:
        """The request of :meth:`pools`: ids known, years resolved, every subject in ranges
        on a large store; checked."""
        subjects, pids = id_list(qid, "subject"), id_list(pid, "pid")
        check_known(connection, [*subjects, *pids], self.graph.memos.current())
        first, last = pool_years(connection, from_year, to_year)
        ranges = () if subjects else pool_ranges(connection, self.graph.layout)
        prop = pids[0] if pids else None
        gaps = gap or GapPolicy()
        request = PoolRequest(tuple(subjects), prop, first, last, granularity, lang, gaps, ranges)
        request.check()
        return request

    def chains(
        self,
        day: Day,
        subject: Ids = None,
        relations: Relations | None = None,
        max_hops: int = DEFAULT_HOPS,
        pid: Ids = None,
        lang: str = "en",
        gap: GapPolicy | None = None,
    ) -> Answer:
        """Multi-hop chains valid at ``day`` (record time); notes say why none were found."""
        query = _chain_query(day, subject, relations, max_hops, pid, lang, gap)
        with self.graph.connection() as connection:
            check_known(connection, [*query.subjects, *query.pids], self.graph.memos.current())
            ranges = chain_ranges(connection, self.graph.layout)
            frame, read, notes = chains_of(connection, query, ranges)
        return Answer(frame, [read], notes)

    def write_chains(
        self,
        out: Path,
        day: Day,
        subject: Ids = None,
        relations: Relations | None = None,
        max_hops: int = DEFAULT_HOPS,
        pid: Ids = None,
        lang: str = "en",
        gap: GapPolicy | None = None,
        limit: int | None = None,
    ) -> tuple[Answer, int]:
        """Write the chains :meth:`chains` finds (the first ``limit``) to ``out`` (.csv,
        .jsonl or .parquet) in batches, whatever their number; return the first few as an
        answer, and how many were written."""
        query = _chain_query(day, subject, relations, max_hops, pid, lang, gap)
        with self.graph.connection() as connection:
            check_known(connection, [*query.subjects, *query.pids], self.graph.memos.current())
            ranges = chain_ranges(connection, self.graph.layout)
            shown, written, read, notes = write_chains_of(connection, query, out, limit, ranges)
        return Answer(shown, [read], notes), written

    def updates(
        self,
        cutoff: Day,
        current: Day | None = None,
        pid: Ids = None,
        lang: str = "en",
        gap: GapPolicy | None = None,
    ) -> Answer:
        """AntiLeakBench's knowledge updates (``current`` by default the latest snapshot)."""
        pids = id_list(pid, "pid")
        window, _ = self.window({"cutoff": cutoff, "current": current}, "valid", gap)
        dates = window.day("cutoff"), window.day("current")
        query = UpdatesQuery(*dates, pids, lang, gap or GapPolicy())
        layout = self.graph.layout
        with self.graph.connection() as connection:
            check_known(connection, pids, self.graph.memos.current())
            # the graph's DuckDB budget (an export's own), which the build keeps to
            row = connection.execute(load_sql("query/memory_limit")).fetchone()
        build = self._updates_build(query, str(row[0]) if row else CLASSIFY_MEMORY)
        with self.graph.connection() as connection:
            parts: list[Part] = []
            if build is None:  # classified part by part, as large stores are
                days = query.days()
                parts = plan_parts(connection, layout, list_snapshots(layout), days, "valid")
            frame, reads, notes = updates_of(connection, query, parts, build)
        return Answer(frame, reads, notes)

    def _updates_build(self, query: UpdatesQuery, memory: str) -> Build | None:
        """The valid-time classification the updates rest on, built once and reused as
        ``kgdiff classify``'s builds are (the next question, export or request with the same
        dates reads it: ~1 s against ~11 at 3 × 5 M statements); None when the store cannot
        keep a build (it is read-only): the updates then classify part by part. DuckDB is
        held to ``memory`` while it classifies."""
        eve, cutoff, current = query.days()
        if eve >= cutoff:  # a cutoff of 1 January of year 1: refused by the classification
            return None
        days = (eve, cutoff, current)
        try:
            return classification(
                self.graph.layout, *days, "valid", gap=query.gap, catalog=False, memory=memory
            )
        except OSError:
            return None

    def entity(
        self, qid: str, day: Day | None = None, lang: str = "en", gap: GapPolicy | None = None
    ) -> Answer:
        """An entity as of ``day`` (record time; default: the latest snapshot)."""
        subject = normalise_id(qid, "entity")
        when = as_day(day, "date") if day is not None else self.span()[1]
        gap, memo = gap or GapPolicy(), self.graph.memos.current()
        with self.graph.lookup() as connection:
            check_known(connection, [subject], memo)
            key = ("entity", when, gap)
            (read,) = memo.reads_of(
                key, lambda: check_answerable(connection, {"date": when}, "record", gap)
            )
        with self.graph.lookup_source(subject) as (connection, copied):
            frame = entity_as_of(connection, subject, read, lang, memo, copied)
            notes = [] if frame.height else [why_empty(connection, subject, None, read.snapshot)]
        return Answer(frame, [read], notes)


def _chain_query(
    day: Day,
    subject: Ids,
    relations: Relations | None,
    max_hops: int,
    pid: Ids,
    lang: str,
    gap: GapPolicy | None,
) -> ChainQuery:
    """The chain search the arguments of :meth:`Answers.chains` ask for."""
    return ChainQuery(
        as_day(day, "date"),
        max_hops,
        relations if relations is not None else load_relations(),
        id_list(subject, "subject"),
        id_list(pid, "pid"),
        lang,
        gap or GapPolicy(),
    )
