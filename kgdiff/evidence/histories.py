"""Where page histories come from for the supporting-revision search: a history dump in the
store (every revision and its lead already at hand) or the MediaWiki API (metadata from
``rvstart`` in pages of up to 500 revisions, leads only for candidates, 50 per request)."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import islice
from typing import Protocol

import duckdb

from kgdiff.evidence.mentions import NameMatcher
from kgdiff.evidence.revisions import HistoryEntry, Support, candidates, first_support, probe, scan
from kgdiff.sqlfiles import load_sql
from kgdiff.text.fast import plain_text
from kgdiff.wikiapi.client import WikiClient
from kgdiff.wikiapi.revisions import lead_texts, revisions_after

API_WINDOW = 500
"""Revisions of metadata asked for per request (the API's most without bot rights)."""


class History(Protocol):
    """A source of page histories."""

    def search(
        self, title: str, after: datetime, subject: NameMatcher, obj: NameMatcher
    ) -> Support | None:
        """The first supporting revision of ``title`` after ``after``, if any."""


class DumpHistory:
    """Histories from the ``revisions`` table of a Wikipedia snapshot (a history dump)."""

    def __init__(self, connection: duckdb.DuckDBPyConnection, snapshot: str) -> None:
        self.connection = connection
        self.snapshot = snapshot

    def search(
        self, title: str, after: datetime, subject: NameMatcher, obj: NameMatcher
    ) -> Support | None:
        """Search the page's whole history (earlier revisions tell reverts too)."""
        rows = self.connection.execute(
            load_sql("evidence/page_history"), {"snapshot": self.snapshot, "title": title}
        ).fetchall()
        history = [
            HistoryEntry(revision_id, timestamp, sha1, tuple(tags), bool(deleted))
            for revision_id, timestamp, sha1, tags, deleted, _ in rows
        ]
        leads = {row[0]: row[5] or "" for row in rows}
        return first_support(history, after, lambda ids: {i: leads[i] for i in ids}, subject, obj)


class ApiHistory:
    """Histories from a wiki's API; ``max_revisions`` bounds how far after ``after`` to look.

    Leads are probed (:func:`kgdiff.evidence.revisions.probe`: 3 requests per window of 500
    revisions) unless ``exact``, which reads every candidate's lead (50 per request)."""

    def __init__(self, client: WikiClient, max_revisions: int = 5000, exact: bool = False) -> None:
        self.client = client
        self.max_revisions = max_revisions
        self.search_window = scan if exact else probe

    def search(
        self, title: str, after: datetime, subject: NameMatcher, obj: NameMatcher
    ) -> Support | None:
        """Read metadata a window at a time; stop at the first window with a support."""
        # from the next whole second on (API timestamps have no fractions), so that every
        # page of the answer is a full window and a window never costs a second request
        start = after.replace(microsecond=0) + timedelta(seconds=1)
        metadata = revisions_after(self.client, title, start, batch=API_WINDOW, inclusive=True)
        history: list[HistoryEntry] = []
        read: dict[int, str] = {}

        def leads(ids: list[int]) -> dict[int, str]:
            missing = [i for i in ids if i not in read]
            if missing:
                found = lead_texts(self.client, title, missing)
                read.update({i: plain_text(found.get(i, "")) for i in missing})
            return {i: read[i] for i in ids}

        while len(history) < self.max_revisions:
            window = [
                HistoryEntry(
                    m.revid, m.timestamp.replace(tzinfo=None), m.sha1, m.tags, m.content_hidden
                )
                for m in islice(metadata, API_WINDOW)
            ]
            history.extend(window)
            new = {h.revision_id for h in window}
            found = [h for h in candidates(history, after) if h.revision_id in new]
            support = self.search_window(found, leads, subject, obj)
            if support is not None or len(window) < API_WINDOW:
                return support
        return None
