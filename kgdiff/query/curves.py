"""Staleness curves for the REST service: read when made, made within the request on a
small store, else left to a background job (:mod:`kgdiff.query.jobs`) like a large
classification."""

from __future__ import annotations

from kgdiff.query.answer import Answer
from kgdiff.query.fact_pages import BuildLimits
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

    def prepare(self, mode: str, link: str) -> Answer | JobState:
        """The curve of ``mode``, or the state of the job making it (``link``: where the
        curve is read once it is done)."""
        check_mode(mode)
        if curve_path(self.graph.layout, mode).is_file():
            return self.graph.answers.staleness(mode)
        key = f"staleness|{mode}|{self.watch.state().tag}"
        job = self.jobs.submit(key, link, lambda: self.graph.answers.staleness(mode))
        if self._small() and job.finished.wait(self.limits.wait_seconds):
            if job.failure is not None:
                raise job.failure
            return self.graph.answers.staleness(mode)
        return job.state

    def _small(self) -> bool:
        """Whether the store's statements are few enough to make the curve in a request."""
        counts = [m.counts.get("statements", 0) for m in list_snapshots(self.graph.layout)]
        return sum(counts) <= self.limits.sync_statements
