"""What the relation catalogue holds: one :class:`Relation` per Wikidata property, in a
:class:`RelationCatalogue` (docs/relations.md describes every field)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from kgdiff.export.relations.agreement import plural_template
from kgdiff.export.relations.phrasing import date_phrase
from kgdiff.export.relations.templates import render


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
    """A relation's templates (:mod:`kgdiff.export.relations.templates` says which
    placeholders each one takes); the ``_at`` ones anchor the fact in a year, the ``_past``
    ones (optional) speak of a subject that no longer exists."""

    question: str
    cloze: str
    statement: str
    question_at: str
    cloze_at: str
    statement_at: str
    question_past: str | None = None
    cloze_past: str | None = None
    statement_past: str | None = None

    def of(self, kind: str, past: bool = False, plural: bool = False) -> str:
        """The template of ``kind`` (``question``, ``cloze``, ``statement`` or an ``_at``
        kind); with ``past``, its past-tense form when the relation has one; with ``plural``,
        its verbs agreeing with a plural subject (:mod:`kgdiff.export.relations.agreement`)."""
        found: str | None = getattr(self, f"{kind}_past", None) if past else None
        template = found if found is not None else str(getattr(self, kind))
        return plural_template(template) if plural else template


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
    not_asked_of: tuple[str, ...] = ()
    """Classes (QIDs) of subjects the relation is not asked of: a subject that is an
    instance (P31) of one would give its own answer (P17 "country" of a country)."""
    places_only: bool = False
    """Asked only of subjects with a coordinate location (P625): "Which country is … in?"
    fits a city, not a band or an anthem."""
    fixed: bool = False
    """The fact does not change once it holds (a date or place of death, a parent, an
    author): it is not asked year by year (the ``pools`` config)."""
    dated_objects: bool = False
    """The objects are states or places that exist from their inception (P571) on: a record
    whose gold began after its subject ended, or after the year it asks about, is left out
    (:mod:`kgdiff.export.rules.existence`)."""
    asked: bool = True
    """False: the catalogue keeps the relation's wording but no benchmark asks about it
    (the shipped official website, P856, whose answers give themselves away)."""

    def question(self, subject: str, past: bool = False, plural: bool = False) -> str:
        """The open question about ``subject`` (its label as it reads in a sentence: "the
        Netherlands"); ``past`` for a subject that no longer exists, ``plural`` for one that
        takes a plural verb ("the Pennine Alps")."""
        return render(self.templates.of("question", past, plural), subject=subject)

    def cloze(self, subject: str, past: bool = False, plural: bool = False) -> str:
        """The sentence an answer completes."""
        return render(self.templates.of("cloze", past, plural), subject=subject)

    def statement(self, subject: str, object: str, past: bool = False, plural: bool = False) -> str:
        """The true/false statement that ``object`` (its words; a date, for a time
        relation) is the subject's value."""
        template = self.templates.of("statement", past, plural)
        return render(template, subject=subject, object=object, when=date_phrase(object))

    def question_at(self, subject: str, year: int | str, plural: bool = False) -> str:
        """The open question about ``subject`` in ``year``."""
        template = self.templates.of("question_at", plural=plural)
        return render(template, subject=subject, year=year)

    def cloze_at(self, subject: str, year: int | str, plural: bool = False) -> str:
        """The sentence an answer completes, in ``year``."""
        return render(self.templates.of("cloze_at", plural=plural), subject=subject, year=year)

    def statement_at(self, subject: str, object: str, year: int | str, plural: bool = False) -> str:
        """The true/false statement that ``object`` was the subject's value in ``year``."""
        return render(
            self.templates.of("statement_at", plural=plural),
            subject=subject,
            object=object,
            year=year,
            when=date_phrase(object),
        )


@dataclass(frozen=True)
class RelationCatalogue:
    """The relations by property id, in the order of the file that gave them. A relation
    marked ``asked = false`` is in :meth:`every` alone: for the export, the catalogue has no
    relation of its property."""

    relations: Mapping[str, Relation]
    source: str = field(default="", compare=False)
    """What the catalogue was read from (the shipped file, or the user's and the shipped)."""

    def __getitem__(self, pid: str) -> Relation:
        found = self.get(pid)
        if found is None:
            raise KeyError(pid)
        return found

    def __contains__(self, pid: object) -> bool:
        found = self.relations.get(pid) if isinstance(pid, str) else None
        return found is not None and found.asked

    def __iter__(self) -> Iterator[Relation]:
        return (relation for relation in self.relations.values() if relation.asked)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def get(self, pid: str) -> Relation | None:
        """The relation of ``pid``, or None when the catalogue has none it asks about."""
        found = self.relations.get(pid)
        return found if found is not None and found.asked else None

    def every(self) -> Iterator[Relation]:
        """Every relation of the file, those not asked about too."""
        return iter(self.relations.values())

    @property
    def pids(self) -> list[str]:
        """The property ids asked about, in the catalogue's order."""
        return [relation.pid for relation in self]

    def hop_map(self) -> dict[str, list[str]]:
        """The relation map of multi-hop chains (``{"P36": ["P6", ...], ...}``): each
        relation that has next hops, in the catalogue's order."""
        return {r.pid: list(r.next_hops) for r in self if r.next_hops}
