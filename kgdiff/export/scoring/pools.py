"""Scoring the ``pools`` config: ChroKnowBench's categories over every (subject, relation)
group (:mod:`kgdiff.export.scoring.chrono`; docs/scoring.md).

A record is one year of a group: ``id``, ``subject``, ``relation``, ``year`` (an int, ``YYYY``
or ``YYYY-MM``), ``answers`` (labels and aliases of that year's objects), and optionally
``state`` (``dynamic`` / ``static``) and ``pid`` (then the group is (subject, pid), else
(subject, relation)). A prediction is one answer or a list of sampled answers. An answer
matches a year's objects by ChroKnowBench's fuzzy match, or, when the year's answers are plain
numbers and its objects quantities (a population), by stating one within 2 %
(:mod:`kgdiff.portable.number_match`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

from kgdiff.errors import InputError
from kgdiff.export.scoring.chrono import (
    PATTERNS,
    YEAR_CATEGORIES,
    GroupResult,
    Matcher,
    classify_group,
    year_order,
)
from kgdiff.export.scoring.predictions import Prediction
from kgdiff.export.scoring.report import EXAMPLE_IDS, Record, text_list
from kgdiff.export.scoring.text_match import fuzzy_match
from kgdiff.portable.number_match import counted, number_matches, plain_numbers

GroupKey = tuple[str, str]


class _Group:
    """The years of one group gathered from its records, and its state."""

    def __init__(self) -> None:
        self.pools: dict[str, list[str]] = {}
        self.answers: dict[str, list[str]] = {}
        self.state = "unknown"
        self.complete = True
        self.counted = True

    def add(self, record: Record, prediction: Prediction | None) -> None:
        """Take one year's record and its prediction (``None``: missing)."""
        year = str(record.get("year"))
        if year in self.pools:
            raise InputError(f"record {record.get('id')!r}: a second record for {year}")
        self.pools[year] = text_list(record, "answers")
        self.state = str(record.get("state", "unknown"))
        self.counted = self.counted and counted(record)
        if prediction is None:
            self.complete = False
        else:
            self.answers[year] = [prediction] if isinstance(prediction, str) else prediction


def score_pools(
    records: Iterable[Record], predictions: Mapping[str, Prediction], matcher: Matcher | None = None
) -> dict[str, Any]:
    """Categorise every year of every group and the group's temporal pattern, then count them:
    ``patterns`` (overall and ``by_state``), ``years`` (categories per year), and the groups left
    out because a year has no prediction (``incomplete``), missing and unmatched ids. ``matcher``:
    how an answer is compared with a year's answers (default: as numbers for a group of counts,
    else ChroKnowBench's fuzzy match)."""
    groups: dict[GroupKey, _Group] = {}
    seen: set[str] = set()
    for record in records:
        key = record.get("id")
        if not isinstance(key, str) or key in seen:
            raise InputError(f"record id {key!r} is not a string or occurs twice in the records")
        seen.add(key)
        # Two properties may share a relation label (a user's catalogue): the pid, when the
        # records carry it, tells their groups apart.
        group_key = (str(record.get("subject")), str(record.get("pid") or record.get("relation")))
        groups.setdefault(group_key, _Group()).add(record, predictions.get(key))
    complete = [group for group in groups.values() if group.complete]
    results = [
        (g.state, classify_group(g.pools, g.answers, matcher or _matcher(g))) for g in complete
    ]
    missing = sorted(seen - set(predictions))
    unmatched = sorted(set(predictions) - seen)
    return {
        "groups": len(results),
        "incomplete": len(groups) - len(complete),
        "patterns": _pattern_counts(result for _, result in results),
        "by_state": _by_state(results),
        "years": _year_counts(result for _, result in results),
        "missing": len(missing),
        "missing_ids": missing[:EXAMPLE_IDS],
        "unmatched": len(unmatched),
        "unmatched_ids": unmatched[:EXAMPLE_IDS],
    }


def _matcher(group: _Group) -> Matcher:
    """A counted group's years are matched as numbers (:func:`count_match`: nearer the
    year's than any other year's), others fuzzily."""
    if not group.counted:
        return fuzzy_match
    every = [number for pool in group.pools.values() for number in plain_numbers(pool) or []]
    return partial(count_match, others=every)


def count_match(prediction: str, golds: Iterable[str], others: Iterable[float] = ()) -> bool:
    """:func:`~kgdiff.portable.number_match.number_matches` when every gold text is a plain
    number, else ChroKnowBench's fuzzy match: the matcher of a counted group's years
    (:func:`~kgdiff.portable.number_match.counted`), ``others`` its other years' values."""
    texts = list(golds)
    numbers = plain_numbers(texts)
    if numbers is None:
        return fuzzy_match(prediction, texts)
    return number_matches(prediction, numbers, others)


def _pattern_counts(results: Iterable[GroupResult]) -> dict[str, Any]:
    counts = Counter(result.pattern for result in results)
    total = sum(counts.values())
    report: dict[str, Any] = {pattern: counts[pattern] for pattern in PATTERNS}
    report["rates"] = {p: (counts[p] / total if total else None) for p in PATTERNS}
    return report


def _by_state(results: list[tuple[str, GroupResult]]) -> dict[str, dict[str, Any]]:
    states = sorted({state for state, _ in results})
    return {s: _pattern_counts(r for state, r in results if state == s) for s in states}


def _year_counts(results: Iterable[GroupResult]) -> dict[str, dict[str, int]]:
    years: dict[str, Counter[str]] = {}
    for result in results:
        for year in result.years:
            tally = years.setdefault(year.year, Counter())
            tally[year.category] += 1
            tally["earlier"] += year.earlier
            tally["later"] += year.later
    keys = (*YEAR_CATEGORIES, "earlier", "later")
    return {year: {key: years[year][key] for key in keys} for year in sorted(years, key=year_order)}
