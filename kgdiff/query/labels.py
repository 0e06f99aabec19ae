"""Labels for the ids in an answer, in a language, as of the snapshot that answered.

A label comes from the snapshot that answered when it has one, else from the nearest other
snapshot that has one (``sql/labels/entity_labels.sql``); an id no snapshot labels is shown
as itself and counted, never blank.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import duckdb
import pyarrow as pa

from kgdiff.ids import DEFAULT_LANG, is_entity_id, repeated_ids
from kgdiff.query.lookup_ranges import ShardMap, route
from kgdiff.query.memo import StoreMemo
from kgdiff.sqlfiles import load_sql
from kgdiff.store.catalog import store_macros


def catalog_macro() -> str:
    """``entity_labels(label_ids, label_snapshot := NULL, label_lang := 'en')`` (the store
    defines it in every catalog; connections that are no catalog define it with this)."""
    return store_macros()[0]


@dataclass
class Labels:
    """Labels of some ids; :meth:`of` tells a label, or the id itself when there is none."""

    names: dict[str, str]
    lang: str = DEFAULT_LANG
    missing: set[str] = field(default_factory=set)

    def of(self, value: object) -> str:
        """The label of an entity id (the id when none is known, counted in ``missing``), or
        the value itself for any other value (a time, a quantity, a string)."""
        text = "" if value is None else str(value)
        if not is_entity_id(text):
            return text
        label = self.names.get(text)
        if label is None:
            self.missing.add(text)
            return text
        return label

    def named(self, value: object) -> str:
        """``label (id)`` for an entity id with a label, else what :meth:`of` gives."""
        label = self.of(value)
        return f"{label} ({value})" if label != value and is_entity_id(value) else label

    def missing_note(self) -> str | None:
        """One line counting the ids shown without a label, or None."""
        if not self.missing:
            return None
        count = len(self.missing)
        some = ", ".join(sorted(self.missing)[:5]) + (", …" if count > 5 else "")
        return f"{count:,} id(s) have no {self.lang} label in the store, shown as ids: {some}"


def labels_for(
    connection: duckdb.DuckDBPyConnection,
    ids: Iterable[object],
    snapshot: str | None = None,
    lang: str = DEFAULT_LANG,
    memo: StoreMemo | None = None,
    copied: ShardMap | None = None,
) -> Labels:
    """The labels in ``lang`` of the entity ids among ``ids``, as of ``snapshot`` (those
    ``memo`` holds from earlier questions are not read again). ``copied``: ``connection``
    is on a lookup copy with these subject ranges: the ids of each range are read from its
    schema (the cursor is left reading every range's), and the copy's ``label_rows`` answer
    for no snapshot."""
    wanted = sorted({str(i) for i in ids if is_entity_id(i)})
    kept = memo.labels if memo is not None else {}
    names = {i: kept[(snapshot, lang, i)] for i in wanted if (snapshot, lang, i) in kept}
    unread = [i for i in wanted if i not in names]
    if unread:
        rows = _routed_labels(connection, unread, snapshot, lang, copied)
        found = {str(row[0]): str(row[1]) for row in rows}
        names.update({i: found.get(i) for i in unread})
        if memo is not None:
            memo.remember_labels({(snapshot, lang, i): found.get(i) for i in unread})
    return Labels({i: name for i, name in names.items() if name is not None}, lang)


def _routed_labels(
    connection: duckdb.DuckDBPyConnection,
    ids: list[str],
    snapshot: str | None,
    lang: str,
    copied: ShardMap | None,
) -> list[tuple[object, ...]]:
    """:func:`_read_labels`, on a lookup copy a subject range at a time: the ids of one range
    read from its schema walk a few hundred row groups, where every range's views walk them
    all (their cost grows with the store)."""
    if copied is None:
        return _read_labels(connection, ids, snapshot, lang, False)
    rows: list[tuple[object, ...]] = []
    try:
        for schema, held in copied.grouped(ids).items():
            route(connection, schema)
            rows += _read_labels(connection, held, snapshot, lang, True)
    finally:
        route(connection, None)
    return rows


def _read_labels(
    connection: duckdb.DuckDBPyConnection,
    ids: list[str],
    snapshot: str | None,
    lang: str,
    copied: bool,
) -> list[tuple[object, ...]]:
    """(id, label) rows of those of ``ids`` that have a label."""
    if copied and snapshot is None:
        values: dict[str, object] = {"label_ids": ids, "label_lang": lang}
        return connection.execute(load_sql("labels/latest_labels"), values).fetchall()
    values = {"label_ids": ids, "label_snapshot": snapshot, "label_lang": lang}
    return connection.execute(load_sql("labels/entity_labels"), values).fetchall()


def unlabelled_in(table: pa.Table, pairs: list[tuple[str, str]]) -> set[str]:
    """The entity ids an answer shows without a label: in each (id column, label column)
    pair of ``table``, the ids their labels repeat."""
    found: set[str] = set()
    for ids, labels in pairs:
        if ids in table.column_names and labels in table.column_names:
            found |= repeated_ids(table.column(ids), table.column(labels))
    return found


def label_notes(ids: set[str], lang: str) -> list[str]:
    """The note counting ids shown without a label, as a list (empty when there are none)."""
    note = Labels({}, lang, ids).missing_note()
    return [note] if note else []
