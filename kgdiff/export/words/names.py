"""The words of the values a benchmark names: labels, aliases and classes of entities (read
once per export from the store, ``sql/export/entity_names.sql``: only the aliases that name
the entity, docs/benchmark-export.md#answers-and-aliases) and whether a label takes
"the" in a sentence (:mod:`kgdiff.export.relations.phrasing`, with the lead of the entity's
Wikipedia article when the store has one, ``sql/export/entity_leads.sql``), and the rendered text
and kind of every other value (:mod:`kgdiff.valuetext`,
:mod:`kgdiff.export.words.option_kinds`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import duckdb

from kgdiff.export.relations.phrasing import deep_time_first, takes_article, with_article
from kgdiff.export.words.alias_names import OtherNames, naming_aliases
from kgdiff.export.words.answer_hygiene import has_words
from kgdiff.export.words.name_ids import entity_ids, name_ids
from kgdiff.export.words.names_cache import ensure_names_cache
from kgdiff.export.words.option_kinds import value_kinds, wanted_kinds
from kgdiff.sqlfiles import load_sql, render
from kgdiff.valuetext import in_language, is_entity, text_language, value_texts


@dataclass(frozen=True)
class Name:
    """An entity's label, aliases and classes (P31, then P279) in the language of the
    export, whether its label takes "the" in the middle of a sentence, and its number of
    sitelinks (articles in Wikimedia projects)."""

    label: str
    aliases: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    definite: bool = False
    sitelinks: int = 0
    located: bool = False
    """Whether a snapshot gives it a coordinate location (P625): a place."""
    outranked: bool = False
    """Whether another item of its label's snapshot has the same label with at least as
    many sitelinks: the label names that one first ("Alexandria" beside Alexandria,
    Egypt)."""


class Names:
    """Labels and aliases of entity ids, and the texts of any value key."""

    def __init__(self, names: dict[str, Name], lang: str | None = None) -> None:
        self._names = names
        self._lang = lang
        """The export's language: a monolingual text in another has no words in it."""
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
        the export's current date), in ``lang``; whether each label takes "the" is read from
        the lead of its article on ``<lang>wiki`` when the store has one."""
        wanted = entity_ids(ids)
        if wanted.is_empty():
            return cls({})
        params = {"snapshot": snapshot, "lang": lang, "first": wanted[0], "last": wanted[-1]}
        # registered first: DuckDB refuses a registration while a result is unfinished
        with name_ids(connection, wanted):
            query = render("export/entity_names", names=ensure_names_cache(connection, lang))
            rows = connection.execute(query, params).fetchall()
            leads = _leads(connection, [row[0] for row in rows], f"{lang}wiki")
        return cls({row[0]: name_of_row(row, leads.get(row[0])) for row in rows})

    def merge(self, other: Names) -> None:
        """Take the names ``other`` read (texts worked out before are worked out again)."""
        self._names.update(other._names)
        self._texts.clear()

    def ids(self) -> list[str]:
        """The entity ids named, in the order they were read."""
        return list(self._names)

    def subset(self, ids: Iterable[str]) -> Names:
        """The names of those of ``ids`` named here."""
        return Names({qid: self._names[qid] for qid in ids if qid in self._names}, self._lang)

    def label(self, qid: str) -> str | None:
        """The label of an entity id, or None when the store has none in the language."""
        name = self._names.get(qid)
        return name.label if name else None

    def sitelinks(self, qid: str) -> int | None:
        """An entity's number of sitelinks, or None when the store has no name for it."""
        name = self._names.get(qid)
        return name.sitelinks if name else None

    def located(self, qid: str) -> bool:
        """Whether an entity has a coordinate location (P625) in its label's snapshot."""
        name = self._names.get(qid)
        return name.located if name else False

    def outranked(self, qid: str) -> bool:
        """Whether another item of an entity's label's snapshot has its label with at least
        as many sitelinks (the label names that item first)."""
        name = self._names.get(qid)
        return name.outranked if name else False

    def classes(self, value: str) -> tuple[str, ...]:
        """The kind keys of a value (:mod:`kgdiff.export.words.option_kinds`): an entity's classes
        (P31, then P279), another value's written form, unit or language."""
        name = self._names.get(value)
        if name is not None:
            return name.classes
        return () if is_entity(value) else value_kinds(value)

    def wanted(self, value: str) -> tuple[str, ...]:
        """The kind keys a gold ``value`` accepts distractors of (its own first)."""
        return wanted_kinds(value, self.classes(value))

    def phrase(self, value: str) -> str | None:
        """How a value reads in the middle of a sentence: an entity's label with "the" when
        it takes one ("the Black Sea"), another value's main text; None without words."""
        name = self._names.get(value)
        if name is not None:
            return with_article(name.label, name.definite)
        return self.main_text(value)

    def texts(self, value: str) -> list[str]:
        """Every text naming ``value``, its main one first, without repeats, blank or
        symbol-only ones: an entity's label then its aliases; another value's rendering(s).
        Empty when it has no words. (The list is shared: copy it to change it.)"""
        known = self._texts.get(value)
        if known is None:
            known = self._texts[value] = self.fresh_texts(value)
        return known

    def fresh_texts(self, value: str) -> list[str]:
        """:meth:`texts`, worked out without keeping it (for values named once, in bulk)."""
        name = self._names.get(value)
        if name is not None:
            return _unique([name.label, *name.aliases])
        code = text_language(value)
        if code is not None and self._lang is not None and not in_language(code, self._lang):
            return []  # "Петроград" answers no question asked in English
        return _unique(deep_time_first(value_texts(value, self.label)))

    def main_text(self, value: str) -> str | None:
        """The one text a value is shown by (an entity's label), or None."""
        texts = self.texts(value)
        return texts[0] if texts else None


def name_of_row(row: tuple[Any, ...], lead: str | None) -> Name:
    """A row of ``sql/export/entity_names.sql`` as a :class:`Name` (with the lead of the
    entity's article, if any): only the aliases that name the entity are kept."""
    _qid, label, aliases, alias_words, label_words, own_words, attested, inside, *rest = row
    classes, sitelinks, located, outranked = rest
    kept: tuple[str, ...] = ()
    if aliases:
        others = OtherNames(
            frozenset(label_words or ()),
            tuple(own_words or ()),
            frozenset(attested or ()),
            tuple(inside or ()),
        )
        kept = naming_aliases(aliases, alias_words, others)
    return Name(
        label,
        kept,
        tuple(classes),
        takes_article(label, classes, lead),
        int(sitelinks or 0),
        bool(located),
        bool(outranked),
    )


def _leads(connection: duckdb.DuckDBPyConnection, ids: list[str], site: str) -> dict[str, str]:
    """The lead of each entity's article on ``site`` (empty without Wikipedia pages)."""
    if not ids:
        return {}
    found = connection.execute(load_sql("export/wikipedia_latest"), {"wiki": site}).fetchall()
    if not found or found[0][0] is None:
        return {}
    params = {"site": site, "wiki_snapshot": found[0][0]}
    # the ids named, within the query's own registration of them (Names.read)
    rows = connection.execute(load_sql("export/entity_leads"), params).fetchall()
    return {str(qid): str(lead) for qid, lead in rows}


def _unique(texts: Iterable[str]) -> list[str]:
    """The texts that have words (no blank or symbol-only one: :func:`has_words`), each once."""
    return list(dict.fromkeys(text for text in texts if has_words(text)))


def texts_of(names: Names, values: Sequence[str]) -> list[str]:
    """Every text of every value, in order, without repeats."""
    if len(values) == 1:  # most groups have one value: its texts are already unique
        return list(names.texts(values[0]))
    return list(dict.fromkeys(text for value in values for text in names.texts(value)))


def main_texts_of(names: Names, values: Sequence[str]) -> list[str]:
    """The main text of every value that has one, in order, without repeats."""
    found = (texts[0] for value in values if (texts := names.texts(value)))
    return list(dict.fromkeys(found))
