"""ChroKnowBench's chronological categories for the ``pools`` config (docs/scoring.md).

Our reading of ChroKnowBench (ChroKnowledge, §2.1 and §6.1):

* **Per year** (their Table 1, SliCK with a time stamp): the model's answer set for the year
  (the greedy answer and any sampled ones) is compared with the year's object pool, each answer
  by fuzzy match (``token_set_ratio`` ≥ 70) against the labels and aliases of the pool's
  objects. ``correct``: every answer matches; ``partial_correct``: some but not all do;
  ``incorrect``: none does. With one answer per year only ``correct`` and ``incorrect`` occur.
* **Over the years** (their Figure 6), a year being *right* when it is ``correct``:
  ``known`` — right every year; ``unknown`` — no answer of any year matches (every year
  ``incorrect``); ``cut_off`` — right on an unbroken run at one end of the range and not after
  (outdated knowledge) or before (forgotten earlier knowledge) it; ``partial_known`` —
  anything else: right in some years but not on one side of a boundary, or only partly right.

Each year also counts the answers that name none of its objects but an object of an earlier
(``earlier``) or a later (``later``) year's pool: the outdated answers of the pools.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from kgdiff.errors import InputError
from kgdiff.export.scoring.text_match import fuzzy_match

YearCategory = Literal["correct", "partial_correct", "incorrect"]
Pattern = Literal["known", "unknown", "cut_off", "partial_known"]
Matcher = Callable[[str, Sequence[str]], bool]

YEAR_CATEGORIES: tuple[YearCategory, ...] = ("correct", "partial_correct", "incorrect")
PATTERNS: tuple[Pattern, ...] = ("known", "unknown", "cut_off", "partial_known")


@dataclass(frozen=True)
class YearResult:
    """One year of a group: its category, and how many answers matched its pool, an earlier
    year's pool only, or a later year's pool only."""

    year: str
    category: YearCategory
    answers: int
    matched: int
    earlier: int
    later: int


@dataclass(frozen=True)
class GroupResult:
    """One (subject, relation) group: its temporal pattern and its years in order."""

    pattern: Pattern
    years: tuple[YearResult, ...]


def year_category(
    answers: Sequence[str], pool: Sequence[str], matcher: Matcher = fuzzy_match
) -> YearCategory:
    """The category of one year's answer set against that year's pool (labels and aliases)."""
    if not answers:
        raise ValueError("a year's answer set is empty")
    matched = sum(matcher(answer, pool) for answer in answers)
    if matched == len(answers):
        return "correct"
    return "partial_correct" if matched else "incorrect"


def temporal_pattern(categories: Sequence[YearCategory]) -> Pattern:
    """The pattern of a group's per-year categories, in chronological order."""
    if not categories:
        raise ValueError("a group has no year")
    right = [category == "correct" for category in categories]
    if all(right):
        return "known"
    if all(category == "incorrect" for category in categories):
        return "unknown"
    if not any(right):
        return "partial_known"
    boundary = right.index(not right[0])
    if all(flag != right[0] for flag in right[boundary:]):
        return "cut_off"
    return "partial_known"


def year_order(year: str) -> tuple[int, ...]:
    """Sort key of a period written ``YYYY`` or ``YYYY-MM``."""
    try:
        return tuple(int(part) for part in year.split("-"))
    except ValueError as exc:
        raise InputError(f"{year!r} is not a year (YYYY) or a month (YYYY-MM)") from exc


def classify_group(
    pools: Mapping[str, Sequence[str]],
    answers: Mapping[str, Sequence[str]],
    matcher: Matcher = fuzzy_match,
) -> GroupResult:
    """Categorise each year of ``pools`` (year → labels and aliases of its objects) from
    ``answers`` (year → the model's answers that year), then the group's temporal pattern."""
    years = sorted(pools, key=year_order)
    results = []
    for position, year in enumerate(years):
        said = answers.get(year)
        if not said:
            raise InputError(f"no answer for {year}; every year of a group needs one")
        before = [name for y in years[:position] for name in pools[y]]
        after = [name for y in years[position + 1 :] for name in pools[y]]
        misses = [answer for answer in said if not matcher(answer, pools[year])]
        results.append(
            YearResult(
                year=year,
                category=year_category(said, pools[year], matcher),
                answers=len(said),
                matched=len(said) - len(misses),
                earlier=sum(bool(before) and matcher(answer, before) for answer in misses),
                later=sum(bool(after) and matcher(answer, after) for answer in misses),
            )
        )
    return GroupResult(temporal_pattern([r.category for r in results]), tuple(results))
