"""The answers that rest on Wikipedia: the evidence of a subject's facts and the revisions
that first stated each knowledge update (a part of :class:`~kgdiff.query.answers.Answers`)."""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from kgdiff.evidence.histories import DumpHistory, History
from kgdiff.evidence.show import EvidenceReport, ShowQuery, show_evidence
from kgdiff.evidence.supporting import UpdateQuery, supporting_revisions
from kgdiff.query.answer import Answer, Day, Ids, id_list
from kgdiff.query.entity import latest_history
from kgdiff.query.frames import frame_of
from kgdiff.query.graph_access import GraphAccess
from kgdiff.query.ids import check_known
from kgdiff.temporal.dates import DateRead, GapPolicy
from kgdiff.temporal.window import Window


class EvidenceAnswers:
    """Evidence and supporting revisions, each answered as an :class:`Answer`."""

    graph: GraphAccess

    def window(
        self, given: Mapping[str, Day | None], mode: str = "record", gap: GapPolicy | None = None
    ) -> tuple[Window, list[DateRead]]:
        """A question's dates with their defaults, checked (see ``Answers.window``)."""
        raise NotImplementedError

    def evidence_report(
        self, subject: str, pid: str | None = None, snapshot: str | None = None
    ) -> EvidenceReport:
        """The Wikipedia evidence of a subject's facts, per Wikipedia snapshot."""
        with self.graph.connection() as connection:
            return show_evidence(self.graph.layout, connection, ShowQuery(subject, pid, snapshot))

    def evidence(self, subject: str, pid: str | None = None, snapshot: str | None = None) -> Answer:
        """The Wikipedia evidence of a subject's facts (``kgdiff evidence show``)."""
        report = self.evidence_report(subject, pid, snapshot)
        notes = [report.note] if report.note else []
        notes += [note for section in report.sections for note in section.notes]
        return Answer(frame_of(report.table()), [], notes)

    def revisions(
        self,
        cutoff: Day,
        current: Day | None = None,
        pid: Ids = None,
        wiki: str = "enwiki",
        wikipedia: str | None = None,
        lang: str = "en",
        gap: GapPolicy | None = None,
        history: History | None = None,
    ) -> Answer:
        """The first revision stating each knowledge update: searched in ``history`` (e.g.
        a live wiki's API), else in the store's history snapshot ``wikipedia`` (default:
        the latest of ``wiki``)."""
        pids = tuple(id_list(pid, "pid"))
        window, reads = self.window({"cutoff": cutoff, "current": current}, "valid", gap)
        days = window.day("cutoff"), window.day("current")
        query = UpdateQuery(*days, wiki, pids, lang, gap or GapPolicy())
        with self.graph.connection() as connection:
            check_known(connection, pids, self.graph.memos.current())
            if history is None:
                name = wikipedia or latest_history(self.graph.layout, wiki)
                history = DumpHistory(connection, name)
            rows = list(supporting_revisions(connection, query, history))
        return Answer(pl.DataFrame(rows, infer_schema_length=None), reads)
