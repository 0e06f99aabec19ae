"""What a benchmark record carries besides its question: the Wikipedia sentence that
supports its latest answer (when the store has evidence) and its subject's popularity (when
the store has page views)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import duckdb
import polars as pl

from kgdiff.evidence.supported import evidence_wiki
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.pageviews.popularity import popularity_of_files
from kgdiff.pageviews.store import table_files
from kgdiff.sqlfiles import load_sql
from kgdiff.store.layout import StoreLayout
from kgdiff.valuetext import is_entity

Group = tuple[str, str]
WANTED = ["subject", "pid", "value", "position", "role", "snapshot"]
"""The columns of the values whose mention is sought (``sql/export/contexts.sql``)."""


@dataclass(frozen=True)
class Context:
    """A sentence of a Wikipedia page's revision (its index as the evidence table has it)."""

    sentence: str
    page: str
    revision: int
    index: int


def _wanted(groups: pl.DataFrame, catalogue: RelationCatalogue) -> pl.DataFrame:
    """One row per latest entity value of each group that has a Wikipedia snapshot."""
    rows = []
    for subject, pid, latest, snapshot in groups.select(
        "subject", "pid", "latest", "wikipedia_current"
    ).iter_rows():
        if snapshot is None:
            continue
        role = catalogue[pid].context.value
        for position, value in enumerate(latest):
            if is_entity(value):
                rows.append((subject, pid, value, position, role, snapshot))
    return pl.DataFrame(rows, schema=WANTED, orient="row")


def contexts_of(
    connection: duckdb.DuckDBPyConnection, wanted: pl.DataFrame
) -> dict[Group, Context]:
    """The evidence sentence of each (subject, pid) of ``wanted`` (rows of subject, pid,
    value, position, role, snapshot: the values whose mention is sought) that has one."""
    if wanted.is_empty():
        return {}
    connection.register("export_wanted", wanted.to_arrow())
    try:
        rows = connection.execute(load_sql("export/contexts")).fetchall()
    finally:
        connection.unregister("export_wanted")
    return {
        (subject, pid): Context(c["sentence"], c["title"], c["revision_id"], c["sentence_index"])
        for subject, pid, c in rows
    }


def group_contexts(
    connection: duckdb.DuckDBPyConnection,
    layout: StoreLayout,
    groups: pl.DataFrame | pl.LazyFrame,
    catalogue: RelationCatalogue,
) -> dict[Group, Context]:
    """The evidence sentence of each group of ``groups`` (classified rows with their
    ``wikipedia_current`` column) that has one; empty when the store has no evidence (lazy
    ``groups`` are then never collected)."""
    columns = groups.collect_schema().names()
    if evidence_wiki(layout) is None or "wikipedia_current" not in columns:
        return {}
    if isinstance(groups, pl.LazyFrame):
        groups = groups.select("subject", "pid", "latest", "wikipedia_current").collect()
    return contexts_of(connection, _wanted(groups, catalogue))


def wikipedia_at(connection: duckdb.DuckDBPyConnection, wiki: str | None, day: date) -> str | None:
    """The latest Wikipedia snapshot of ``wiki`` dated at or before ``day``; None when there
    is none (or no wiki: :func:`kgdiff.evidence.supported.evidence_wiki` of a store without
    evidence)."""
    if wiki is None:
        return None
    rows = connection.execute(load_sql("export/wikipedia_at"), {"wiki": wiki, "day": day})
    found = rows.fetchall()
    return str(found[0][0]) if found and found[0][0] is not None else None


def subject_popularity(
    connection: duckdb.DuckDBPyConnection,
    layout: StoreLayout,
    subjects: list[str],
    wiki: str,
    day: date,
) -> dict[str, float]:
    """Each subject's popularity (``ln(median monthly views + 1)``, docs/questions.md) on
    ``wiki``, through its article's title there; empty when the store has no page views."""
    files = table_files(layout)
    if not files or not subjects:
        return {}
    params = {"ids": sorted(set(subjects)), "site": wiki, "day": day}
    titles = dict(connection.execute(load_sql("export/sitelink_titles"), params).fetchall())
    if not titles:
        return {}
    table = popularity_of_files(files, wiki, sorted(set(titles.values())))
    by_title = dict(
        zip(table.column("title").to_pylist(), table.column("popularity").to_pylist(), strict=True)
    )
    return {qid: float(by_title[title]) for qid, title in titles.items() if title in by_title}
