"""The letter-coded counts of "pageview complete" files.

A daily line ends with its views per hour, a monthly line with its views per day, each
slot written as a letter followed by its count and zero slots left out: ``A120B130X4``
is 120 views in hour 0, 130 in hour 1 and 4 in hour 23. Letters count up from ``A`` in
ASCII order, so slots 27–31 (days 27–31 of a month) are ``[``, ``\\``, ``]``, ``^`` and
``_`` (the scheme Wikistats' pagecounts-ez files documented). Hours use ``A``–``X``
(0–23); days ``A`` = the 1st.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

HOURS = 24
MAX_DAYS = 31
_FIRST = ord("A")


class CountsError(ValueError):
    """Letter-coded counts that do not follow the scheme."""


@cache
def _pattern(slots: int) -> re.Pattern[str]:
    letters = re.escape("".join(chr(_FIRST + slot) for slot in range(slots)))
    return re.compile(rf"([{letters}])([0-9]{{1,18}})")


def decode_counts(text: str, slots: int) -> dict[int, int]:
    """Counts per slot (0-based: hour 0–23, or day − 1) of ``text``.

    Raises :class:`CountsError` for a letter outside the first ``slots``, a letter
    without digits (or more than 18), a slot given twice, or any other character.
    """
    pattern = _pattern(slots)
    counts: dict[int, int] = {}
    position = 0
    while position < len(text):
        match = pattern.match(text, position)
        if match is None:
            raise CountsError(f"unexpected {text[position]!r} at position {position}")
        slot = ord(match[1]) - _FIRST
        if slot in counts:
            raise CountsError(f"slot {match[1]!r} given twice")
        counts[slot] = int(match[2])
        position = match.end()
    return counts


def encode_counts(counts: Mapping[int, int]) -> str:
    """The letter code of ``counts`` (slot → views), in slot order, zero slots left out."""
    return "".join(
        f"{chr(_FIRST + slot)}{views}" for slot, views in sorted(counts.items()) if views
    )
