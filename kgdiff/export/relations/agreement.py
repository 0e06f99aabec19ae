"""Agreement of a template's verbs with a plural subject: the catalogue writes its templates
for one thing ("{subject} is in the sovereign state of {object}."), and a subject such as the
Pennine Alps takes the plural ("The Pennine Alps are in the sovereign state of Italy.",
"Which sovereign state were the Dolomites in?"; docs/relations.md#english).

Whether a subject is plural is decided from how it reads in a sentence and its classes: a name
said with "the" whose head word (the last before "of", "for", "in", "and" …) reads as a plural
("the Pennine Alps", "the Falkland Islands"; not "the City of Brussels", nor a word in "-ss",
"-us", "-is" or "-ics") is plural, unless the item is of a class whose members are named as
one thing though their names look plural (:data:`SINGULAR_CLASSES`: "the Netherlands is", "the
United States was", "The Simpsons is"). A name without "the" is never plural ("Athens",
"Wales", "Los Angeles").

A template's plural form is derived from it (:func:`plural_template`): "is", "was", "has",
"does" and "lies" after ``{subject}`` or right before it become "are", "were", "have", "do"
and "lie", a present verb in "-s" right after ``{subject}`` its base form ("plays" → "play",
"coaches" → "coach") where ``{subject}`` is the sentence's subject (at its start, after a
comma, an auxiliary or "where"; not "The person serving as {subject} is"), and, where a verb
agreed with the subject, "its" becomes "their" ("Where do the Blue Jays play their home
games?").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

SINGULAR_CLASSES = frozenset(
    {
        "Q6256",  # country
        "Q3624078",  # sovereign state
        "Q3024240",  # historical country
        "Q7275",  # state
        "Q107390",  # federated state
        "Q515",  # city
        "Q1549591",  # big city
        "Q5119",  # capital city
        "Q4022",  # river (the Thames, the Ganges)
        "Q43229",  # organization (the United Nations)
        "Q484652",  # international organization
        "Q11032",  # newspaper (The Times)
        "Q11424",  # film
        "Q5398426",  # television series (The Simpsons)
        "Q7725634",  # literary work (The Canterbury Tales)
        "Q482994",  # album
    }
)
"""Classes (P31, or P279 of a class) whose members take the singular whatever their name's
shape: countries and states, cities, rivers, organizations and the titles of works."""
_LINKS = frozenset({"of", "for", "in", "on", "at", "and", "de", "del", "du", "la", "le", "von"})
PLURAL_HEAD = re.compile(r"[A-Za-z]*[^su'\W]s")
"""A head word that reads as a plural: in "-s", not "-ss", "-us" or "'s"."""
_IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "lies": "lie"}
_BEFORE = re.compile(r"\b(is|was|has|does) \{subject\}")
_AFTER = re.compile(r"(^|, |\b(?:are|were|have|do|did|where) )\{subject\} ([a-z]+)\b")
"""A verb right after ``{subject}`` where it is the sentence's subject: at the start, after a
comma, after an auxiliary or "where" (not "The person serving as {subject} is")."""
_ITS = re.compile(r"\bits\b")


def head_word(phrase: str) -> str:
    """The word a name's number depends on: the last before a linking word ("City" of "the
    City of Brussels"), else its last ("Alps" of "the Pennine Alps")."""
    words = phrase.split()[1:] if phrase[:4].lower() == "the " else phrase.split()
    for index, word in enumerate(words):
        if index and word in _LINKS:
            return words[index - 1]
    return words[-1] if words else ""


def plural_subject(phrase: str | None, classes: Iterable[str] = ()) -> bool:
    """Whether a subject that reads ``phrase`` in a sentence ("the Pennine Alps") and is of
    ``classes`` takes a plural verb (the module's rules)."""
    if not phrase or phrase[:4].lower() != "the ":
        return False
    head = head_word(phrase).rstrip(".,;:)")
    if not PLURAL_HEAD.fullmatch(head) or head.endswith(("is", "ics")):
        return False
    return not set(classes) & SINGULAR_CLASSES


def base_form(verb: str) -> str:
    """The base form of a present verb in "-s" after a singular subject: "plays" → "play",
    "coaches" → "coach", "carries" → "carry", "is" → "are"; another word as it is."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if len(verb) < 4 or not verb.endswith("s") or verb.endswith(("ss", "us", "is")):
        return verb
    if verb.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return verb[:-2]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    return verb[:-1]


@cache
def plural_template(template: str) -> str:
    """``template`` (written for one subject) with its verbs agreeing with a plural subject
    (the module's rules)."""
    agreed = _BEFORE.sub(lambda found: f"{_IRREGULAR[found.group(1)]} {{subject}}", template)
    agreed = _AFTER.sub(
        lambda found: f"{found.group(1)}{{subject}} {base_form(found.group(2))}", agreed
    )
    if agreed != template:
        agreed = _ITS.sub("their", agreed)
    return agreed
