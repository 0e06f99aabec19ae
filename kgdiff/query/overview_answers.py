"""The answers that give an overview of a store rather than one fact: entities found by
name, and the staleness curve (a part of :class:`~kgdiff.query.answers.Answers`)."""

from __future__ import annotations

import polars as pl

from kgdiff.query.answer import Answer
from kgdiff.query.graph_access import GraphAccess
from kgdiff.query.search import search_entities
from kgdiff.temporal.staleness import MonthDone, staleness_curve


class OverviewAnswers:
    """Entity search and the staleness curve, each answered as an :class:`Answer`."""

    graph: GraphAccess

    def snapshots(self) -> Answer:
        """The Wikidata snapshots, oldest first."""
        raise NotImplementedError

    def search(self, text: str, lang: str = "en", limit: int = 10) -> Answer:
        """Entities whose id is ``text`` or whose label or alias starts with it, best first;
        a note when none does."""
        with self.graph.lookup_source() as (connection, copied):
            frame = search_entities(connection, text, lang, limit, copied)
        none = f"no entity's id is {text!r} and no label or alias in {lang} starts with it"
        notes = [] if frame.height else [none]
        return Answer(frame, [], notes)

    def staleness(self, mode: str = "record", on_month: MonthDone | None = None) -> Answer:
        """Level counts month by month (:func:`~kgdiff.temporal.staleness.staleness_curve`);
        notes say when no month fits and when subset snapshots leave groups uncovered."""
        frame = staleness_curve(self.graph.layout, mode, on_month)
        listing = self.snapshots().frame
        notes = []
        if frame.is_empty():
            notes.append(
                "no month starts between the first and the latest snapshot: the curve needs"
                " snapshots at least a month apart"
            )
        subsets = listing.filter(pl.col("coverage") == "subset")["name"].to_list()
        if subsets:
            notes.append(
                f"{', '.join(subsets)} hold a subset of the entities: groups a snapshot does"
                " not hold are not_covered, not deleted (shares are of the covered groups)"
            )
        return Answer(frame, [], notes)
