"""Classified facts a page at a time, for the REST service's ``/v1/facts``.

A question names a classification (its dates, mode, gap policy) and a label language. The
first time it is asked, the build is made (or reused from the store) and paged
(:mod:`kgdiff.query.pages`); after that, in this process, a page is a few rows of page files
decoded once and kept (:mod:`kgdiff.query.page_reads`). A
build estimated too large to make within a request, or one not made within the wait, is
left to a shared background job (:mod:`kgdiff.query.jobs`) and the question answered with
the job's state instead.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date

import polars as pl

from kgdiff.errors import UsageError
from kgdiff.query.cursors import decode_cursor, encode_cursor, fingerprint
from kgdiff.query.frames import frame_of
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.jobs import Jobs, JobState
from kgdiff.query.page_reads import PageFileCache, read_page, stream_pages
from kgdiff.query.pages import PageChoice, PagedBuild, check_lang, has_pages, paged_build
from kgdiff.query.store_state import StoreWatch
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.builds import planned_build_dir
from kgdiff.temporal.classify import check_dates, check_mode, role_days
from kgdiff.temporal.dates import DateRead, GapPolicy, check_answerable
from kgdiff.temporal.parts import snapshots_read

Days = tuple[date, date, date]
KNOWN_KEPT = 10_000
"""Sets of filter ids remembered as known (forgotten all at once past this many)."""


@dataclass(frozen=True)
class BuildLimits:
    """When a classification is made within a request: at most ``sync_statements``
    statements read (the snapshots' counts) and done within ``wait_seconds``."""

    sync_statements: int = 5_000_000
    wait_seconds: float = 20.0


@dataclass(frozen=True)
class FactsQuestion:
    """Which classification, and the language of its labels (None: the default dates,
    the first and the latest snapshot's)."""

    cutoff: date
    init: date | None = None
    current: date | None = None
    mode: str = "record"
    lang: str = "en"
    gap: GapPolicy = field(default_factory=GapPolicy)


@dataclass(frozen=True)
class ReadyFacts:
    """A classification ready to page: its dates, mode, language, reads and pages."""

    days: Days
    mode: str
    lang: str
    reads: list[DateRead]
    pages: PagedBuild

    def scope(self, choice: PageChoice) -> str:
        """The fingerprint of a question on these facts (its cursors carry it)."""
        return fingerprint(self.days, self.mode, self.lang, choice)


@dataclass(frozen=True)
class FactsPage:
    """A page of groups, and the cursor of the next page (None after the last)."""

    frame: pl.DataFrame
    next_cursor: str | None


class FactPages:
    """Pages of classified facts, their builds made once and shared (see the module)."""

    def __init__(self, graph: KnowledgeGraph, jobs: Jobs, limits: BuildLimits) -> None:
        self.graph, self.jobs, self.limits = graph, jobs, limits
        self.watch = StoreWatch(graph)
        self._ready: dict[str, ReadyFacts] = {}
        self._known: set[tuple[str, tuple[str, ...]]] = set()
        self._lock = threading.Lock()
        self._files = PageFileCache()

    def prepare(self, question: FactsQuestion, link: str) -> ReadyFacts | JobState:
        """The facts of ``question`` ready to page, or the state of the job making them
        (``link``: where its result is read); usage errors before any work."""
        days = self._days(question)
        key = f"{days}|{question.mode}|{check_lang(question.lang)}|{question.gap}"
        key += f"|{self.watch.state().tag}"
        with self._lock:
            ready = self._ready.get(key)
        if ready is not None:
            return ready
        reads = self._check(days, question)
        folder = planned_build_dir(self.graph.layout, days, question.mode)
        if has_pages(folder, question.lang):  # made before (by another process): reuse it
            return self._make(key, days, question, reads)
        job = self.jobs.submit(key, link, lambda: self._make(key, days, question, reads))
        small = self._statements(days, question.mode) <= self.limits.sync_statements
        if small and job.finished.wait(self.limits.wait_seconds):
            if job.failure is not None:
                raise job.failure
            with self._lock:
                return self._ready.get(key, job.state)
        return job.state

    def check_ids(self, ids: list[str]) -> None:
        """A usage error for an id no snapshot knows (ids found known are remembered for
        the store as it is: filters repeat on every page)."""
        key = (self.watch.state().tag, tuple(ids))
        if ids and key not in self._known:
            self.graph.answers.check_ids(ids)
            with self._lock:
                if len(self._known) >= KNOWN_KEPT:
                    self._known.clear()
                self._known.add(key)

    def page(
        self, ready: ReadyFacts, choice: PageChoice, cursor: str | None, limit: int
    ) -> FactsPage:
        """At most ``limit`` chosen groups after ``cursor`` (None: from the first)."""
        scope = ready.scope(choice)
        after = decode_cursor(cursor, scope) if cursor else None
        frame = frame_of(read_page(self._files, ready.pages, choice, after, limit))
        if frame.height <= limit:
            return FactsPage(frame, None)
        frame = frame.head(limit)
        last = (frame.item(limit - 1, "subject"), frame.item(limit - 1, "pid"))
        return FactsPage(frame, encode_cursor(last, scope))

    def stream(self, ready: ReadyFacts, choice: PageChoice) -> Iterator[pl.DataFrame]:
        """Every chosen group, in key order, a batch at a time."""
        for table in stream_pages(ready.pages, choice):
            yield frame_of(table)

    def _days(self, question: FactsQuestion) -> Days:
        state = self.watch.state()
        init = question.init or state.first
        current = question.current or state.latest
        if init is None or current is None:
            raise UsageError(f"no Wikidata snapshot in {self.graph.layout.root}; ingest one")
        return init, question.cutoff, current

    def _check(self, days: Days, question: FactsQuestion) -> list[DateRead]:
        """The dates' reads; a usage error for dates out of order or beyond the data."""
        check_dates(*days)
        check_mode(question.mode)
        with self.graph.connection() as connection:
            return check_answerable(
                connection, role_days(*days), question.mode, question.gap, as_of=days[2]
            )

    def _statements(self, days: Days, mode: str) -> int:
        """Statements the classification reads (the size of its work)."""
        read = snapshots_read(list_snapshots(self.graph.layout), list(days), mode)
        return sum(m.counts.get("statements", 0) for m in read)

    def _make(
        self, key: str, days: Days, question: FactsQuestion, reads: list[DateRead]
    ) -> ReadyFacts:
        init, cutoff, current = days
        build = self.graph.answers.classification(
            cutoff, init, current, question.mode, question.gap
        )
        pages = paged_build(self.graph.layout, build, question.lang)
        ready = ReadyFacts(days, question.mode, question.lang, build.reads or reads, pages)
        with self._lock:
            self._ready[key] = ready
        return ready
