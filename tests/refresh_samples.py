"""Helpers of the ``kgdiff refresh`` tests: the changes between two snapshots written as the
dumps Wikimedia publishes, and every table of a snapshot as rows to compare."""

from __future__ import annotations

import bz2
from collections.abc import Iterator
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any

import duckdb
import msgspec

from bench.refresh_gen.xml_dump import Revision, write_revisions
from kgdiff.readers.deletion_log import entity_of_title
from kgdiff.readers.wikidata_xml import iter_entity_pages
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import DeltaRef, Manifest, RefreshInfo
from kgdiff.store.store_root import open_catalog

TABLE_KEYS = {
    "entities": "qid",
    "labels": "qid",
    "sitelinks": "qid",
    "statements": "subject",
    "qualifiers": "subject",
}
"""The tables every snapshot has, and their subject column."""
PROVENANCE = ("snapshot", "source_line")
"""Columns that say where a row was read, not what it holds (left out of comparisons)."""


def _end_of(day: str) -> datetime:
    return datetime.combine(datetime.fromisoformat(day).date(), time(23, 59, 59), UTC)


def xml_texts(dump: Path, day: str) -> dict[str, bytes]:
    """The text of each entity page of an XML dump, the revision in force at the end of ``day``."""
    opener = bz2.open if dump.suffix == ".bz2" else open
    with opener(dump, "rb") as stream:
        pages = iter_entity_pages(stream, as_of=_end_of(day))
        found = {entity_of_title(page.title): page.text for page in pages}
    return {entity: text for entity, text in found.items() if entity is not None}


def json_texts(dump: Path) -> dict[str, bytes]:
    """The text of each entity line of a JSON dump."""
    opener = bz2.open if dump.suffix == ".bz2" else open
    found = {}
    with opener(dump, "rb") as stream:
        for raw in stream:
            line = raw.strip().rstrip(b",")
            if line.startswith(b"{"):
                found[msgspec.json.decode(line)["id"]] = line
    return found


def snapshot_rows(store: Path, snapshot: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of ``snapshot`` as the catalog reads it, provenance left out,
    sorted (a multiset per table)."""
    connection = open_catalog(StoreLayout.resolve(store))
    try:
        return {table: _rows(connection, table, snapshot) for table in TABLE_KEYS}
    finally:
        connection.close()


def _rows(
    connection: duckdb.DuckDBPyConnection, table: str, snapshot: str
) -> list[tuple[Any, ...]]:
    columns = [
        name
        for (name,) in connection.execute(
            "SELECT column_name FROM (DESCRIBE SELECT * FROM " + table + ")"
        ).fetchall()
        if name not in PROVENANCE
    ]
    quoted = ", ".join(f'"{name}"' for name in columns)
    query = f"SELECT {quoted} FROM {table} WHERE snapshot = $name"
    rows = connection.execute(query, {"name": snapshot}).fetchall()
    return sorted(rows, key=repr)


def by_entity(store: Path, snapshot: str) -> dict[str, str]:
    """Each entity's rows across the tables, as one text (to tell which changed)."""
    connection = open_catalog(StoreLayout.resolve(store))
    try:
        found: dict[str, list[str]] = {}
        for table, key in TABLE_KEYS.items():
            for subject, row in _subject_rows(connection, table, key, snapshot):
                entity = subject.split("-", 1)[0]  # a lexeme's forms and senses: the lexeme
                found.setdefault(entity, []).append(f"{table}:{row}")
    finally:
        connection.close()
    return {subject: "\n".join(sorted(parts)) for subject, parts in found.items()}


def _subject_rows(
    connection: duckdb.DuckDBPyConnection, table: str, key: str, snapshot: str
) -> Iterator[tuple[str, str]]:
    columns = [
        name
        for (name,) in connection.execute(
            "SELECT column_name FROM (DESCRIBE SELECT * FROM " + table + ")"
        ).fetchall()
        if name not in PROVENANCE
    ]
    quoted = ", ".join(f'"{name}"' for name in columns)
    query = f'SELECT "{key}", {quoted} FROM {table} WHERE snapshot = $name'
    for row in connection.execute(query, {"name": snapshot}).fetchall():
        yield str(row[0]), repr(row[1:])


def changed_between(store: Path, base: str, target: str) -> tuple[list[str], list[str]]:
    """The entities whose rows differ (or are new) in ``target``, and those it lacks."""
    before = by_entity(store, base)
    after = by_entity(store, target)
    changed = sorted(subject for subject, rows in after.items() if before.get(subject) != rows)
    gone = sorted(set(before) - set(after))
    return changed, gone


def write_changes(
    path: Path, texts: dict[str, bytes], entities: list[str], timestamp: str, first_id: int = 1
) -> int:
    """Write the revisions of ``entities`` (their ``texts``) at ``timestamp`` as an
    incremental XML dump; the pages written."""
    revisions = (
        Revision(entity, first_id + index, timestamp, texts[entity])
        for index, entity in enumerate(entities)
        if entity in texts
    )
    return write_revisions(path, revisions)


def refresh_of(manifest: Manifest) -> RefreshInfo:
    """How a refreshed snapshot was made, from its manifest (which must say so)."""
    assert manifest.refresh is not None, "a refreshed snapshot's manifest names its refresh"
    return manifest.refresh


def delta_of(manifest: Manifest) -> DeltaRef:
    """A delta's reference to its base, from its manifest (which must hold one)."""
    assert manifest.delta is not None, "a delta's manifest names its base"
    return manifest.delta


def folder_subjects(store: Path, snapshot: str) -> dict[str, list[str]]:
    """The subject of every row a snapshot's folder holds itself, per table (a delta's own
    rows, read from its files, not through the catalog)."""
    folder = store / "snapshots" / f"snapshot={snapshot}"
    found = {}
    with duckdb.connect() as connection:
        for table, key in TABLE_KEYS.items():
            files = str(folder / table / "*.parquet")
            rows = connection.execute(f'SELECT "{key}" FROM read_parquet(?)', [files]).fetchall()
            found[table] = [str(subject).split("-", 1)[0] for (subject,) in rows]
    return found


def rows_per_table(store: Path, snapshot: str, entities: set[str]) -> dict[str, int]:
    """How many rows of each table of ``snapshot`` (as the catalog reads it) belong to
    ``entities``."""
    connection = open_catalog(StoreLayout.resolve(store))
    try:
        return {
            table: sum(
                subject.split("-", 1)[0] in entities
                for subject, _ in _subject_rows(connection, table, key, snapshot)
            )
            for table, key in TABLE_KEYS.items()
        }
    finally:
        connection.close()
