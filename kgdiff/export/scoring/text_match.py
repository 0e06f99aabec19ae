"""The string matches scoring is built on (docs/scoring.md): ChroKnowBench's fuzzy match here,
over answer normalisation and the exact and token matches of :mod:`kgdiff.portable.answer_text`
(standard library only: a benchmark folder's task files match with it too), re-exported so
that the export and the scoring import every string match from this module.

Every comparison is between normalised strings (:func:`normalise`), so "The Hague." and
"hague" are equal; a gold string that normalises to nothing is never matched.
"""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz import fuzz

from kgdiff.portable.answer_text import ARTICLES as ARTICLES
from kgdiff.portable.answer_text import UNKNOWN_PHRASES as UNKNOWN_PHRASES
from kgdiff.portable.answer_text import gold_forms
from kgdiff.portable.answer_text import is_unknown as is_unknown
from kgdiff.portable.answer_text import matches_any as matches_any
from kgdiff.portable.answer_text import normalise as normalise
from kgdiff.portable.answer_text import token_f1 as token_f1
from kgdiff.portable.answer_text import tokens as tokens

FUZZY_THRESHOLD = 70.0
"""ChroKnowBench's rule: a ``token_set_ratio`` of at least 70 is a match."""


def fuzzy_score(prediction: str, golds: Iterable[str]) -> float:
    """The best rapidfuzz ``token_set_ratio`` (0–100) of the normalised strings."""
    form = normalise(prediction)
    if not form:
        return 0.0
    return max((fuzz.token_set_ratio(form, gold) for gold in gold_forms(golds)), default=0.0)


def fuzzy_match(prediction: str, golds: Iterable[str]) -> bool:
    """ChroKnowBench's fuzzy match: ``token_set_ratio`` ≥ 70 against some gold string."""
    return fuzzy_score(prediction, golds) >= FUZZY_THRESHOLD
