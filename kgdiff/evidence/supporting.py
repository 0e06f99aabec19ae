"""``kgdiff revisions``: the first Wikipedia revision that states each knowledge update.

The facts are AntiLeakBench's knowledge updates after a cutoff (the ``updates`` macro):
for each new object, the subject's article is searched from the new statement's start on
(:mod:`kgdiff.evidence.revisions`), in a history dump of the store or through the API.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

import duckdb

from kgdiff.evidence.histories import History
from kgdiff.evidence.mentions import Name, NameMatcher, names_by_entity
from kgdiff.ids import DEFAULT_LANG
from kgdiff.sqlfiles import load_sql
from kgdiff.temporal.dates import DateRead, GapPolicy
from kgdiff.temporal.updates import UpdatesQuery
from kgdiff.wikipedia.sites import wiki_language


@dataclass(frozen=True)
class UpdateQuery:
    """Which knowledge updates to find revisions for, with labels in ``lang``; dates beyond
    the data are refused unless ``gap`` allows them (:mod:`kgdiff.temporal.dates`)."""

    cutoff: date
    current: date
    wiki: str = "enwiki"
    pids: tuple[str, ...] = ()
    lang: str = DEFAULT_LANG
    gap: GapPolicy = field(default_factory=GapPolicy)

    def check(self, connection: duckdb.DuckDBPyConnection) -> list[DateRead]:
        """Which snapshot answers the two dates (a usage error when the gap forbids them)."""
        updates = UpdatesQuery(self.cutoff, self.current, self.pids, self.lang, self.gap)
        return updates.check(connection)


def entity_names(
    connection: duckdb.DuckDBPyConnection, qids: list[str], lang: str
) -> dict[str, list[Name]]:
    """The names (labels, aliases) of ``qids`` in ``lang``, weak ones marked."""
    rows = connection.execute(load_sql("evidence/entity_names"), {"qids": qids, "lang": lang})
    return names_by_entity(rows.fetchall())


def trusted_matcher(names: list[Name]) -> NameMatcher:
    """A matcher over the names that may be trusted alone."""
    return NameMatcher(name for name in names if name.weak_reason is None)


def supporting_revisions(
    connection: duckdb.DuckDBPyConnection, query: UpdateQuery, history: History
) -> Iterator[dict[str, Any]]:
    """One row per knowledge update: its page and supporting revision, or why there is none
    (``reason``)."""
    query.check(connection)
    params = {
        "cutoff": query.cutoff,
        "current": query.current,
        "wiki": query.wiki,
        "pids": list(query.pids),
        "max_gap": query.gap.max_gap,
        "lang": query.lang,
    }
    columns = [
        "subject", "pid", "new_object", "old_objects", "new_start_lo", "title",
        "subject_label", "pid_label", "new_object_label", "snapshot", "gap_days",
    ]  # fmt: skip
    updates = [
        dict(zip(columns, row, strict=True))
        for row in connection.execute(load_sql("evidence/update_pages"), params).fetchall()
    ]
    qids = sorted({u["subject"] for u in updates} | {u["new_object"] for u in updates})
    names = entity_names(connection, qids, wiki_language(query.wiki))
    for update in updates:
        yield _row(update, query.wiki, history, names)


def _row(
    update: dict[str, Any], wiki: str, history: History, names: dict[str, list[Name]]
) -> dict[str, Any]:
    row = {**update, "wiki": wiki, "revision_id": None, "timestamp": None, "sentence": None}
    subject = trusted_matcher(names.get(update["subject"], []))
    obj = trusted_matcher(names.get(update["new_object"], []))
    if update["title"] is None:
        return {**row, "reason": f"no {wiki} article"}
    if subject.pattern is None or obj.pattern is None:
        return {**row, "reason": "no trusted name for the subject or the new object"}
    after = datetime.combine(update["new_start_lo"], time.min)
    found = history.search(update["title"], after, subject, obj)
    if found is None:
        return {**row, "reason": "no revision after the start names both"}
    return {
        **row,
        "revision_id": found.revision_id,
        "timestamp": found.timestamp,
        "sentence": found.sentence,
        "reason": None,
    }
