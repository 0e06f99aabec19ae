"""The evidence of one subject's facts (``kgdiff evidence show``): for each Wikipedia
snapshot, every fact with whether and where it is mentioned, the mentioning sentence (the
golden context) and the page and revision (the golden document).

When there is nothing to show, a one-line note says why; an id that no Wikidata snapshot
knows is a usage error. The SQL is ``sql/evidence/show_ids.sql``, ``subject_page.sql`` and
``fact_evidence.sql``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import duckdb
import pyarrow as pa

from kgdiff.errors import StoreError, UsageError
from kgdiff.evidence.build import evidence_current
from kgdiff.evidence.supported import evidence_snapshots
from kgdiff.sqlfiles import load_sql, run_arrow
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import Manifest
from kgdiff.store.snapshots import list_wikipedia_snapshots
from kgdiff.wikipedia.sites import wiki_language

SHOW_SCHEMA = pa.schema(
    [
        ("snapshot", pa.string()),
        ("wiki", pa.string()),
        ("subject", pa.string()),
        ("subject_label", pa.string()),
        ("pid", pa.string()),
        ("property_label", pa.string()),
        ("object_qid", pa.string()),
        ("object_label", pa.string()),
        ("object_named", pa.bool_()),
        ("mentioned", pa.bool_()),
        ("weak", pa.bool_()),
        ("weak_reason", pa.string()),
        ("page_role", pa.string()),
        ("section", pa.string()),
        ("term", pa.string()),
        ("sentence", pa.string()),
        ("mentions", pa.int32()),
        ("title", pa.string()),
        ("page_id", pa.int64()),
        ("revision_id", pa.int64()),
        ("timestamp", pa.timestamp("us")),
    ]
)
"""One row per (Wikipedia snapshot, fact, mentioning page); a fact mentioned nowhere has
one row with ``mentioned`` false and the subject's article (the page searched), if any."""
NO_WIKIPEDIA = "no Wikipedia snapshot in the store: ingest one with 'kgdiff ingest wikipedia'"


@dataclass(frozen=True)
class ShowQuery:
    """Whose evidence to show: a subject, optionally one property and one Wikipedia snapshot."""

    qid: str
    pid: str | None = None
    snapshot: str | None = None


@dataclass(frozen=True)
class SnapshotEvidence:
    """The evidence of the subject's facts in one Wikipedia snapshot."""

    snapshot: Manifest
    rows: pa.Table
    page: tuple[Any, ...] | None
    """The subject's article: (page id, title, revision id, timestamp); None without one."""
    notes: list[str]
    """Why there are no rows, or what to bear in mind about them (no article, stale)."""


@dataclass(frozen=True)
class EvidenceReport:
    """What ``kgdiff evidence show`` found; ``note`` says why there is nothing at all."""

    query: ShowQuery
    sections: list[SnapshotEvidence]
    note: str | None = None

    def table(self) -> pa.Table:
        """Every row of every snapshot (the ``--out`` file)."""
        return pa.concat_tables([SHOW_SCHEMA.empty_table(), *(s.rows for s in self.sections)])


def normalise_id(value: str, prefix: str) -> str:
    """A Wikidata id with its letter upper-cased (``q42`` → ``Q42``); a usage error for text
    that is not an id starting with ``prefix`` (``Q`` or ``P``)."""
    text = value.strip().upper()
    if not re.fullmatch(rf"{prefix}[1-9][0-9]*", text):
        kind = "an item" if prefix == "Q" else "a property"
        raise UsageError(f"{value!r} is not {kind} id like {prefix}42")
    return text


def show_evidence(
    layout: StoreLayout, connection: duckdb.DuckDBPyConnection, query: ShowQuery
) -> EvidenceReport:
    """The evidence of ``query``'s facts in each Wikipedia snapshot it names (default: all)."""
    query = ShowQuery(
        normalise_id(query.qid, "Q"),
        normalise_id(query.pid, "P") if query.pid else None,
        query.snapshot,
    )
    if not layout.published_names():
        raise StoreError(f"no Wikidata snapshot in {layout.root}; ingest one first")
    snapshots = _snapshots(layout, query.snapshot)
    note = _subject_note(connection, query) or (None if snapshots else NO_WIKIPEDIA)
    if note is not None:
        return EvidenceReport(query, [], note)
    built = set(evidence_snapshots(layout))
    sections = [
        _snapshot_evidence(layout, connection, query, m, m.name in built) for m in snapshots
    ]
    return EvidenceReport(query, sections)


def _snapshots(layout: StoreLayout, name: str | None) -> list[Manifest]:
    """The Wikipedia snapshots to read, by date; a usage error for an unknown name."""
    manifests = list_wikipedia_snapshots(layout)
    if name is None:
        return manifests
    chosen = [m for m in manifests if m.name == name]
    if not chosen:
        have = ", ".join(m.name for m in manifests) or "none"
        raise UsageError(f"no Wikipedia snapshot named {name!r} in the store (there are: {have})")
    return chosen


def _subject_note(connection: duckdb.DuckDBPyConnection, query: ShowQuery) -> str | None:
    """Why the subject has no facts to show (None when it has some); a usage error for an
    id no Wikidata snapshot knows."""
    params = {"qid": query.qid, "pid": query.pid}
    [row] = connection.execute(load_sql("evidence/show_ids"), params).fetchall()
    subject_known, property_known, redirect_to, facts = row
    if not subject_known:
        raise UsageError(f"{query.qid} is not in any Wikidata snapshot of the store")
    if not property_known:
        raise UsageError(f"{query.pid} is not in any Wikidata snapshot of the store")
    if facts:
        return None
    if redirect_to is not None:
        return (
            f"{query.qid} was merged into {redirect_to}: try 'kgdiff evidence show {redirect_to}'"
        )
    which = f"{query.pid} " if query.pid else ""
    return f"{query.qid} has no item-valued {which}statement in any Wikidata snapshot"


def _snapshot_evidence(
    layout: StoreLayout,
    connection: duckdb.DuckDBPyConnection,
    query: ShowQuery,
    snapshot: Manifest,
    built: bool,
) -> SnapshotEvidence:
    name = snapshot.name
    if not built:
        note = f"no evidence built for {name}: run 'kgdiff evidence build {name}'"
        return SnapshotEvidence(snapshot, SHOW_SCHEMA.empty_table(), None, [note])
    params = {"snapshot": name, "qid": query.qid}
    pages = connection.execute(load_sql("evidence/subject_page"), params).fetchall()
    page = pages[0] if pages else None
    rows = _fact_rows(connection, query, snapshot, page)
    notes = []
    if page is None and not any(rows.column("mentioned").to_pylist()):
        rows = SHOW_SCHEMA.empty_table()
        notes.append(f"{query.qid} has no page in {name}, and no article of its objects names it")
    elif page is None:
        notes.append(f"{query.qid} has no page in {name}: only its objects' articles were read")
    if not evidence_current(layout, name):
        notes.append(
            f"the evidence of {name} was built from other Wikidata snapshots: "
            f"run 'kgdiff evidence build {name}' to bring it up to date"
        )
    return SnapshotEvidence(snapshot, rows, page, notes)


def _fact_rows(
    connection: duckdb.DuckDBPyConnection,
    query: ShowQuery,
    snapshot: Manifest,
    page: tuple[Any, ...] | None,
) -> pa.Table:
    params = {
        "snapshot": snapshot.name,
        "qid": query.qid,
        "pid": query.pid,
        "page_id": page[0] if page else None,
        "lang": wiki_language(snapshot.wiki or "enwiki"),
    }
    table = run_arrow(connection, "evidence/fact_evidence", params)
    return table.cast(SHOW_SCHEMA)
