"""Reading a multiple-choice or true/false answer out of a prediction (docs/scoring.md)."""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

from kgdiff.export.scoring.text_match import normalise

# A bare letter may be lower case ("b", "(b)"); a letter followed by text must be upper case,
# so that an answer such as "a house" is not read as option A.
_BARE_LETTER = re.compile(r"\(?([A-Za-z])\)?[.):]?", re.ASCII)
_LETTER_AND_TEXT = re.compile(r"(?:\(([A-Z])\)|([A-Z])[.):])\s+\S", re.ASCII)
_TRUE_FALSE = re.compile(r"(true|false|yes|no)(?:\s*$|\s*[,.;:!])", re.IGNORECASE | re.ASCII)
_TRUTH = {"true": True, "yes": True, "false": False, "no": False}


def letter(index: int) -> str:
    """The letter of the option at ``index`` (0 → "A")."""
    return string.ascii_uppercase[index]


def chosen_letter(prediction: str) -> str | None:
    """The option letter a prediction names: "B", "b", "(B)", "B.", "B)", "B:", or one of these
    followed by text ("B. Paris", "(B) Paris"); ``None`` when it names none."""
    text = prediction.strip()
    bare = _BARE_LETTER.fullmatch(text)
    if bare:
        return bare.group(1).upper()
    with_text = _LETTER_AND_TEXT.match(text)
    return (with_text.group(1) or with_text.group(2)) if with_text else None


def chosen_option(prediction: str, options: Sequence[str]) -> int | None:
    """The index of the option the prediction chooses, by its letter or else by the option's
    text (normalised, as :func:`kgdiff.export.scoring.text_match.normalise`); ``None`` when it
    chooses none, or names a letter past the options."""
    named = chosen_letter(prediction)
    if named is not None:
        index = string.ascii_uppercase.index(named)
        return index if index < len(options) else None
    form = normalise(prediction)
    if not form:
        return None
    found = [index for index, option in enumerate(options) if normalise(option) == form]
    # Two options that read the same once normalised cannot be told apart: neither is chosen.
    return found[0] if len(found) == 1 else None


def mc_correct(prediction: str, options: Sequence[str], gold: str) -> bool:
    """Whether the prediction chooses the option whose letter is ``gold``."""
    index = chosen_option(prediction, options)
    return index is not None and letter(index) == gold.strip().upper()


def truth_value(prediction: str) -> bool | None:
    """True for "true"/"yes", False for "false"/"no" (any case), alone or followed by
    punctuation and more text ("Yes, it is."); ``None`` otherwise ("no idea" is not "no")."""
    found = _TRUE_FALSE.match(prediction.strip())
    return _TRUTH[found.group(1).lower()] if found else None
