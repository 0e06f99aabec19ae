"""Staleness curves for the REST service: read when made, else made by a background job
(:mod:`kgdiff.query.jobs`, in the service's work process) like a classification, which a
request waits for within the service's wait on a small store."""

from __future__ import annotations

from functools import partial
from urllib.parse import urlencode

from kgdiff.query.answer import Answer
from kgdiff.query.build_limits import BuildLimits
from kgdiff.query.fact_pages import Runner
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.jobs import Jobs, Pending
from kgdiff.query.store_state import StoreWatch
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.classify import check_mode
from kgdiff.temporal.staleness import curve_path


class StalenessCurves:
    """The curve of each mode, made once per store state and shared by the requests."""

    def __init__(
        self,
        graph: KnowledgeGraph,
        jobs: Jobs,
        limits: BuildLimits,
        watch: StoreWatch,
        run: Runner | None = None,
    ) -> None:
        self.graph, self.jobs, self.limits, self.watch = graph, jobs, limits, watch
        self.run: Runner = run or (lambda work: work(graph))

    def prepare(self, mode: str) -> Answer | Pending:
        """The curve of ``mode``, or the job making it (its result: the curve's URL), to be
        waited for on a small store. Its classifications are builds made for requests
        (:mod:`kgdiff.temporal.served_builds`)."""
        check_mode(mode)
        if curve_path(self.graph.layout, mode).is_file():
            return self._curve(mode)
        key = f"staleness|{mode}|{self.watch.state().tag}"
        link = "/v1/staleness?" + urlencode({"mode": mode})
        self.jobs.forget_finished(key)  # a job that made it before: the curve went since
        work = partial(make_curve, mode=mode, max_builds=self.limits.max_builds)
        job = self.jobs.submit(key, link, lambda: self.run(work))
        return Pending(job, self.limits.wait_seconds if self._small() else 0.0)

    def _curve(self, mode: str) -> Answer:
        return self.limits.made_for_requests(lambda: self.graph.answers.staleness(mode))

    def _small(self) -> bool:
        """Whether the store's statements are few enough to make the curve in a request."""
        counts = [m.counts.get("statements", 0) for m in list_snapshots(self.graph.layout)]
        return sum(counts) <= self.limits.sync_statements


def make_curve(graph: KnowledgeGraph, *, mode: str, max_builds: int) -> None:
    """Make the staleness curve of ``mode`` (its classifications builds made for requests):
    a work of :class:`StalenessCurves`, run in any process."""
    BuildLimits(max_builds=max_builds).made_for_requests(lambda: graph.answers.staleness(mode))
