"""The number-aware match of answers that are counts (docs/scoring.md#numbers).

A population or a number of employees is a count nobody states to the unit: "about 624,000"
answers "In 2013, how many people lived in Oslo?" (623,966) as well as a model can, and an
exact string match scores it wrong. When a record's gold objects are quantities and every
gold text is a plain number, an answer matches when one of the numbers it states lies within
:data:`NUMBER_TOLERANCE` of a gold number. Numbers are read with thousands separators
("623,966", "623 966"), decimals ("0.62") and a scale word ("624 thousand", "202.7
million", "624k", "1.2 bn"); a bare year ("In 2013, …": four digits from 1000 to 2100
without separators) is not taken for the count when the answer states another number. At
most :data:`MAX_NUMBERS` numbers are read: a list of guesses is not an answer. A number as
near to a value the subject held in another year as to the gold matches neither (Oslo had
623,966 people in 2013 and 634,463 in 2014: "630,000" answers neither year).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

NUMBER_TOLERANCE = 0.02
"""How far from a gold number, relative to it, a stated number may be: "about 200 million"
matches Brazil's 202,656,788 (1.3 % off), "190 million" (6.2 % off) does not."""
MAX_NUMBERS = 3
"""Numbers read from an answer, in order (more is a list of guesses)."""

_PLAIN = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
"""A gold text that is a number: "623966", or with thousands separators as kgdiff writes a
count ("623,966")."""
QUANTITY_KEY = re.compile(r"([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)\|(.+)")
"""A quantity's value key, ``amount|unit`` (groups: the amount, the unit), to be matched whole;
a time's (``+1630-00-00T00:00:00Z|9|Q…``) is not one."""
_SEPARATORS = ",\u00a0\u202f\u2009' "
_NUMBER = re.compile(
    rf"(?<![\w.,])(-?)(\d{{1,3}}(?:[{_SEPARATORS}]\d{{3}})+|\d+)(\.\d+)?"
    r"(?:\s*(thousand|million|billion|trillion|k|mn|bn)\b)?",
    re.IGNORECASE,
)
_SCALES = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6,
    "billion": 1e9, "bn": 1e9, "trillion": 1e12,
}  # fmt: skip


def plain_numbers(golds: Iterable[str]) -> list[float] | None:
    """The gold texts as numbers when every one is a plain number ("623966", "623,966"), else
    None."""
    texts = [text.strip() for text in golds]
    if not texts or not all(_PLAIN.fullmatch(text) for text in texts):
        return None
    return [float(text.replace(",", "")) for text in texts]


def stated_numbers(answer: str) -> list[float]:
    """The numbers ``answer`` states, in order (at most :data:`MAX_NUMBERS`), a bare year
    left out when another number is stated."""
    found: list[tuple[float, bool]] = []
    for match in _NUMBER.finditer(answer):
        sign, digits, decimals, scale = match.groups()
        whole = re.sub(f"[{_SEPARATORS}]", "", digits)
        value = float(whole + (decimals or "")) * _SCALES.get((scale or "").lower(), 1.0)
        bare_year = not scale and not decimals and whole == digits and 1000 <= int(whole) <= 2100
        found.append((-value if sign else value, bare_year))
        if len(found) > MAX_NUMBERS:
            return []
    counts = [value for value, year in found if not year]
    return counts if counts else [value for value, _ in found]


def number_matches(answer: str, golds: list[float], others: Iterable[float] = ()) -> bool:
    """Whether a number ``answer`` states lies within :data:`NUMBER_TOLERANCE` of a gold
    and nearer to it than to any of ``others`` (the values the subject held in other years,
    which a stated number near both names no better than it names the gold)."""
    rivals = [value for value in others if value not in golds]
    for stated in stated_numbers(answer):
        nearest = min(golds, key=lambda gold: abs(stated - gold))
        off = abs(stated - nearest)
        if off <= NUMBER_TOLERANCE * abs(nearest) and all(off < abs(stated - r) for r in rivals):
            return True
    return False


def amounts(keys: Iterable[object]) -> list[float]:
    """The amounts of the quantity value keys (``amount|unit``) among ``keys``."""
    found = []
    for key in keys:
        if isinstance(key, str) and (quantity := QUANTITY_KEY.fullmatch(key)) is not None:
            found.append(float(quantity.group(1)))
    return found


OTHER_VALUES = ("outdated", "earlier_objects", "later_objects")
"""The fields of a record that hold the value keys its subject held at other times."""


def gold_keys(record: Mapping[str, Any]) -> list[object]:
    """The value keys of a record's gold objects: its ``latest`` objects, or a ``pools``
    year's ``objects``."""
    return list(record.get("latest") or record.get("objects") or [])


def counted(record: Mapping[str, Any]) -> bool:
    """Whether a record's gold objects are quantities (value keys ``amount|unit``,
    :func:`gold_keys`): its answers are counts, not a year or a name that happens to be a
    number."""
    keys = gold_keys(record)
    return bool(keys) and all(isinstance(k, str) and QUANTITY_KEY.fullmatch(k) for k in keys)


def other_amounts(record: Mapping[str, Any]) -> list[float]:
    """The amounts the record's subject held at other times (:data:`OTHER_VALUES`)."""
    return [value for name in OTHER_VALUES for value in amounts(record.get(name) or [])]
