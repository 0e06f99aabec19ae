"""A text's normalised form, as scoring compares answers
(:func:`kgdiff.export.scoring.text_match.normalise`: case, accents, punctuation, articles),
cached for the whole export: two texts that read the same once normalised are one answer, one
option, one word of a question."""

from __future__ import annotations

from functools import lru_cache

from kgdiff.export.scoring.text_match import normalise

# An export compares the same labels (countries, cities, years) again and again: each is
# normalised once.
normalised = lru_cache(maxsize=1 << 20)(normalise)
