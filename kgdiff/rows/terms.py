"""Rows of the multilingual tables: labels (with descriptions, aliases, lemmas) and sitelinks.

These tables have many short rows (a popular item has hundreds), so rows are
kept column-wise and the qid column is built at the end from an index into the
batch's entities instead of repeating a Python string per row.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from kgdiff.readers.entity_model import Entity, Term

KINDS = ("label", "description", "alias", "lemma")
LABEL, DESCRIPTION, ALIAS, LEMMA = range(4)


def english(terms: dict[str, Term] | list[Any]) -> str | None:
    """The English value of a term map, if any."""
    if isinstance(terms, dict):
        term = terms.get("en")
        return term.value if term is not None else None
    return None


class TermColumns:
    """Column lists of the labels and sitelinks part tables for one batch."""

    def __init__(self) -> None:
        self.term_entity: list[int] = []
        self.term_kind: list[int] = []
        self.term_lang: list[str] = []
        self.term_value: list[str] = []
        self.term_ordinal: list[int] = []
        self.link_entity: list[int] = []
        self.link_site: list[str] = []
        self.link_title: list[str] = []
        self.link_badges: list[list[str]] = []

    def _add_map(self, index: int, kind: int, terms: dict[str, Term] | list[Any]) -> None:
        if not isinstance(terms, dict) or not terms:
            return
        count = len(terms)
        langs = sorted(terms)
        self.term_entity.extend([index] * count)
        self.term_kind.extend([kind] * count)
        self.term_lang.extend(langs)
        self.term_value.extend([terms[lang].value for lang in langs])
        self.term_ordinal.extend([0] * count)

    def _add_aliases(self, index: int, aliases: dict[str, list[Term]] | list[Any]) -> None:
        if not isinstance(aliases, dict):
            return
        for lang in sorted(aliases):
            terms = aliases[lang]
            count = len(terms)
            self.term_entity.extend([index] * count)
            self.term_kind.extend([ALIAS] * count)
            self.term_lang.extend([lang] * count)
            self.term_value.extend([term.value for term in terms])
            self.term_ordinal.extend(range(count))

    def _add_sitelinks(self, index: int, entity: Entity) -> None:
        links = entity.sitelinks
        if not isinstance(links, dict) or not links:
            return
        sites = sorted(links)
        self.link_entity.extend([index] * len(links))
        self.link_site.extend(sites)
        for site in sites:
            link = links[site]
            self.link_title.append(link.title)
            self.link_badges.append(link.badges)

    def add(self, index: int, entity: Entity) -> None:
        """Append every term and sitelink of the entity at ``index`` in the batch, in the
        published order (kind name, language, alias ordinal; site): finalize then only has
        to order whole entities (:mod:`kgdiff.store.subject_runs`)."""
        self._add_aliases(index, entity.aliases)
        self._add_map(index, DESCRIPTION, entity.descriptions)
        self._add_map(index, LABEL, entity.labels)
        self._add_map(index, LEMMA, entity.lemmas)
        self._add_sitelinks(index, entity)

    def to_tables(self, entities: pa.Table, schemas: dict[str, pa.Schema]) -> dict[str, pa.Table]:
        """The entities (``entities`` with each one's count of label rows), labels and
        sitelinks tables (see :func:`indexed_term_tables`)."""
        labels = [
            pa.array(self.term_entity, pa.int32()),
            pa.array(self.term_kind, pa.int8()),
            pa.array(self.term_lang, pa.string()),
            pa.array(self.term_value, pa.string()),
            pa.array(self.term_ordinal, pa.int32()),
        ]
        sitelinks = [
            pa.array(self.link_entity, pa.int32()),
            pa.array(self.link_site, pa.string()),
            pa.array(self.link_title, pa.string()),
            pa.array(self.link_badges, pa.list_(pa.string())),
        ]
        return indexed_term_tables(entities, labels, sitelinks, schemas)


def label_rows(entities: pa.Table, entity: pa.Array) -> pa.Table:
    """``entities`` with the column ``label_rows``: how many of the labels rows (whose
    entity indexes are ``entity``) each has."""
    counts = np.bincount(entity.to_numpy(), minlength=entities.num_rows).astype(np.int32)
    return entities.append_column(pa.field("label_rows", pa.int32()), pa.array(counts))


def indexed_term_tables(
    entities: pa.Table,
    labels: list[pa.Array],
    sitelinks: list[pa.Array],
    schemas: dict[str, pa.Schema],
) -> dict[str, pa.Table]:
    """The entities, labels and sitelinks part tables from the builders' entity rows and
    label and sitelink columns that start with the entity's index in the batch (and, for
    labels, the kind's index in :data:`KINDS`) instead of qid and kind."""
    qids = entities.column("qid").combine_chunks()
    entity, kind, *label_rest = labels
    kinds = pa.array(KINDS, pa.string()).take(kind)
    link_entity, *link_rest = sitelinks
    return {
        "entities": label_rows(entities, entity),
        "labels": pa.Table.from_arrays(
            [qids.take(entity), kinds, *label_rest], schema=schemas["labels"]
        ),
        "sitelinks": pa.Table.from_arrays(
            [qids.take(link_entity), *link_rest], schema=schemas["sitelinks"]
        ),
    }
