"""Staleness curves for the REST service: read when made, made within the request on a
small store, else left to a background job (:mod:`kgdiff.query.jobs`) like a large
classification."""

from __future__ import annotations

from urllib.parse import urlencode

from kgdiff.query.answer import Answer
from kgdiff.query.build_limits import BuildLimits
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.jobs import Jobs, JobState
from kgdiff.query.store_state import StoreWatch
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.classify import check_mode
from kgdiff.temporal.staleness import curve_path


class StalenessCurves:
    """The curve of each mode, made once per store state and shared by the requests."""

    def __init__(
        self, graph: KnowledgeGraph, jobs: Jobs, limits: BuildLimits, watch: StoreWatch
    ) -> None:
        self.graph, self.jobs, self.limits, self.watch = graph, jobs, limits, watch

    def prepare(self, mode: str) -> Answer | JobState:
        """The curve of ``mode``, or the state of the job making it (its result: the
        curve's URL). Its classifications are builds made for requests
        (:mod:`kgdiff.temporal.served_builds`)."""
        check_mode(mode)
        if curve_path(self.graph.layout, mode).is_file():
            return self._curve(mode)
        key = f"staleness|{mode}|{self.watch.state().tag}"
        link = "/v1/staleness?" + urlencode({"mode": mode})
        job = self.jobs.submit(key, link, lambda: self._curve(mode))
        if self._small() and job.finished.wait(self.limits.wait_seconds):
            if job.failure is not None:
                raise job.failure
            return self._curve(mode)
        return job.state

    def _curve(self, mode: str) -> Answer:
        return self.limits.made_for_requests(lambda: self.graph.answers.staleness(mode))

    def _small(self) -> bool:
        """Whether the store's statements are few enough to make the curve in a request."""
        counts = [m.counts.get("statements", 0) for m in list_snapshots(self.graph.layout)]
        return sum(counts) <= self.limits.sync_statements
