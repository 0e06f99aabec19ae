"""The words of the ``temporal`` config's questions about one statement (``timestamp``: when it
started or ended; ``interval``: how long it held) and of their true/false statements, as
polars expressions (docs/benchmark-export.md#the-temporal-config).

Three ways of saying it, the first that applies:

- relations of a subject's own life, with a verb of their own (:data:`SUBJECT_VERBS`):
  "On which date did Albert Einstein become a citizen of Switzerland?", "For how many years
  did Michelle Bachelet live in Potsdam?";
- an object that is a person, or that holds a role of the subject whatever it is
  (:data:`OBJECT_FIRST`: an owner, a parent organization, an operator), said first, as English
  speaks of an office or a marriage: "On which date did Abraham Lincoln stop being the head of
  government of the United States of America?", "For how many years was George W. Bush the
  head of state of the United States of America?", "In which year did Paris become the owner of
  the Eiffel Tower?" (not "did the Eiffel Tower's owner become Paris?");
- any other, with the subject's relation first: "In which year did Germany's capital become
  Berlin?", "For how many years was Germany's capital Bonn?".
"""

from __future__ import annotations

from typing import NamedTuple

import polars as pl

from kgdiff.export.relations.columns import possessives, sentence_starts
from kgdiff.export.temporal.setting import TemporalSetting

HUMAN = "Q5"
"""The class whose instances are said first (human)."""
ASKED = {9: "In which year", 10: "In which month and year", 11: "On which date"}
"""How a date is asked, by its precision."""


class Verbs(NamedTuple):
    """How a relation's start, end and length are said with its subject first, each before
    its object: the start in a question and in a statement, the end likewise, and the length
    as the question's auxiliary ("was", "did"), the question's words and the statement's."""

    start: str
    started: str
    end: str
    ended: str
    auxiliary: str
    held: str
    had: str


COMMON = Verbs("become", "became", "stop being", "stopped being", "was", "", "was")
"""The relation's own words after the subject's: "Germany's capital became Berlin"; "Abraham
Lincoln became the head of government of …" (the role is the object's)."""
MEMBER = Verbs("join", "joined", "leave", "left", "was", "a member of", "was a member of")
PART = Verbs(
    "become part of", "became part of", "stop being part of", "stopped being part of", "was",
    "part of", "was part of",
)  # fmt: skip
"""A place's country or territory: "On which date did Père Lachaise Cemetery become part of
Paris?", not "… did Père Lachaise Cemetery's administrative territory become Paris?"."""
SUBJECT_VERBS = {
    "P27": Verbs(
        "become a citizen of", "became a citizen of", "stop being a citizen of",
        "stopped being a citizen of", "was", "a citizen of", "was a citizen of",
    ),
    "P551": Verbs(
        "start living in", "started living in", "stop living in", "stopped living in", "did",
        "live in", "lived in",
    ),
    "P39": COMMON,
    "P54": Verbs("join", "joined", "leave", "left", "did", "play for", "played for"),
    "P108": Verbs(
        "start working for", "started working for", "stop working for", "stopped working for",
        "did", "work for", "worked for",
    ),
    "P69": Verbs(
        "start studying at", "started studying at", "stop studying at", "stopped studying at",
        "did", "study at", "studied at",
    ),
    "P102": MEMBER,
    "P463": MEMBER,
    "P17": PART,
    "P131": PART,
}  # fmt: skip
"""Relations said with their subject first and a verb of their own, by property."""
OBJECT_FIRST = frozenset({"P127", "P749", "P137"})
"""Relations whose object holds a role of the subject (owner, parent organization, operator),
said first as a person is: "did the Wikimedia Foundation become the owner of Wikipedia?"."""


def people(frame: pl.DataFrame, setting: TemporalSetting) -> pl.Expr:
    """Whether each row's object (``value``) is a person: of the class human in the store."""
    values = frame.select(pl.col("value").unique().drop_nulls())
    classes = setting.choices.words.select("value", "classes")
    found = values.join(classes, on="value").filter(pl.col("classes").list.contains(HUMAN))
    return pl.col("value").is_in(found.get_column("value").implode())


def _verb(field: str) -> pl.Expr:
    """Each row's words of ``field`` (:class:`Verbs`) of its relation's :data:`SUBJECT_VERBS`,
    or of :data:`COMMON`."""
    words = {pid: getattr(verbs, field) for pid, verbs in SUBJECT_VERBS.items()}
    default = getattr(COMMON, field)
    return pl.col("pid").replace_strict(words, default=default, return_dtype=pl.String)


def _said(*parts: pl.Expr) -> pl.Expr:
    """The parts, those with words, one space apart."""
    return pl.concat_list(*parts).list.eval(pl.element().filter(pl.element() != "")).list.join(" ")


def _order(person: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """What comes before the verb and what after it: the subject and the object, the person
    (or the holder of a role of :data:`OBJECT_FIRST`) and the role, or the subject's relation
    and the object."""
    own = pl.col("pid").is_in(list(SUBJECT_VERBS))
    person = person | pl.col("pid").is_in(list(OBJECT_FIRST))
    subject, thing = pl.col("subject_phrase"), pl.col("_object")
    holder = pl.concat_str(possessives(subject), pl.lit(" "), pl.col("relation"))
    role = pl.concat_str(pl.lit("the "), pl.col("relation"), pl.lit(" of "), subject)
    first = pl.when(own).then(subject).when(person).then(thing).otherwise(holder)
    then = pl.when(own).then(thing).when(person).then(role).otherwise(thing)
    return first, then


def timestamp_texts(person: pl.Expr, start: pl.Expr) -> dict[str, pl.Expr]:
    """``question`` and ``_say`` (the true/false statement before its date) of the start
    (``start`` true) or the end of each row's statement, its date's precision in
    ``_when_precision`` and its object's words in ``_object``."""
    verb = pl.when(start).then(_verb("start")).otherwise(_verb("end"))
    past = pl.when(start).then(_verb("started")).otherwise(_verb("ended"))
    on = pl.when(pl.col("_when_precision") == 11).then(pl.lit("on")).otherwise(pl.lit("in"))
    asked = pl.col("_when_precision").replace_strict(ASKED, default=None, return_dtype=pl.String)
    first, then = _order(person)
    question = _said(asked, pl.lit("did"), first, verb, then)
    return {
        "question": pl.concat_str(question, pl.lit("?")),
        "_say": pl.concat_str(_said(sentence_starts(first), past, then, on), pl.lit(" ")),
    }


def interval_texts(person: pl.Expr) -> dict[str, pl.Expr]:
    """``question`` and ``_say`` (the true/false statement before its length) of how long
    each row's statement held, its unit in ``duration_unit`` and its object's words in
    ``_object``."""
    first, then = _order(person)
    unit = pl.col("duration_unit")
    auxiliary, had = _agreeing(_verb("auxiliary")), _agreeing(_verb("had"))
    question = _said(pl.lit("For how many"), unit, auxiliary, first, _verb("held"), then)
    return {
        "question": pl.concat_str(question, pl.lit("?")),
        "_say": pl.concat_str(_said(sentence_starts(first), had, then, pl.lit("for")), pl.lit(" ")),
    }


def _agreeing(words: pl.Expr) -> pl.Expr:
    """``words`` (a verb said after the subject) with "was" made "were" where the subject is
    said first and takes a plural verb ("For how many years were the Dolomites …")."""
    own = pl.col("pid").is_in(list(SUBJECT_VERBS)) & pl.col("subject_plural").fill_null(False)
    return pl.when(own).then(words.str.replace(r"^was\b", "were")).otherwise(words)
