"""English phrasing of the names and dates a question or statement puts in a sentence: whether
a name takes the definite article ("Which country is the Black Sea in?", "Boston is in the
United States of America."), a date as a person says when something happened ("in 1630", "on
4 October 1830", "in the 1880s"), and a sentence's first letter (docs/relations.md#english).

Whether a name takes "the" is decided from data, in this order: a label that already starts
with an article, a lowercase word or a digit, or that names a human, never takes one; the
label's own use in the lead of the entity's Wikipedia article, when the store has it, decides
next (the Black Sea's lead reads "The Black Sea is …", Harvard University's "Harvard
University is …"); then the item's class (seas, oceans, rivers, mountain ranges, straits,
deserts, canals, gulfs, Wikipedia's language editions) and the shape of the name ("United
…", "… Republic", "Kingdom of …", "… Islands", a French, Italian or Spanish name of an
institution or a building kept in English: "Musée …", "Palazzo …"; plural names such as
"Netherlands", a proper name followed by one or two common nouns in lower case: "the
Lagavulin distillery", "the Higgs boson").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

HUMAN = "Q5"
TAXON = "Q16521"
"""A taxon's name is Latin ("Exiliboa placata"): its lower-case last word is no common noun."""
ARTICLE_CLASSES = frozenset(
    {
        "Q165",  # sea
        "Q204894",  # marginal sea
        "Q9430",  # ocean
        "Q4022",  # river
        "Q46831",  # mountain range
        "Q37901",  # strait
        "Q8514",  # desert
        "Q12284",  # canal
        "Q1322134",  # gulf
        "Q10876391",  # Wikipedia language edition
    }
)
"""Classes whose instances are named with "the" (the Nile, the Sahara, the Alps, the English
Wikipedia)."""
COMMON_CLASSES = frozenset({"Q8142"})  # currency
"""Classes whose instances are named with "the" even when their label is a common noun in
lower case (the euro, the pound sterling)."""
FOREIGN_INSTITUTIONS = frozenset({
    "Musée", "Lycée", "École", "Ecole", "Collège", "Institut", "Académie", "Université",
    "Conservatoire", "Théâtre", "Palais", "Prytanée", "Hôtel", "Museo", "Teatro", "Palazzo",
    "Istituto", "Instituto", "Universidad", "Università", "Palacio", "Estadio"
})  # fmt: skip
"""French, Italian and Spanish words for a museum, school, theatre, palace or stadium that
open a name English keeps untranslated and says with "the": the Musée d'Orsay, the Prytanée
National Militaire, the Teatro alla Scala, the Palazzo Vecchio. Not "Stade": most names it
opens are football clubs (Stade de Reims, Stade Rennais), said without one."""
FIRST_WORDS: dict[str, frozenset[str] | None] = {
    "United": frozenset({"States", "Kingdom", "Nations", "Arab", "Provinces", "Republic"}),
    "River": None,
    **dict.fromkeys(FOREIGN_INSTITUTIONS),
}
"""A name starting with one of these words (followed by one of the given words, when some
are given) takes "the": the United States, the United Nations, the River Thames, the Musée
Saint-Raymond."""
LAST_WORDS = frozenset({
    "Sea", "Ocean", "River", "Mountains", "Islands", "Isles", "Alps", "Highlands", "Lowlands",
    "Plains", "Plateau", "Delta", "Desert", "Channel", "Canal", "Strait", "Straits",
    "Peninsula", "Archipelago", "Basin", "Region", "Republic", "Kingdom", "Union",
    "Federation", "Confederation", "Commonwealth", "Emirates", "Empire", "Caliphate",
    "Sultanate", "States", "Nations", "Foundation", "Organization", "Organisation",
    "Institution", "Party", "Museum", "Gallery", "Library", "Council", "Commission",
    "Committee", "Assembly", "Parliament", "Senate", "Congress", "Army", "Navy", "Force",
    "Agency", "Authority", "Bureau", "Alliance", "League", "Conference", "Association", "Cup",
    "Prize", "Award", "Medal", "Trophy", "Games", "Championship", "Championships", "Festival",
    "Building", "Tower", "Bridge"
})  # fmt: skip
"""A name ending with one of these takes "the" (the Black Sea, the Czech Republic, the
Wikimedia Foundation, the Labour Party, the Nobel Prize)."""
HEADS = frozenset({
    "Republic", "Kingdom", "State", "Commonwealth", "Federation", "Principality", "Duchy",
    "Emirate", "Sultanate", "Empire", "Union", "Isle", "Bay", "Gulf", "Sea", "Strait",
    "Straits", "Cape", "University", "Church", "Institute", "Museum", "Order", "House",
    "Ministry", "Department", "Council", "Court", "Battle", "Siege", "Treaty", "Province",
    "Diocese", "Archdiocese", "City", "County", "Region", "Electorate", "Prize", "Award",
    "Medal", "Cup", "Academy", "Society", "Tower", "States", "Library", "Gallery"
})  # fmt: skip
"""A name whose word before "of", "for" or "in" is one of these takes "the" (the Republic
of Ireland, the University of Cambridge, the Nobel Prize in Physics)."""
PLURAL_NAMES = frozenset({
    "Netherlands", "Philippines", "Bahamas", "Maldives", "Seychelles", "Comoros", "Gambia",
    "Caribbean", "Balkans", "Andes", "Himalayas", "Pyrenees", "Rockies", "Sahara", "Arctic",
    "Antarctic", "Vatican", "Levant", "Midlands", "Hebrides", "Azores", "Americas"
})  # fmt: skip
"""One-word names said with "the" that neither class nor shape gives away."""
_LINKS = frozenset({"of", "for", "in"})


COMMON_TAIL = re.compile(r"(?:[A-Z0-9]\S*\s+)+[a-z]+(?:\s+[a-z]+)?")
"""A proper name followed by one or two common nouns in lower case ("Lagavulin distillery",
"Guantanamo Bay detention camp", "Schulze method"); three or more lower-case words are
more likely a title in another language ("Czterej pancerni i pies")."""


def common_tail(label: str, classes: Iterable[str] = ()) -> bool:
    """Whether ``label`` is a proper name followed by a common noun (:data:`COMMON_TAIL`),
    which English says with "the"; not a taxon's Latin name."""
    return COMMON_TAIL.fullmatch(label) is not None and TAXON not in set(classes)


def by_shape(label: str) -> bool:
    """Whether the shape of a proper name says it takes "the" (see the module's rules)."""
    words = label.split()
    if not words:
        return False
    if words[0] in FIRST_WORDS and len(words) > 1:
        following = FIRST_WORDS[words[0]]
        if following is None or words[1] in following:
            return True
    if len(words) > 1 and words[-1] in LAST_WORDS:
        return True
    for index, word in enumerate(words[:-2]):
        if words[index + 1] in _LINKS and word in HEADS:
            return True
    return len(words) == 1 and label in PLURAL_NAMES


def lead_use(label: str, lead: str | None) -> bool | None:
    """How an article's lead uses ``label``: True when most of its mentions follow "the",
    False when most do not, None when it does not mention it (or as often with as without)."""
    if not lead or not label.strip():
        return None
    pattern = re.compile(r"(?<!\w)" + re.escape(label) + r"(?!\w)")
    with_the = without = 0
    for found in pattern.finditer(lead):
        before = lead[: found.start()]
        if before[-1:].isspace() and before.split()[-1:] in (["the"], ["The"]):
            with_the += 1
        else:
            without += 1
    if with_the == without:
        return None
    return with_the > without


def takes_article(label: str, classes: Iterable[str] = (), lead: str | None = None) -> bool:
    """Whether ``label`` is said with "the" in the middle of a sentence (the module's rules:
    the label itself, then the Wikipedia lead, then the classes and the name's shape)."""
    text = label.strip()
    classes = set(classes)
    if not text or text.split()[0].lower() in {"the", "a", "an"}:
        return False
    if classes & COMMON_CLASSES:
        return True
    if not text[0].isupper():
        return False
    if HUMAN in classes:
        return False
    used = lead_use(text, lead)
    if used is not None:
        return used
    return bool(classes & ARTICLE_CLASSES) or by_shape(text) or common_tail(text, classes)


def with_article(label: str, definite: bool) -> str:
    """``label`` as it reads in the middle of a sentence: "the Black Sea" or "Boston"."""
    return f"the {label}" if definite else label


def sentence_start(text: str) -> str:
    """``text`` at the start of a sentence: an article kgdiff added is capitalised ("The
    Black Sea …"); a name is left as it is written ("iPhone", "de Gaulle")."""
    return "The" + text[3:] if text.startswith("the ") else text


PLURAL_PHRASE = re.compile(r"the .*[^su'\s]s")
"""A name said with "the" whose last word reads as a plural (the Netherlands, the Alps)."""


def possessive(phrase: str) -> str:
    """A name as it reads in a sentence, possessive: "Germany's", "the Black Sea's", and
    an apostrophe alone after a plural name said with "the" ("the United States'", "the
    Netherlands'")."""
    plural = PLURAL_PHRASE.fullmatch(phrase) and not phrase.endswith("ics")
    return f"{phrase}'" if plural else f"{phrase}'s"


DAY = re.compile(r"\d{1,2} [A-Z][a-z]+ ")
SPAN = re.compile(r"\d+s(?: B?CE)?|\d+(?:st|nd|rd|th) (?:century|millennium)(?: BCE)?")
AGO = re.compile(r"([\d.,]+ (?:thousand|million|billion) years) (?:BCE|ago)")
"""A date of deep time, as :mod:`kgdiff.timetext` writes it ("66 million years BCE") or as
the export shows it ("66 million years ago": :func:`deep_time_first`)."""


def deep_time_first(texts: list[str]) -> list[str]:
    """A date's texts with, when the first is of deep time ("4.54 billion years BCE"), the
    way people write it first ("4.54 billion years ago"): the two thousand years between
    them are below the precision of such a date."""
    deep = AGO.fullmatch(texts[0]) if texts else None
    return [f"{deep.group(1)} ago", *texts] if deep else texts


def date_phrase(text: str) -> str:
    """A date in words (as :mod:`kgdiff.timetext` writes it) as a person says when something
    happened: "on 4 October 1830", "in October 1830", "in 1630", "in 753 BCE", "in the
    1880s", "in the 19th century", "66 million years ago"."""
    if DAY.match(text):
        return f"on {text}"
    if SPAN.fullmatch(text):
        return f"in the {text}"
    deep = AGO.fullmatch(text)
    if deep:
        return f"{deep.group(1)} ago"
    return f"in {text}"
