"""Distractors: objects of the same relation elsewhere in the store, of the answer's type.

A record is offered candidates in tiers, each drawn in an order fixed by the record's id (no
seed moves it): objects of the same relation that share a class with the answer (its P31
classes, then the relation's ``object_class``; a time's precision stands for its class); any
object of the same relation; objects of other relations of the same object type that share
such a class; and, for dates, quantities and strings, any value of that type. The option
builder (:mod:`kgdiff.export.options`) keeps those that read differently from every answer.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import polars as pl

from kgdiff.export.names import Names
from kgdiff.export.relation_model import ObjectType, RelationCatalogue
from kgdiff.export.seeded import fixed_rng

DRAWS_PER_TIER = 64
"""How many candidates a tier offers a record at most (a few are enough; a big relation's
objects are sampled, not ranked, so a record costs the same whatever the store's size)."""


@dataclass(frozen=True)
class Candidate:
    """An object that may be offered as a distractor."""

    value: str
    text: str


def _draw(items: Sequence[Candidate], rng: random.Random) -> Iterator[Candidate]:
    """Candidates of a tier in random order, drawn only as they are asked for: a small tier
    is shuffled step by step (each candidate once), a large one sampled with replacement
    (the caller skips repeats), so a record that needs one distractor pays for one draw."""
    count = len(items)
    if count > DRAWS_PER_TIER:
        for _ in range(DRAWS_PER_TIER):
            yield items[rng.randrange(count)]
        return
    order = list(range(count))
    for place in range(count):
        pick = rng.randrange(place, count)
        order[place], order[pick] = order[pick], order[place]
        yield items[order[place]]


class NoisePool:
    """The candidates of every relation, by relation, class and object type."""

    def __init__(self, catalogue: RelationCatalogue) -> None:
        self._catalogue = catalogue
        self._by_pid: dict[str, list[Candidate]] = defaultdict(list)
        self._by_pid_class: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        self._by_type: dict[ObjectType, list[Candidate]] = defaultdict(list)
        self._by_type_class: dict[tuple[ObjectType, str], list[Candidate]] = defaultdict(list)

    @classmethod
    def of(cls, pairs: pl.DataFrame, names: Names, catalogue: RelationCatalogue) -> NoisePool:
        """The pool of the (``pid``, ``value``) rows of ``pairs`` that have words (taken
        distinct and sorted, so the pool does not depend on the order of the rows)."""
        pool = cls(catalogue)
        distinct = pairs.select("pid", "value").unique().sort("pid", "value")
        for pid, value in distinct.iter_rows():
            relation = catalogue.get(pid)
            text = names.main_text(value)
            if relation is None or text is None:
                continue
            candidate = Candidate(value, text)
            kind = relation.object_type
            pool._by_pid[pid].append(candidate)
            pool._by_type[kind].append(candidate)
            for name in names.classes(value):
                pool._by_pid_class[(pid, name)].append(candidate)
                pool._by_type_class[(kind, name)].append(candidate)
        return pool

    def _tiers(self, pid: str, classes: Sequence[str]) -> Iterator[Sequence[Candidate]]:
        kind = self._catalogue[pid].object_type
        for name in classes:
            yield self._by_pid_class.get((pid, name), [])
        yield self._by_pid.get(pid, [])
        for name in classes:
            yield self._by_type_class.get((kind, name), [])
        if kind is not ObjectType.ITEM:
            yield self._by_type.get(kind, [])

    def offer(
        self, record_id: str, pid: str, classes: Sequence[str], exclude: Iterable[str]
    ) -> Iterator[str]:
        """Distractor texts for a record, most wanted first, none of the values ``exclude``
        (the group's own answers); ``classes`` are the answer's classes, preferred first."""
        rng = fixed_rng(record_id, "noise")
        seen = set(exclude)
        for tier in self._tiers(pid, classes):
            for candidate in _draw(tier, rng):
                if candidate.value not in seen:
                    seen.add(candidate.value)
                    yield candidate.text
