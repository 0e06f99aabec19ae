"""Classified facts a page at a time, for the REST service's ``/v1/facts``.

A question names a classification (its dates, mode, gap policy) and a label language. The
first time it is asked, the build is made (or reused from the store) and paged
(:mod:`kgdiff.query.pages`); after that, in this process, a page is a few rows of page files
decoded once and kept (:mod:`kgdiff.query.page_reads`). A
build estimated too large to make within a request, or one not made within the wait, is
left to a shared background job (:mod:`kgdiff.query.jobs`) and the question answered with
the job's state instead. The builds made for requests are a cache of at most
``BuildLimits.max_builds`` (:mod:`kgdiff.temporal.served_builds`): a question whose build
was removed since it was asked makes it again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from urllib.parse import urlencode

import polars as pl

from kgdiff.errors import KgdiffError, UsageError
from kgdiff.query.build_limits import BuildLimits
from kgdiff.query.cursors import decode_cursor, encode_cursor, fingerprint
from kgdiff.query.frames import frame_of
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.jobs import Jobs, Pending
from kgdiff.query.page_reads import PageFileCache, read_page, stream_pages
from kgdiff.query.pages import INDEX, PageChoice, PagedBuild, check_lang, has_pages, paged_build
from kgdiff.query.store_state import StoreWatch
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.builds import planned_build_dir
from kgdiff.temporal.classify import check_mode
from kgdiff.temporal.dates import DEFAULT_MAX_GAP, DateRead, GapPolicy
from kgdiff.temporal.parts import snapshots_read
from kgdiff.temporal.served_builds import touch
from kgdiff.temporal.window import Window, check_window, with_defaults

Days = tuple[date, date, date]
Runner = Callable[[Callable[[KnowledgeGraph], None]], None]
"""Runs a work on a graph of the store (the service's: in a process of its own)."""
KNOWN_KEPT = 10_000
"""Sets of filter ids remembered as known (forgotten all at once past this many)."""
READY_KEPT = 256
"""Questions whose paged build a process keeps ready (the least recently asked go first)."""


class BuildGoneError(KgdiffError):
    """The build a page was being read from was removed meanwhile (an eviction)."""


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

    def __init__(
        self,
        graph: KnowledgeGraph,
        jobs: Jobs,
        limits: BuildLimits,
        run: Runner | None = None,
    ) -> None:
        self.graph, self.jobs, self.limits = graph, jobs, limits
        self.run: Runner = run or (lambda work: work(graph))
        self.watch = StoreWatch(graph)
        self._ready: OrderedDict[str, ReadyFacts] = OrderedDict()
        self._known: set[tuple[str, tuple[str, ...]]] = set()
        self._lock = threading.Lock()
        self._files = PageFileCache()

    def prepare(self, question: FactsQuestion) -> ReadyFacts | Pending:
        """The facts of ``question`` ready to page, or the job making them (its result:
        the question's first page), to be waited for if it is small; usage errors before
        any work. The build is made by ``run`` (the service's: in a process of its own),
        then read here."""
        window = self._window(question)
        days = window.triple()
        key = f"{days}|{question.mode}|{check_lang(question.lang)}|{question.gap}"
        key += f"|{self.watch.state().tag}"
        ready = self._kept(key)
        if ready is not None:
            return ready
        reads = self._check(window, question)
        folder = planned_build_dir(self.graph.layout, days, question.mode)
        if has_pages(folder, question.lang):  # made before (by another process): reuse it
            return self._make(key, days, question, reads)
        self.jobs.forget_finished(key)  # a job that made it before: its build was evicted
        job = self.jobs.submit(
            key, facts_link(days, question), lambda: self._build(key, days, question, reads)
        )
        small = self._statements(days, question.mode) <= self.limits.sync_statements
        return Pending(job, self.limits.wait_seconds if small else 0.0)

    def _kept(self, key: str) -> ReadyFacts | None:
        """The question ``key``'s facts made before, their use recorded; None when never
        made, or when their build was removed since (the cache of builds made for
        requests): they are made again."""
        with self._lock:
            ready = self._ready.get(key)
            if ready is not None:
                self._ready.move_to_end(key)
        if ready is None:
            return None
        if not (ready.pages.folder / INDEX).is_file():
            self._forget(key)
            return None
        touch(ready.pages.folder.parent)
        return ready

    def _forget(self, key: str) -> None:
        with self._lock:
            self._ready.pop(key, None)

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
        try:
            table = read_page(self._files, ready.pages, choice, after, limit)
        except FileNotFoundError:
            raise self._gone(ready) from None
        frame = frame_of(table)
        if frame.height <= limit:
            return FactsPage(frame, None)
        frame = frame.head(limit)
        last = (frame.item(limit - 1, "subject"), frame.item(limit - 1, "pid"))
        return FactsPage(frame, encode_cursor(last, scope))

    def stream(self, ready: ReadyFacts, choice: PageChoice) -> Iterator[pl.DataFrame]:
        """Every chosen group, in key order, a batch at a time."""
        try:
            for table in stream_pages(ready.pages, choice):
                yield frame_of(table)
        except FileNotFoundError:
            raise self._gone(ready) from None

    def _gone(self, ready: ReadyFacts) -> BuildGoneError:
        """The error for a page of ``ready`` whose build was removed while it was read
        (the question is forgotten: asking again makes the build again)."""
        with self._lock:
            for key in [k for k, kept in self._ready.items() if kept is ready]:
                del self._ready[key]
        return BuildGoneError(
            "the classification this page reads was removed from the service's cache of"
            " builds while it was read; ask again to have it made again"
        )

    def _window(self, question: FactsQuestion) -> Window:
        """The question's dates, init and current by default the first and the latest
        snapshot's (as every face fills them in: :mod:`kgdiff.temporal.window`)."""
        state = self.watch.state()

        def span() -> tuple[date, date]:
            if state.first is None or state.latest is None:
                raise UsageError(f"no Wikidata snapshot in {self.graph.layout.root}; ingest one")
            return state.first, state.latest

        given = {"init": question.init, "cutoff": question.cutoff, "current": question.current}
        return with_defaults(given, span)

    def _check(self, window: Window, question: FactsQuestion) -> list[DateRead]:
        """The dates' reads; a usage error for dates beyond the data or out of order."""
        check_mode(question.mode)
        with self.graph.connection() as connection:
            return check_window(connection, window, question.mode, question.gap)

    def _statements(self, days: Days, mode: str) -> int:
        """Statements the classification reads (the size of its work)."""
        read = snapshots_read(list_snapshots(self.graph.layout), list(days), mode)
        return sum(m.counts.get("statements", 0) for m in read)

    def _build(
        self, key: str, days: Days, question: FactsQuestion, reads: list[DateRead]
    ) -> ReadyFacts:
        """Make the build and its pages by ``run``, then read them here."""
        work = partial(
            make_pages,
            days=days,
            mode=question.mode,
            gap=question.gap,
            lang=question.lang,
            max_builds=self.limits.max_builds,
        )
        self.run(work)
        return self._make(key, days, question, reads)

    def _make(
        self, key: str, days: Days, question: FactsQuestion, reads: list[DateRead]
    ) -> ReadyFacts:
        init, cutoff, current = days
        build = self.limits.made_for_requests(
            lambda: self.graph.answers.classification(
                cutoff, init, current, question.mode, question.gap
            )
        )
        pages = paged_build(self.graph.layout, build, question.lang)
        ready = ReadyFacts(days, question.mode, question.lang, build.reads or reads, pages)
        with self._lock:
            self._ready[key] = ready
            while len(self._ready) > READY_KEPT:
                self._ready.popitem(last=False)
        return ready


def make_pages(
    graph: KnowledgeGraph, *, days: Days, mode: str, gap: GapPolicy, lang: str, max_builds: int
) -> None:
    """Make (or reuse) the classification of ``days`` in ``mode`` and its pages in ``lang``,
    as a build made for requests (a work of :class:`FactPages`, run in any process)."""
    init, cutoff, current = days
    build = BuildLimits(max_builds=max_builds).made_for_requests(
        lambda: graph.answers.classification(cutoff, init, current, mode, gap)
    )
    paged_build(graph.layout, build, lang)


def facts_link(days: Days, question: FactsQuestion) -> str:
    """The first page of the facts of ``question`` (its dates ``days``), as a URL path and
    query made from the question alone: a job's result, which any client may read."""
    init, cutoff, current = days
    query: dict[str, str] = {
        "cutoff": cutoff.isoformat(),
        "init": init.isoformat(),
        "current": current.isoformat(),
        "mode": question.mode,
        "lang": question.lang,
    }
    if question.gap.allow:
        query["allow_gap"] = "true"
    if question.gap.max_gap != DEFAULT_MAX_GAP:
        query["max_gap"] = str(question.gap.max_gap)
    return "/v1/facts?" + urlencode(query)
