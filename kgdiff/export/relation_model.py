"""What the relation catalogue holds: one :class:`Relation` per Wikidata property, in a
:class:`RelationCatalogue` (docs/relations.md describes every field)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from kgdiff.export.relation_templates import render


class ObjectType(StrEnum):
    """What a relation's objects are: Wikidata items, points in time, quantities or strings
    (external ids, URLs and monolingual text are strings)."""

    ITEM = "item"
    TIME = "time"
    QUANTITY = "quantity"
    STRING = "string"


class ContextPage(StrEnum):
    """Whose Wikipedia page gives a fact's context: the subject's or the object's."""

    SUBJECT = "subject"
    OBJECT = "object"


@dataclass(frozen=True)
class Templates:
    """A relation's templates (:mod:`kgdiff.export.relation_templates` says which
    placeholders each one takes); the ``_at`` ones anchor the fact in a year."""

    question: str
    cloze: str
    statement: str
    question_at: str
    cloze_at: str
    statement_at: str


@dataclass(frozen=True)
class Relation:
    """One property: its label, its objects, its templates and the properties a chain may
    take after it."""

    pid: str
    label: str
    object_type: ObjectType
    multi_valued: bool
    context: ContextPage
    templates: Templates
    object_class: str | None = None
    """The class (a QID) an object is expected to be an instance of; items only."""
    next_hops: tuple[str, ...] = ()

    def question(self, subject: str) -> str:
        """The open question about ``subject`` (its label)."""
        return render(self.templates.question, subject=subject)

    def cloze(self, subject: str) -> str:
        """The sentence an answer completes."""
        return render(self.templates.cloze, subject=subject)

    def statement(self, subject: str, object: str) -> str:
        """The true/false statement that ``object`` is the subject's value."""
        return render(self.templates.statement, subject=subject, object=object)

    def question_at(self, subject: str, year: int | str) -> str:
        """The open question about ``subject`` in ``year``."""
        return render(self.templates.question_at, subject=subject, year=year)

    def cloze_at(self, subject: str, year: int | str) -> str:
        """The sentence an answer completes, in ``year``."""
        return render(self.templates.cloze_at, subject=subject, year=year)

    def statement_at(self, subject: str, object: str, year: int | str) -> str:
        """The true/false statement that ``object`` was the subject's value in ``year``."""
        return render(self.templates.statement_at, subject=subject, object=object, year=year)


@dataclass(frozen=True)
class RelationCatalogue:
    """The relations by property id, in the order of the file that gave them."""

    relations: Mapping[str, Relation]
    source: str = field(default="", compare=False)
    """What the catalogue was read from (the shipped file, or the user's and the shipped)."""

    def __getitem__(self, pid: str) -> Relation:
        return self.relations[pid]

    def __contains__(self, pid: object) -> bool:
        return pid in self.relations

    def __iter__(self) -> Iterator[Relation]:
        return iter(self.relations.values())

    def __len__(self) -> int:
        return len(self.relations)

    def get(self, pid: str) -> Relation | None:
        """The relation of ``pid``, or None when the catalogue has none."""
        return self.relations.get(pid)

    @property
    def pids(self) -> list[str]:
        """The property ids, in the catalogue's order."""
        return list(self.relations)

    def hop_map(self) -> dict[str, list[str]]:
        """The relation map of multi-hop chains (``{"P36": ["P6", ...], ...}``): each
        relation that has next hops, in the catalogue's order."""
        return {r.pid: list(r.next_hops) for r in self if r.next_hops}
