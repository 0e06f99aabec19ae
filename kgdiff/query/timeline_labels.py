"""Labels and words on an entity's timeline rows (``pid_label``, ``value_label`` and the
valid interval's bounds as people read them)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import duckdb
import pyarrow as pa

from kgdiff.ids import DEFAULT_LANG
from kgdiff.portable.number_match import QUANTITY_KEY
from kgdiff.query.labels import Labels
from kgdiff.query.memo import StoreMemo
from kgdiff.sqlfiles import load_sql
from kgdiff.timetext import bound_text
from kgdiff.valuetext import is_entity, value_texts

BOUNDS = ("valid_from", "valid_until", "point")
"""The timeline's bounds, each a list of time value keys with its ``*_lo``/``*_hi`` days."""


def label_ids(values: Iterable[str | None]) -> Iterator[str]:
    """The ids whose labels the words of ``values`` need: each entity, and each quantity's
    unit when it is an entity (``+357022|Q712226``: square kilometre); not a time's calendar
    (its words do not name it). The lookup copy's ``value_labels``
    (sql/lookup/copy_value_labels_all.sql) take the same values: what a timeline remembers
    from them is exactly what it needs."""
    for value in values:
        if value is None:
            continue
        if is_entity(value):
            yield value
        elif (quantity := QUANTITY_KEY.fullmatch(value)) and is_entity(quantity.group(2)):
            yield quantity.group(2)


def remember_value_labels(
    connection: duckdb.DuckDBPyConnection, subject: str, values: list[str], memo: StoreMemo
) -> None:
    """Put in ``memo`` the labels in the default language of ``values``, the ids that
    ``subject``'s timeline values name (:func:`label_ids`), read from the lookup copy's
    ``value_labels`` of its subject range (``connection`` routed to it:
    ``sql/timeline/value_labels.sql``) unless the memo holds them all; an id without a label
    there has none in that language (remembered as such)."""
    if all((None, DEFAULT_LANG, value) in memo.labels for value in values):
        return
    rows = connection.execute(load_sql("timeline/value_labels"), {"qid": subject}).fetchall()
    found: dict[str, str] = {}
    for value, label in rows:
        for named in label_ids([str(value)]):
            found[named] = str(label)
    memo.remember_labels({(None, DEFAULT_LANG, value): found.get(value) for value in values})


def _value_label(value: str | None, labels: Labels) -> str:
    """An entity's label (its id without one); any other value as people write it, in the
    words every face uses (:func:`kgdiff.valuetext.value_texts`): a time at its
    precision, a quantity's amount and unit, a monolingual text's text, a coordinate pair;
    ``<somevalue>`` and ``<novalue>`` as themselves."""
    if value is None or is_entity(value):
        return labels.of(value)
    words = value_texts(value, lambda unit: labels.names.get(unit))
    return words[0] if words else value


def with_bound_texts(rows: pa.Table) -> pa.Table:
    """``rows`` with a ``<bound>_text`` column after each bound's ``_hi`` day: its dates in
    words, several joined by "or" (null without a date)."""
    for bound in BOUNDS:
        texts = [bound_text(keys) for keys in rows.column(bound).to_pylist()]
        at = rows.schema.get_field_index(f"{bound}_hi") + 1
        rows = rows.add_column(at, f"{bound}_text", pa.array(texts, pa.string()))
    return rows


def with_labels(subject: str, rows: pa.Table, labels: Labels) -> pa.Table:
    """The timeline of ``subject`` with ``subject``, ``subject_label``, ``pid_label`` and
    ``value_label`` columns (ids without a label, and values that are no entity, stand for
    themselves; a time value is written in words) and its bounds in words
    (:func:`with_bound_texts`)."""
    count = rows.num_rows
    pid_labels = [labels.of(p) for p in rows.column("pid").to_pylist()]
    value_labels = [_value_label(v, labels) for v in rows.column("value").to_pylist()]
    rows = rows.add_column(0, "subject", pa.array([subject] * count, pa.string()))
    rows = rows.add_column(1, "subject_label", pa.array([labels.of(subject)] * count, pa.string()))
    rows = rows.add_column(3, "pid_label", pa.array(pid_labels, pa.string()))
    rows = rows.add_column(5, "value_label", pa.array(value_labels, pa.string()))
    return with_bound_texts(rows)
