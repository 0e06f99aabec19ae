"""The names, words and distractor tiers that the configs of one export share, read once.

Every config names values (labels, aliases, classes: :mod:`kgdiff.export.names`), and the
configs built column by column look up the words of every answer of the classified groups
once (:mod:`kgdiff.export.word_frames`) and draw distractors from the same tiers of them
(:mod:`kgdiff.export.noise_frames`). On a store of millions of groups reading the names takes
seconds and the tiers hundreds of megabytes: an export reads each name once per snapshot,
whichever config asks first, and builds the words and the tiers once.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from kgdiff.export.choice_frames import ChoiceSetting
from kgdiff.export.names import Names
from kgdiff.export.noise_frames import NoiseTiers
from kgdiff.export.read_ahead import ReadAhead
from kgdiff.export.relation_model import RelationCatalogue
from kgdiff.export.value_text import is_entity
from kgdiff.export.word_frames import value_words
from kgdiff.query.graph import KnowledgeGraph


def answer_pairs(groups: pl.DataFrame) -> pl.DataFrame:
    """Every (``pid``, ``value``) of the groups' answers, distinct: the distractors' pool."""
    exploded = groups.select("pid", pl.col("all_answers").alias("value")).explode("value")
    return exploded.drop_nulls().unique()


class SharedNaming:
    """One export's names per snapshot and its distractor pool, filled as configs ask."""

    def __init__(
        self, kg: KnowledgeGraph, groups: pl.DataFrame, catalogue: RelationCatalogue, lang: str
    ) -> None:
        self._kg, self._groups, self._catalogue, self._lang = kg, groups, catalogue, lang
        self.ahead = ReadAhead()
        """The export's reads ahead (names, a large query, wait for the one running)."""
        self._names: dict[str | None, Names] = {}
        self._asked: dict[str | None, set[str]] = {}
        self._pairs: pl.DataFrame | None = None
        self._words: dict[str | None, pl.DataFrame] = {}
        self._tiers: dict[str | None, NoiseTiers] = {}

    def names(self, ids: Iterable[str], snapshot: str | None) -> Names:
        """The names of ``snapshot`` with those of every entity id among ``ids`` read (each
        id is read from the store once: a later call reads only ids not asked before)."""
        book = self._names.setdefault(snapshot, Names({}))
        asked = self._asked.setdefault(snapshot, set())
        missing = {value for value in ids if value not in asked and is_entity(value)}
        if missing:
            with self.ahead.exclusive(), self._kg.connection() as connection:
                book.merge(Names.read(connection, missing, snapshot, self._lang))
            asked |= missing
        return book

    def pairs(self) -> pl.DataFrame:
        """:func:`answer_pairs` of the export's groups."""
        if self._pairs is None:
            self._pairs = answer_pairs(self._groups)
        return self._pairs

    def words(self, snapshot: str | None) -> pl.DataFrame:
        """The words of every answer of the groups (:func:`value_words`), named as of
        ``snapshot`` (their units' labels read first, as quantities are written with them)."""
        found = self._words.get(snapshot)
        if found is None:
            values = self.pairs().get_column("value")
            units = values.filter(values.str.count_matches("|", literal=True) == 1)
            ids = pl.concat([values, units.str.split("|").list.get(1)]).unique().to_list()
            names = self.names(ids, snapshot)
            found = self._words[snapshot] = value_words(names, values.to_list())
        return found

    def tiers(self, snapshot: str | None) -> NoiseTiers:
        """The distractor tiers of the groups' answers, for records built column by column."""
        found = self._tiers.get(snapshot)
        if found is None:
            words = self.words(snapshot)
            found = self._tiers[snapshot] = NoiseTiers.of(self.pairs(), words, self._catalogue)
        return found

    def choices(self, snapshot: str | None, seed: int, options: int) -> ChoiceSetting:
        """The setting of column-wise choices: :meth:`words` and :meth:`tiers`."""
        words, tiers = self.words(snapshot), self.tiers(snapshot)
        return ChoiceSetting(seed, options, self._catalogue, words, tiers)

    def words_of(self, values: Iterable[str], snapshot: str | None) -> pl.DataFrame:
        """:meth:`words` with those of ``values`` that are not answers of the groups (whose
        names, and their units', are read by the caller)."""
        known = self.words(snapshot)
        wanted = pl.DataFrame({"value": list(set(values))}, schema={"value": pl.String()})
        missing = wanted.join(known, on="value", how="anti").get_column("value").to_list()
        if not missing:
            return known
        extra = value_words(self.names(missing, snapshot), missing)
        found = self._words[snapshot] = pl.concat([known, extra])
        return found
