"""The lead section of a page and the sentences of a text."""

from __future__ import annotations

import re

from kgdiff.text.fast import plain_text

_FIRST_HEADING = re.compile(r"^=+[^=\n].*?=+[ \t]*$", re.M)
_ABBREVIATIONS = [
    "Mr", "Mrs", "Ms", "Dr", "St", "Jr", "Sr", "Prof", "Rev", "Gen", "Col", "Lt", "Sgt", "Capt",
    "Mt", "Ft", "No", "Inc", "Ltd", "Co", "vs", "etc", "approx", "ca", "cf", "al", "Vol", "p", "pp",
]  # fmt: skip
"""Words whose period does not end a sentence (nor does an initial's: a capital and a period)."""


def _not_after_abbreviation() -> str:
    """Negative lookbehinds for the abbreviations, one per length (each has a fixed width)."""
    by_length: dict[int, list[str]] = {}
    for word in _ABBREVIATIONS:
        by_length.setdefault(len(word), []).append(word)
    behind = [rf"(?<!\b(?:{'|'.join(words)})\.)" for _, words in sorted(by_length.items())]
    return "".join(behind) + r"(?<!\b[A-Z]\.)"


_SENTENCE_END = re.compile(
    r"([.!?])"
    + _not_after_abbreviation()
    + r"[\"'”’)\]]*[^\S\n]+(?=[\"'“‘(\[]?[A-Z0-9\u00C0-\u024F\u0370-\u04FF])"
)
"""A sentence's last character, then closing quotes and blanks before the next sentence's
first character (matched from the last character: a regex that starts with a character
class is scanned for fast, one that starts with a lookbehind is not)."""


def lead_wikitext(wikitext: str) -> str:
    """The wikitext before the first section heading."""
    match = _FIRST_HEADING.search(wikitext)
    return wikitext if match is None else wikitext[: match.start()]


def lead_text(wikitext: str) -> str:
    """The plain text of the lead section (only the lead is converted, so it is fast)."""
    return plain_text(lead_wikitext(wikitext))


def sentences(text: str) -> list[str]:
    """The sentences of plain text: split after . ! ? before a capital or a digit, not after
    a common abbreviation or an initial (English rules; paragraphs always split)."""
    pieces = _SENTENCE_END.sub("\\1\n", text).split("\n")
    return [sentence for sentence in (piece.strip() for piece in pieces) if sentence]
