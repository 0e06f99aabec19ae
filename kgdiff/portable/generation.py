"""The scores of a free-text answer to one record (docs/scoring.md#free-text-answers), all but
the fuzzy match: ``kgdiff score`` adds that one (it needs rapidfuzz,
:func:`kgdiff.export.scoring.report.generation_score`), and a benchmark folder's lm-eval and
Inspect tasks report these as they are (docs/benchmark-tasks.md).

A record is a mapping with ``answers`` (labels and aliases of the latest objects),
``outdated_answers`` (those of the outdated objects) and optionally ``answer_labels`` (the
latest objects' labels: what ``em`` compares against; without them ``em`` compares against
``answers``); the other fields read (:data:`SCORED_FIELDS`) decide whether the answer also
gets ``date_match`` (a ``temporal`` timestamp or interval record, or gold objects that are
dates) and ``number_match`` (gold objects that are quantities, answers plain numbers).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .answer_text import is_unknown, matches_any, token_f1
from .date_match import date_matches, duration_matches, end_dates, time_key_dates
from .number_match import (
    OTHER_VALUES,
    counted,
    gold_keys,
    number_matches,
    other_amounts,
    plain_numbers,
)

DATE_KINDS = ("timestamp", "interval")
"""The kinds of ``temporal`` records whose answers are a date or a duration."""
PARTIAL_METRICS = ("date_match", "number_match")
"""The scores only some records get: a mean of one is over the records that have it."""
SCORED_FIELDS = (
    "answers", "answer_labels", "outdated_answers", "kind", "date", "date_precision", "bound",
    "duration", "duration_unit", "latest", "objects", *OTHER_VALUES,
)  # fmt: skip
"""The record fields :func:`answer_scores` reads (a field a record lacks reads as absent)."""


def answer_scores(prediction: str, record: Mapping[str, Any]) -> dict[str, float]:
    """One free-text answer: ``em`` (a latest object's label), ``f1``, ``alias_em`` (a label
    or an alias), ``outdated_rate`` (an outdated object and no latest one) and
    ``unknown_rate`` (an abstention) as 0/1 (``f1`` in [0, 1]); ``date_match`` and
    ``number_match`` for the records that have them (:data:`PARTIAL_METRICS`), 0 for an
    outdated answer. A ``ValueError`` for a date record without its date fields."""
    answers = list(record["answers"])
    labels = list(record.get("answer_labels") or answers)
    gold = [*answers, *labels]
    latest = matches_any(prediction, gold)
    outdated = not latest and matches_any(prediction, record.get("outdated_answers") or [])
    scores = {
        "em": float(matches_any(prediction, labels)),
        "f1": token_f1(prediction, gold),
        "alias_em": float(latest),
        "outdated_rate": float(outdated),
        "unknown_rate": float(is_unknown(prediction)),
    }
    if record.get("kind") in DATE_KINDS:
        scores["date_match"] = float(date_match(prediction, record))
    elif dates := time_key_dates(gold_keys(record)):
        said = any(date_matches(prediction, iso, precision) for iso, precision in dates)
        scores["date_match"] = float(not outdated and said)
    numbers = plain_numbers(answers) if counted(record) else None
    if numbers is not None:
        others = other_amounts(record)
        scores["number_match"] = float(not outdated and number_matches(prediction, numbers, others))
    return scores


def date_match(prediction: str, record: Mapping[str, Any]) -> bool:
    """Whether a timestamp record's ``date`` (at its ``date_precision``; an ``end`` also by
    the day after it) or an interval record's ``duration`` (in its ``duration_unit``) is what
    the prediction states; a ``ValueError`` when the record lacks them."""
    try:
        if record.get("kind") == "timestamp":
            golds = [record["date"]]
            if record.get("bound") == "end":
                golds = end_dates(record["date"], record["date_precision"])
            return any(date_matches(prediction, g, record["date_precision"]) for g in golds)
        return duration_matches(prediction, int(record["duration"]), record["duration_unit"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(
            f"a {record.get('kind')} record needs its date or duration fields ({exc})"
        ) from exc
