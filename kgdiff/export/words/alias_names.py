"""Which aliases of an entity are names of it, and so accepted answers
(docs/benchmark-export.md#answers-and-aliases).

Wikidata's aliases hold more than names: epithets ("Lady", "Majesty", "Star of the Sea" for
Mary), words for a place's people ("Lisboners"), parts ("Parishes of Lisbon") and vandalism
that lasted several dumps ("Miguel Juan Sebastián Piñera de La mancha Dinero Echenique"). A
model that answers "Majesty" is not naming Mary, and a wrong accepted answer costs more than a
missing right one, so an alias is accepted only when its words tie it to the entity's other
names. Words are compared in lower case without accents (``sql/export/entity_names.sql``
splits the texts). An alias names the entity when it

- shares a word with one of the entity's labels in any language ("Lisbon, Portugal",
  "Lisboa"), or the first five letters of one ("Russian Federation" and "Russia"), not
  counting :data:`FUNCTION_WORDS`;
- or is the initials of its label or of another of its aliases, of two words or more ("UK",
  "U.S.A.", "FRG" beside "Federal Republic of Germany");
- or is one word of three letters or more that begins a word of a label ("Dec", "NED");

and is none of these, which share a label's word without naming the entity:

- a demonym: one word made of a label's word and one of :data:`DEMONYM_ENDINGS`;
- a plural head: a first word ending in "s", followed by "of", that no label holds
  ("Parishes of Lisbon"; "Jesus of Nazareth" keeps its label's "Jesus");
- another of its names with words inserted that none of its other names holds: the Spanish
  alias "Miguel Juan Sebastián Piñera Echenique" with "de La mancha Dinero" inside.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass

Words = Sequence[str]

FUNCTION_WORDS = frozenset({
    "a", "an", "the", "of", "and", "or", "in", "on", "at", "to", "for", "by", "with", "from",
    "de", "del", "della", "di", "da", "do", "dos", "das", "du", "des", "la", "le", "les", "el",
    "los", "las", "lo", "y", "e", "et", "i", "und", "der", "die", "den", "dem", "van", "von",
    "zu", "af", "av", "og", "och", "il", "al", "bin", "ibn",
})  # fmt: skip
"""Words an alias may share with a label without naming the same thing ("Mother of the
Church" and "Mary of Nazareth"): articles, prepositions and conjunctions of the languages
whose names English aliases borrow, and the particles of personal names."""
DEMONYM_ENDINGS = ("n", "an", "ans", "ian", "ians", "er", "ers", "ese", "ite", "ites", "i", "is")
"""Endings that make a place's name a word for its people ("Lisboner", "Lisboners")."""
STEM = 5
"""Two words of at least this many letters that begin alike are taken for one word."""


def _content(words: Words) -> list[str]:
    return [word for word in words if word not in FUNCTION_WORDS]


def initials(names: Sequence[Words]) -> set[str]:
    """The initials of each name of two words or more: of every word, and of its content
    words (so that "U.S.A." is the initials of "United States of America")."""
    found = set()
    for words in names:
        for kept in (list(words), _content(words)):
            if len(kept) > 1:
                found.add("".join(word[0] for word in kept))
    return found


def _shares_label_word(words: Words, labels: Set[str], stems: Set[str]) -> bool:
    return any(w in labels or (len(w) >= STEM and w[:STEM] in stems) for w in _content(words))


def _abbreviates(words: Words, labels: Set[str]) -> bool:
    if len(words) != 1 or len(words[0]) < 3:
        return False
    return any(label.startswith(words[0]) for label in labels)


def _demonym(words: Words, labels: Set[str]) -> bool:
    if len(words) != 1 or words[0] in labels:
        return False
    word = words[0]
    return any(word.endswith(end) and word[: -len(end)] in labels for end in DEMONYM_ENDINGS)


def _plural_head(words: Words, labels: Set[str]) -> bool:
    head = words[0] if words else ""
    plural = len(head) >= 4 and head.endswith("s") and not head.endswith(("ss", "us", "is"))
    return len(words) > 2 and words[1] == "of" and plural and head not in labels


def _inserted(words: Words, others: Sequence[Words], attested: frozenset[str]) -> bool:
    """Whether ``words`` is one of ``others`` with a word inside it that no other name
    holds (``attested``: the words of the other names)."""
    if len(words) < 3:  # an inserted word stands between two words of another name
        return False
    held = set(words)
    for name in others:
        if not 1 < len(name) < len(words) or not held.issuperset(name):
            continue
        matched, at = [], 0
        for index, word in enumerate(words):
            if at < len(name) and word == name[at]:
                matched.append(index)
                at += 1
        if at < len(name):
            continue
        inside = range(matched[0] + 1, matched[-1])
        unknown = (words[i] for i in inside if i not in matched)
        if any(word not in attested and word not in FUNCTION_WORDS for word in unknown):
            return True
    return False


@dataclass(frozen=True)
class OtherNames:
    """What an entity's other names say of its aliases (``sql/export/entity_names.sql``):
    the words of its labels in every language, of its label in the export's language, of
    every other name (its labels and its aliases in other languages), and those other names
    that an alias may hold every word of."""

    labels: frozenset[str]
    own: Words
    attested: frozenset[str]
    inside: tuple[Words, ...] = ()


def names_it(words: Words, names: OtherNames, aliases: Sequence[Words] = ()) -> bool:
    """Whether an alias (its ``words``) names the entity (the module's rules), given its
    other ``names`` and its other ``aliases`` in the same language."""
    if not words:
        return False
    labels, letters = names.labels, "".join(words)
    stems = {label[:STEM] for label in labels if len(label) >= STEM}
    tied = (
        _shares_label_word(words, labels, stems)
        or letters in initials([names.own, *aliases])
        or _abbreviates(words, labels)
    )
    if not tied or _demonym(words, labels) or _plural_head(words, labels):
        return False
    attested = names.attested.union(*aliases) if aliases else names.attested
    return not _inserted(words, [*names.inside, *aliases], attested)


def naming_aliases(
    aliases: Sequence[str], alias_words: Sequence[Words], names: OtherNames
) -> tuple[str, ...]:
    """The ``aliases`` (in the export's language, each with its words) that name the entity
    (:func:`names_it`), in their order."""
    kept = []
    for index, (alias, words) in enumerate(zip(aliases, alias_words, strict=True)):
        others = [*alias_words[:index], *alias_words[index + 1 :]]
        if names_it(words, names, others):
            kept.append(alias)
    return tuple(kept)
