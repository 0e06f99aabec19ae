"""Answer normalisation and the exact and token matches scoring is built on (docs/scoring.md).

Every comparison is between normalised strings: :func:`normalise` is applied to the prediction
and to each gold string, so "The Hague." and "hague" are equal. A gold string that normalises
to nothing (a label made only of punctuation or an article) is never matched, so an empty
prediction is never correct.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

ARTICLES = frozenset({"a", "an", "the"})

UNKNOWN_PHRASES = (
    "unknown",
    "i don't know",
    "i do not know",
    "don't know",
    "i'm not sure",
    "not sure",
    "no answer",
    "no idea",
    "i have no idea",
    "cannot answer",
    "i cannot answer",
    "can't answer",
    "not known",
    "unanswerable",
    "not applicable",
)
"""Whole answers that say the model does not know (compared normalised, as whole answers only:
"Unknown Soldier" is an answer, not an abstention). "none" is left out on purpose: it is a real
answer to questions such as a person's religion."""

# Apostrophes are dropped rather than spaced so that "O'Brien" and "OBrien" (and "don't" /
# "dont") compare equal; every other punctuation mark separates words ("Jean-Paul" = "Jean Paul").
_APOSTROPHES = frozenset("'\u2019\u2018`\u00b4\u02bc")
_COMBINING_DIACRITICS = re.compile("[\u0300-\u036f]")
# a thousands separator between digits ("66,600,000", "66\u202f600\u202f000") is dropped, so a
# count compares equal however it is grouped; a plain space is left: "1990 250" is two numbers
_DIGIT_GROUP = re.compile("(?<=[0-9])[,\u00a0\u202f\u2009](?=[0-9]{3}(?![0-9]))")


def _fold(text: str) -> str:
    # Diacritics are removed because models often write a name without them ("Schroder" for
    # "Schröder") and the English labels and aliases list only some of the spellings. Only the
    # block of combining marks that Latin, Greek and Cyrillic letters decompose into is
    # dropped: the vowel signs of Indic and other scripts are letters of the word, not accents.
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _COMBINING_DIACRITICS.sub("", unicodedata.normalize("NFKD", text))
    return unicodedata.normalize("NFKC", text).casefold()


def _strip_punctuation(text: str) -> str:
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in _APOSTROPHES or category == "Cf":
            continue
        kept.append(" " if category[0] == "P" or category == "Cc" else char)
    return "".join(kept)


def normalise(text: str) -> str:
    """``text`` compared as an answer: NFKC, casefolded, without thousands separators,
    diacritics, punctuation or the articles a/an/the, words separated by one space."""
    words = _strip_punctuation(_fold(_DIGIT_GROUP.sub("", text))).split()
    return " ".join(word for word in words if word not in ARTICLES)


def tokens(text: str) -> list[str]:
    """The words of ``normalise(text)``."""
    return normalise(text).split()


def gold_forms(golds: Iterable[str]) -> set[str]:
    """The normalised gold strings, those that normalise to nothing left out."""
    return {form for form in map(normalise, golds) if form}


def matches_any(prediction: str, golds: Iterable[str]) -> bool:
    """Whether ``prediction`` equals one of ``golds`` once both are normalised."""
    form = normalise(prediction)
    return bool(form) and form in gold_forms(golds)


def token_f1(prediction: str, golds: Iterable[str]) -> float:
    """SQuAD's token F1 between the normalised prediction and each gold string, the best one."""
    predicted = Counter(tokens(prediction))
    best = 0.0
    for gold in golds:
        expected = Counter(tokens(gold))
        common = sum((predicted & expected).values())
        if not expected or common == 0:
            continue
        precision = common / sum(predicted.values())
        recall = common / sum(expected.values())
        best = max(best, 2 * precision * recall / (precision + recall))
    return best


_UNKNOWN_FORMS = frozenset(normalise(phrase) for phrase in UNKNOWN_PHRASES)


def is_unknown(prediction: str) -> bool:
    """Whether the prediction abstains: empty once normalised, or one of :data:`UNKNOWN_PHRASES`."""
    form = normalise(prediction)
    return not form or form in _UNKNOWN_FORMS
