"""The words of the values a benchmark names: labels, aliases and classes of entities (read
once per export from the store, ``sql/export/entity_names.sql``), and the rendered text of
every other value (:mod:`kgdiff.export.value_text`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import duckdb

from kgdiff.export.value_text import is_entity, time_precision, value_texts
from kgdiff.sqlfiles import load_sql


@dataclass(frozen=True)
class Name:
    """An entity's label, aliases and classes (P31) in the language of the export."""

    label: str
    aliases: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()


class Names:
    """Labels and aliases of entity ids, and the texts of any value key."""

    def __init__(self, names: dict[str, Name]) -> None:
        self._names = names
        self._texts: dict[str, list[str]] = {}  # an export names the same values many times

    @classmethod
    def read(
        cls,
        connection: duckdb.DuckDBPyConnection,
        ids: Iterable[str],
        snapshot: str | None,
        lang: str,
    ) -> Names:
        """The names of the entity ids among ``ids`` as of ``snapshot`` (the one read for
        the export's current date), in ``lang``."""
        wanted = sorted({value for value in ids if is_entity(value)})
        params = {"ids": wanted, "snapshot": snapshot, "lang": lang}
        rows = connection.execute(load_sql("export/entity_names"), params).fetchall()
        return cls(
            {qid: Name(label, tuple(aliases), tuple(p31)) for qid, label, aliases, p31 in rows}
        )

    def merge(self, other: Names) -> None:
        """Take the names ``other`` read (texts worked out before are worked out again)."""
        self._names.update(other._names)
        self._texts.clear()

    def label(self, qid: str) -> str | None:
        """The label of an entity id, or None when the store has none in the language."""
        name = self._names.get(qid)
        return name.label if name else None

    def classes(self, value: str) -> tuple[str, ...]:
        """The classes (P31) of an entity value; a time's precision stands for its class
        (a year is offered other years as distractors first, a day other days)."""
        name = self._names.get(value)
        if name is not None:
            return name.classes
        precision = time_precision(value)
        return (f"time precision {precision}",) if precision is not None else ()

    def texts(self, value: str) -> list[str]:
        """Every text naming ``value``, its main one first, without repeats or blank ones:
        an entity's label then its aliases; another value's rendering(s). Empty when it has
        no words. (The list is shared: copy it to change it.)"""
        known = self._texts.get(value)
        if known is None:
            known = self._texts[value] = self.fresh_texts(value)
        return known

    def fresh_texts(self, value: str) -> list[str]:
        """:meth:`texts`, worked out without keeping it (for values named once, in bulk)."""
        name = self._names.get(value)
        if name is not None:
            return _unique([name.label, *name.aliases])
        return _unique(value_texts(value, self.label))

    def main_text(self, value: str) -> str | None:
        """The one text a value is shown by (an entity's label), or None."""
        texts = self.texts(value)
        return texts[0] if texts else None


def _unique(texts: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(text for text in texts if text.strip()))


def texts_of(names: Names, values: Sequence[str]) -> list[str]:
    """Every text of every value, in order, without repeats."""
    if len(values) == 1:  # most groups have one value: its texts are already unique
        return list(names.texts(values[0]))
    return list(dict.fromkeys(text for value in values for text in names.texts(value)))


def main_texts_of(names: Names, values: Sequence[str]) -> list[str]:
    """The main text of every value that has one, in order, without repeats."""
    found = (texts[0] for value in values if (texts := names.texts(value)))
    return list(dict.fromkeys(found))
