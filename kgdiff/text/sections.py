"""The lead section of a page and the sentences of a text."""

from __future__ import annotations

import re

from kgdiff.text.fast import plain_text

_FIRST_HEADING = re.compile(r"^=+[^=\n].*?=+[ \t]*$", re.M)
_SENTENCE_END = re.compile(
    r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9\u00C0-\u024F\u0370-\u04FF])"
)
_ABBREVIATION = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Rev|Gen|Col|Lt|Sgt|Capt|Mt|Ft|No|Inc|Ltd|Co|vs|"
    r"etc|approx|ca|cf|al|Vol|pp?)|\b[A-Z])\.$"
)


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
    found: list[str] = []
    for paragraph in text.split("\n"):
        start = 0
        for match in _SENTENCE_END.finditer(paragraph):
            if _ABBREVIATION.search(paragraph[start : match.start()]):
                continue
            found.append(paragraph[start : match.start()].strip())
            start = match.end()
        found.append(paragraph[start:].strip())
    return [sentence for sentence in found if sentence]
