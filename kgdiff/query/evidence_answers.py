"""The answers that rest on Wikipedia: the evidence of a subject's facts and the revisions
that first stated each knowledge update (a part of :class:`~kgdiff.query.answers.Answers`)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

import polars as pl

from kgdiff.evidence.histories import DumpHistory, History
from kgdiff.evidence.show import EvidenceReport, ShowQuery, show_evidence
from kgdiff.evidence.supporting import UpdateQuery, supporting_revisions
from kgdiff.query.answer import Answer, Day, Ids, as_day, id_list
from kgdiff.query.entity import latest_history
from kgdiff.query.frames import frame_of
from kgdiff.query.ids import check_known
from kgdiff.temporal.dates import GapPolicy

if TYPE_CHECKING:
    from kgdiff.query.graph import KnowledgeGraph


class EvidenceAnswers:
    """Evidence and supporting revisions, each answered as an :class:`Answer`."""

    graph: KnowledgeGraph

    def span(self) -> tuple[date, date]:
        """The first and the latest snapshot's dates."""
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
        latest = as_day(current, "current") if current is not None else self.span()[1]
        pids = tuple(id_list(pid, "pid"))
        query = UpdateQuery(as_day(cutoff, "cutoff"), latest, wiki, pids, lang, gap or GapPolicy())
        with self.graph.connection() as connection:
            check_known(connection, pids, self.graph.memos.current())
            reads = query.check(connection)
            if history is None:
                name = wikipedia or latest_history(self.graph.layout, wiki)
                history = DumpHistory(connection, name)
            rows = list(supporting_revisions(connection, query, history))
        return Answer(pl.DataFrame(rows, infer_schema_length=None), reads)
