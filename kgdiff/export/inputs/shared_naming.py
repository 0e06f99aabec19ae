"""The words, subjects' facts and distractor tiers that the configs of one export share,
read once.

Every config names values (labels, aliases, classes: :mod:`kgdiff.export.words.names`): the words of
its answers (:mod:`kgdiff.export.words.word_frames`, with the roles of the people among them:
:mod:`kgdiff.export.distractors.human_roles`) and what the rules read of its subjects
(:func:`~kgdiff.export.rules.salience.entity_facts`), and draws distractors from the same tiers of
the classification's answers (:mod:`kgdiff.export.distractors.noise_frames`, each tier of bounded
size: :mod:`kgdiff.export.distractors.tier_caps`), none of them a value its subject holds
(:mod:`kgdiff.export.distractors.subject_truths`), nor, for a record asked about a year, a person
not alive in it (:mod:`kgdiff.export.distractors.lifespans`: the dates read as records need them,
each id once). An export names each value and subject once per snapshot, whichever config asks
first, in one pass over the store's names whose Python objects live a chunk at a time
(:mod:`kgdiff.export.words.name_stream`): what it keeps are frames (~100 bytes a value, where the
names took ~600 as Python objects), written to disk as each chunk is named
(:mod:`kgdiff.export.inputs.named_spill`) and read back for the values a part of a config asks
about (:meth:`SharedNaming.words_named`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TypeVar

import polars as pl

from kgdiff.export.core.duckdb_bounds import release_duckdb
from kgdiff.export.core.leftovers import SpillFolder
from kgdiff.export.core.sorted_search import among_sorted
from kgdiff.export.distractors.class_members import class_members, small_classes
from kgdiff.export.distractors.human_roles import with_roles
from kgdiff.export.distractors.lifespans import Lifespans
from kgdiff.export.distractors.noise_frames import DRAWS
from kgdiff.export.distractors.noise_tiers import NoiseTiers
from kgdiff.export.distractors.store_facts import StoreFacts
from kgdiff.export.distractors.tier_build import KINDS_SCHEMA
from kgdiff.export.distractors.tier_caps import tier_cap
from kgdiff.export.inputs.entity_states import EntityStates
from kgdiff.export.inputs.group_file import GroupFile
from kgdiff.export.inputs.named_spill import NamedSpill
from kgdiff.export.inputs.read_ahead import ReadAhead
from kgdiff.export.records.choice_frames import ChoiceSetting
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.salience import ENTITY_SCHEMA, entity_facts
from kgdiff.export.words.name_stream import CHUNK, named_chunks
from kgdiff.export.words.names import Names
from kgdiff.export.words.word_frames import WORDS_SCHEMA, value_words
from kgdiff.query.graph import KnowledgeGraph

TIER_WORDS = ["value", "main", "main_form", "phrase", "forms", "classes"]
"""The columns of a value's words its distractor candidacy reads
(:meth:`~kgdiff.export.distractors.noise_tiers.NoiseTiers.built`)."""
_FACTS = "distractor facts"
"""The read ahead of what the subjects hold (:meth:`SharedNaming.facts`)."""
_Read = TypeVar("_Read")


def quantity_units(values: pl.Series) -> pl.Series:
    """The units of the quantities among ``values`` (``amount|unit``): named with them."""
    units = values.filter(values.str.count_matches("|", literal=True) == 1)
    return units.str.split("|").list.get(1)


def _within(wanted: pl.Series, named: list[str]) -> pl.Series:
    """Those of the sorted ``wanted`` that are among ``named`` (sorted ids of one chunk:
    only the slice of ``wanted`` between its first and last is looked at)."""
    start = wanted.search_sorted(named[0], side="left")
    end = wanted.search_sorted(named[-1], side="right")
    found = wanted.slice(start, end - start)
    return found.filter(found.is_in(pl.Series(named, dtype=pl.String()).implode()))


def _unnamed(wanted: pl.Series, named: pl.Series) -> Iterator[list[str]]:
    """Those of ``wanted`` not among ``named`` (values that are not entities, entities the
    store gives no label), :data:`~kgdiff.export.words.name_stream.CHUNK` at a time."""
    left = wanted.filter(~wanted.is_in(named.implode()))
    for start in range(0, left.len(), CHUNK):
        yield left.slice(start, CHUNK).to_list()


def _series(ids: Iterable[str] | pl.Series) -> pl.Series:
    return ids if isinstance(ids, pl.Series) else pl.Series(list(ids), dtype=pl.String())


def answer_pairs(groups: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """Every (``pid``, ``value``) of the groups' answers, distinct, sorted: the distractors'
    pool. Streamed: the groups (on disk: :mod:`kgdiff.export.inputs.group_file`) are read a
    batch at a time, and only the distinct pairs are held (exploding the (``pid``, ``value``)
    rows of every group at once took 0.77 GB for 2.7 M pairs at 3 × 50 M statements)."""
    answers = groups.lazy().select("pid", pl.col("all_answers").alias("value"))
    pairs = answers.explode("value").drop_nulls().unique()
    found = pairs.collect(engine="streaming").sort("pid", "value")
    return found.cast({"pid": pl.String(), "value": pl.String()})


class SharedNaming:
    """One export's words and subjects per snapshot and its distractor pool, filled as
    configs ask."""

    def __init__(
        self,
        kg: KnowledgeGraph,
        groups: GroupFile,
        catalogue: RelationCatalogue,
        lang: str,
        spill: Path | None = None,
    ) -> None:
        self._kg, self._groups, self._catalogue, self._lang = kg, groups, catalogue, lang
        self.spill = spill
        """The folder the export keeps what it spills in (None: the system's temporary one)."""
        self.ahead = ReadAhead()
        """The export's reads ahead (names, a large query, wait for the one running)."""
        self._pairs: pl.DataFrame | None = None
        self._answer_values: pl.Series | None = None  # the pairs' values, distinct, sorted
        # what was named, per snapshot, on disk in ``spill`` (the system's temporary folder
        # when None): kgdiff.export.inputs.named_spill
        self._words = NamedSpill("value", WORDS_SCHEMA, spill)
        self._entities = NamedSpill("subject", ENTITY_SCHEMA, spill)
        self._tiers: dict[str | None, NoiseTiers] = {}
        self._answers_named: set[str | None] = set()  # the snapshots :meth:`pairs` are named in
        self._facts: StoreFacts | None = None
        self._facts_asked = False
        self._truths_folder: SpillFolder | None = None  # the truths and role keys, on disk
        self._cap = tier_cap()
        self.states = EntityStates(kg, self.ahead, spill)
        """The entities' dates and ends (existence, lifespans, whether they ended)."""
        self._lifespans = Lifespans(self.states.lifespans)

    def release(self) -> None:
        """Let go of what is held for the configs (the groups' file, the distractors' pool and
        tiers, the store's facts about values, their lifespans); what was named on disk stays
        until :meth:`close`."""
        self._groups.close()
        self._pairs, self._facts, self._facts_asked = None, None, False
        self._answer_values = None
        self._drop_truths()
        self._tiers.clear()
        self._lifespans = Lifespans(self.states.lifespans)

    def close(self) -> None:
        """Remove what was named from disk (after the export)."""
        self._words.close()
        self._entities.close()
        self._groups.close()
        self._drop_truths()
        self.states.close()

    def _drop_truths(self) -> None:
        if self._truths_folder is not None:
            self._truths_folder.close()
            self._truths_folder = None

    def read(
        self,
        snapshot: str | None,
        values: Iterable[str] | pl.Series = (),
        subjects: Iterable[str] | pl.Series = (),
        answers: bool = False,
    ) -> None:
        """Name, as of ``snapshot``, the ``values`` (their words: :meth:`words_for`) and the
        ``subjects`` (:meth:`subjects`) not named before, in one pass over the store's names
        (the units of quantities read with them), each chunk's words and subjects kept on
        disk as it is named; with ``answers`` the values of :meth:`pairs` too (looked for
        among those named once per snapshot and pairs: 3 M values at 3 × 25 M statements,
        which every range of ``pools`` asks for)."""
        values = _series(values)
        if answers and snapshot not in self._answers_named:
            values = pl.concat([values.cast(pl.String()), self.pairs().get_column("value")])
        values = self._words.missing(snapshot, values)
        subjects = self._entities.missing(snapshot, _series(subjects))
        if not (values.is_empty() and subjects.is_empty()):
            self._name(snapshot, values, subjects)
        if answers:
            self._answers_named.add(snapshot)

    def _name(self, snapshot: str | None, values: pl.Series, subjects: pl.Series) -> None:
        """Name the ``values`` and ``subjects`` (distinct, sorted, none named before) as of
        ``snapshot``, in one pass (:meth:`read`)."""
        units = quantity_units(values).unique().sort()
        ids = pl.concat([values, units, subjects]).unique()
        named, book = [], Names({}, self._lang)
        with self.ahead.exclusive():
            for names in named_chunks(self._kg, ids, snapshot, self._lang):
                found = sorted(names.ids())
                self._words.add(snapshot, value_words(names, _within(values, found).to_list()))
                self._entities.add(
                    snapshot, entity_facts(names, _within(subjects, found).to_list())
                )
                book.merge(names.subset(_within(units, found).to_list()))
                named.append(pl.Series(found, dtype=pl.String()))
        self._ask_facts()  # read while the values without a name get their words
        done = pl.concat([pl.Series(dtype=pl.String()), *named])
        for chunk in _unnamed(values, done):
            self._words.add(snapshot, value_words(book, chunk))
        for chunk in _unnamed(subjects, done):
            self._entities.add(snapshot, entity_facts(Names({}), chunk))

    def subjects(self, ids: Iterable[str] | pl.Series, snapshot: str | None) -> pl.DataFrame:
        """What the rules read of each distinct subject of ``ids`` (its name's
        :data:`~kgdiff.export.rules.salience.ENTITY_COLUMNS`), named as of ``snapshot``, sorted."""
        self.read(snapshot, subjects=ids)
        return self.subjects_named(ids, snapshot)

    def subjects_named(self, ids: Iterable[str] | pl.Series, snapshot: str | None) -> pl.DataFrame:
        """:meth:`subjects` of those of ``ids`` named before (none is read): what a part of a
        config's records looks up, once the config has named every subject it asks about."""
        return self._entities.of(snapshot, _series(ids))

    def pairs(self) -> pl.DataFrame:
        """:func:`answer_pairs` of the export's groups (and those :meth:`add_pairs` added)."""
        if self._pairs is None:
            self._pairs = answer_pairs(self._groups.rows())
        return self._pairs

    def among_answers(self, values: pl.Series) -> pl.Series:
        """Those of the distinct ``values`` that are values of :meth:`pairs`, found by a
        binary search of the pairs' values (sorted once): a hash set of millions of answers
        built again for each part of a config cost as much as the part's own values."""
        if self._answer_values is None:
            self._answer_values = self.pairs().get_column("value").unique().sort()
        return among_sorted(values, self._answer_values)

    def add_pairs(self, pairs: pl.DataFrame) -> None:
        """Take (``pid``, ``value``) rows a config asks about besides the classification's
        answers (the ``temporal`` config's statements) into the distractors' pool; the tiers
        are built again only when some are new."""
        known = self.pairs()
        new = pairs.select("pid", "value").unique().join(known, on=["pid", "value"], how="anti")
        if new.height:
            self._pairs = pl.concat([known, new.drop_nulls()])
            self._answer_values = None
            self._tiers.clear()
            self._answers_named.clear()

    def words_for(self, values: Iterable[str] | pl.Series, snapshot: str | None) -> pl.DataFrame:
        """The words of the distinct ``values`` alone as of ``snapshot`` (read if not before),
        sorted by value."""
        self.read(snapshot, values=values)
        return self.words_named(values, snapshot)

    def words_named(self, values: Iterable[str] | pl.Series, snapshot: str | None) -> pl.DataFrame:
        """The words of those of ``values`` named before as of ``snapshot`` (none is read),
        sorted by value: what a part of a config's records looks up, once the config has named
        every value it asks about."""
        return self._with_roles(self._words.of(snapshot, _series(values)))

    def texts_named(self, values: pl.Series, snapshot: str | None) -> pl.DataFrame:
        """What the distractor tiers keep of the words of those of ``values`` named before
        (:data:`TIER_WORDS`, sorted by value): their texts and classes, without the people's
        role keys, which only the tiers' keys read (:meth:`_kinds`): at 3 × 50 M statements,
        reading the whole words of the tiers' 1.25 M candidates with their roles was a peak of
        ``temporal`` (0.3 GB over this read)."""
        return self._words.of(snapshot, values, TIER_WORDS)

    def _with_roles(self, words: pl.DataFrame) -> pl.DataFrame:
        """``words`` with the role keys of the people among them (:func:`with_roles`): applied
        as words are read back, so that the chunks are kept as they are named, while what the
        subjects hold is still being read."""
        return with_roles(words, self.facts().role_keys)

    def _ask_facts(self) -> None:
        """Start reading what the subjects hold (:meth:`facts`) in the background."""
        if self._facts is None and not self._facts_asked:
            self._facts_asked = True
            self.ahead.submit(_FACTS, self._read_facts)

    def _read_facts(self) -> StoreFacts:
        if self._truths_folder is None:
            self._truths_folder = SpillFolder(self.spill)
        with self._kg.connection() as connection:
            return StoreFacts.read(connection, self._catalogue, self._truths_folder.path)

    def facts(self) -> StoreFacts:
        """What the subjects hold and the people's roles (read once, in any snapshot)."""
        if self._facts is None:
            self._facts = self.ahead.take(_FACTS, self._exclusively(self._read_facts))
        return self._facts

    def _exclusively(self, read: Callable[[], _Read]) -> Callable[[], _Read]:
        def held() -> _Read:
            with self.ahead.exclusive():
                return read()

        return held

    def tiers(self, snapshot: str | None) -> NoiseTiers:
        """The distractor tiers of the groups' answers (and of the store's items of classes
        too few answers share), for records built column by column, each of at most the
        export's cap of candidates (:mod:`kgdiff.export.distractors.tier_caps`), built a file
        of named values at a time (:meth:`NoiseTiers.built`)."""
        found = self._tiers.get(snapshot)
        if found is None:
            members = self._members(snapshot)
            self.read(snapshot, values=members)
            facts = self.facts()
            found = NoiseTiers.built(
                self.pairs(), self._kinds(snapshot), partial(self.texts_named, snapshot=snapshot),
                self._catalogue, members, facts.truths, facts.typical, self._cap, self._lifespans,
            )  # fmt: skip
            self._tiers[snapshot] = found
            with self.ahead.exclusive():
                release_duckdb(self._kg)  # what reading the facts and class members freed
        return found

    def _kinds(self, snapshot: str | None) -> Iterator[pl.DataFrame]:
        """The kind keys (with the people's roles) of the values named with words, a file at
        a time (:data:`~kgdiff.export.distractors.tier_build.KINDS_SCHEMA`)."""
        for batch in self._words.batches(snapshot, ["value", "main", "classes", "wanted"]):
            named = self._with_roles(batch.drop_nulls("main"))
            yield named.select(KINDS_SCHEMA.names())

    def _members(self, snapshot: str | None) -> list[str]:
        """Items of the classes fewer than :data:`~kgdiff.export.distractors.noise_frames.DRAWS`
        answers share (:func:`small_classes`), up to as many each."""
        self.read(snapshot, answers=True)
        # classes alone: the people's role keys are no class
        batches = self._words.batches(snapshot, ["value", "classes"])
        classes = small_classes(self.pairs(), batches, self._catalogue, DRAWS)
        if not classes:
            return []
        with self.ahead.exclusive(), self._kg.connection() as connection:
            return class_members(connection, classes, DRAWS, snapshot)

    def choices(
        self, snapshot: str | None, seed: int, options: int, words: pl.DataFrame
    ) -> ChoiceSetting:
        """The setting of column-wise choices: the ``words`` the records look up
        (:meth:`words_named`) and :meth:`tiers`."""
        return ChoiceSetting(seed, options, self._catalogue, words, self.tiers(snapshot))
