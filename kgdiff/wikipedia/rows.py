"""Rows of the ``pages`` and ``revisions`` tables of a Wikipedia snapshot, as Arrow batches."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pyarrow as pa

from kgdiff.readers.mediawiki_xml import Revision
from kgdiff.text.fast import plain_text
from kgdiff.text.sections import lead_wikitext

_REVISION_FIELDS: list[tuple[str, pa.DataType]] = [
    ("wiki", pa.string()),
    ("page_id", pa.int64()),
    ("namespace", pa.int32()),
    ("title", pa.string()),
    ("redirect", pa.string()),
    ("revision_id", pa.int64()),
    ("parent_id", pa.int64()),
    ("timestamp", pa.timestamp("s")),
    ("sha1", pa.string()),
    ("size", pa.int64()),
    ("minor", pa.bool_()),
    ("user", pa.string()),
    ("comment", pa.string()),
    ("tags", pa.list_(pa.string())),
    ("text_deleted", pa.bool_()),
    ("lead", pa.string()),
]
REVISIONS_SCHEMA = pa.schema(_REVISION_FIELDS)
"""One row per revision (history dumps); ``tags`` is NULL where the source has none (dumps)."""
PAGES_SCHEMA = pa.schema([*_REVISION_FIELDS, ("text", pa.string())])
"""One row per page: the revision in force at the snapshot's date, with its whole plain text."""


def parse_timestamp(value: str) -> datetime:
    """A MediaWiki timestamp (``2014-12-17T12:00:00Z``) as a naive UTC datetime."""
    return datetime.fromisoformat(value.replace("Z", "+00:00")).replace(tzinfo=None)


class LeadMemo:
    """The plain-text lead of the last revision converted: the ``pages`` and ``revisions``
    tables both want the lead of a page's revision in force, usually the one just seen."""

    def __init__(self) -> None:
        self._revision: Revision | None = None
        self._lead: str | None = None

    def lead(self, revision: Revision) -> str | None:
        """The lead of ``revision`` as plain text (``None`` when its text is hidden)."""
        if revision is not self._revision:
            text = revision.text
            self._revision = revision
            self._lead = None if text is None else plain_text(lead_wikitext(text))
        return self._lead


class RowBuffer:
    """Column lists of revision (or page) rows, flushed as record batches."""

    def __init__(self, wiki: str, with_text: bool, leads: LeadMemo | None = None) -> None:
        self.wiki = wiki
        self.with_text = with_text
        self.leads = leads or LeadMemo()
        self.schema = PAGES_SCHEMA if with_text else REVISIONS_SCHEMA
        self.columns: dict[str, list[Any]] = {name: [] for name in self.schema.names}

    def __len__(self) -> int:
        return len(self.columns["page_id"])

    def add(self, revision: Revision) -> None:
        """Append one revision; its lead (and, for pages, whole text) becomes plain text."""
        page, columns = revision.page, self.columns
        for name, value in (
            ("wiki", self.wiki),
            ("page_id", page.page_id),
            ("namespace", page.ns),
            ("title", page.title),
            ("redirect", page.redirect),
            ("revision_id", revision.revision_id),
            ("parent_id", revision.parent_id),
            ("timestamp", parse_timestamp(revision.timestamp)),
            ("sha1", revision.sha1),
            ("size", revision.size),
            ("minor", revision.minor),
            ("user", revision.user),
            ("comment", revision.comment),
            ("tags", None),
            ("text_deleted", revision.text_deleted),
        ):
            columns[name].append(value)
        columns["lead"].append(self.leads.lead(revision))
        if self.with_text:
            wikitext = revision.text
            columns["text"].append(None if wikitext is None else plain_text(wikitext))

    def flush(self) -> pa.RecordBatch:
        """The buffered rows as one batch; the buffer is emptied."""
        batch = pa.RecordBatch.from_pydict(self.columns, schema=self.schema)
        self.columns = {name: [] for name in self.schema.names}
        return batch
