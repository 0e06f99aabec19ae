"""Scoring predictions against benchmark records, overall, per level and per relation.

A record is a mapping with ``id``, ``level``, ``relation``, ``answers`` (labels and aliases of the
latest objects) and ``outdated_answers`` (labels and aliases of the outdated objects), optionally
``answer_labels`` (the latest objects' labels: what ``em`` compares against; without them ``em``
compares against ``answers``), ``options`` with ``gold`` (a letter) and ``choice_types``, and
``tf_label``. The metrics and their JSON keys are described in docs/scoring.md. A record of the
``temporal`` config also has a ``kind``: its scores are reported per kind as well, and its
timestamp and interval records get the date-aware ``date_match``
(:mod:`kgdiff.portable.date_match`), as do records of other configs whose gold objects are
dates (an inception in ``qa``). A record whose gold objects are quantities and answers plain
numbers (a population) also gets ``number_match`` (:mod:`kgdiff.portable.number_match`: a
count stated within 2 %). The free-text scores but ``fuzzy`` are
:mod:`kgdiff.portable.generation`'s, which a benchmark folder's task files compute too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from kgdiff.errors import InputError, UsageError
from kgdiff.export.scoring.choices import chosen_option, mc_correct, truth_value
from kgdiff.export.scoring.predictions import Prediction
from kgdiff.export.scoring.text_match import fuzzy_match, is_unknown, matches_any
from kgdiff.portable.generation import answer_scores

Record = Mapping[str, Any]
Task = Literal["generation", "mc", "tf"]
ItemScore = dict[str, float]

EXAMPLE_IDS = 20
"""How many of the missing or unmatched ids a report lists (the counts are complete)."""


def text_list(record: Record, key: str, required: bool = True) -> list[str]:
    """``record[key]`` as a list of strings (absent and not required: empty)."""
    value = record.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InputError(f"record {record.get('id')!r}: {key!r} must be a list of strings")
    return value


def generation_score(prediction: str, record: Record) -> ItemScore:
    """One free-text answer: the scores of :func:`kgdiff.portable.generation.answer_scores`
    (``em``, ``f1``, ``alias_em``, ``outdated_rate``, ``unknown_rate``, and ``date_match`` and
    ``number_match`` for the records that have them), which a benchmark folder's task files
    report too, and ``fuzzy`` after ``alias_em`` (ChroKnowBench's match: it needs rapidfuzz,
    ``kgdiff score`` alone gives it)."""
    answers = text_list(record, "answers")
    labels = text_list(record, "answer_labels", required=False) or answers
    text_list(record, "outdated_answers")  # checked here: answer_scores reads it
    try:
        scores = answer_scores(prediction, record)
    except ValueError as exc:
        raise InputError(f"record {record.get('id')!r}: {exc}") from exc
    # An outdated answer is not correct by fuzzy matching either (its words often overlap the
    # latest object's).
    fuzzy = not scores["outdated_rate"] and fuzzy_match(prediction, [*answers, *labels])
    ordered: ItemScore = {}
    for key, value in scores.items():  # fuzzy after alias_em, where reports have listed it
        ordered[key] = value
        if key == "alias_em":
            ordered["fuzzy"] = float(fuzzy)
    return ordered


def mc_score(prediction: str, record: Record) -> ItemScore:
    """One multiple-choice answer: ``mc_accuracy``, ``outdated_rate`` (chose the outdated
    option), ``unknown_rate`` (chose "Unknown" or abstained), ``invalid_rate`` (chose nothing)."""
    options = text_list(record, "options")
    gold = record.get("gold")
    if not isinstance(gold, str):
        raise InputError(f"record {record.get('id')!r}: 'gold' must be an option letter")
    kinds = text_list(record, "choice_types", required=False)
    index = chosen_option(prediction, options)
    kind = _choice_kind(record, options, kinds, index)
    unknown = kind == "unknown" or (index is None and is_unknown(prediction))
    return {
        "mc_accuracy": float(mc_correct(prediction, options, gold)),
        "outdated_rate": float(kind == "outdated"),
        "unknown_rate": float(unknown),
        "invalid_rate": float(index is None and not unknown),
    }


def _choice_kind(record: Record, options: list[str], kinds: list[str], index: int | None) -> str:
    if index is None:
        return "none"
    if kinds:
        return kinds[index]
    chosen = options[index]
    if matches_any(chosen, text_list(record, "answers")):
        return "correct"
    outdated = matches_any(chosen, text_list(record, "outdated_answers"))
    return "outdated" if outdated else ("unknown" if is_unknown(chosen) else "noise")


def tf_score(prediction: str, record: Record) -> ItemScore:
    """One true/false answer: ``tf_accuracy``, ``unknown_rate`` (abstained) and
    ``invalid_rate`` (neither a truth value nor an abstention)."""
    label = record.get("tf_label")
    if not isinstance(label, bool):
        raise InputError(f"record {record.get('id')!r}: 'tf_label' must be true or false")
    value = truth_value(prediction)
    unknown = value is None and is_unknown(prediction)
    return {
        "tf_accuracy": float(value is label),
        "unknown_rate": float(unknown),
        "invalid_rate": float(value is None and not unknown),
    }


SCORERS: dict[str, Callable[[str, Record], ItemScore]] = {
    "generation": generation_score,
    "mc": mc_score,
    "tf": tf_score,
}


@dataclass
class Tally:
    """Sums of item scores; :meth:`report` gives ``n`` and the means."""

    n: int = 0
    sums: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, score: ItemScore) -> None:
        """Count one scored item."""
        self.n += 1
        for key, value in score.items():
            self.sums[key] = self.sums.get(key, 0.0) + value
            self.counts[key] = self.counts.get(key, 0) + 1

    def report(self) -> dict[str, Any]:
        """``{"n": n, metric: mean, …}`` (only ``n`` when nothing was scored); a metric only
        some items have (``date_match``, ``number_match``) is the mean over those."""
        return {"n": self.n, **{key: total / self.counts[key] for key, total in self.sums.items()}}


def score_predictions(
    records: Iterable[Record], predictions: Mapping[str, Prediction], task: Task = "generation"
) -> dict[str, Any]:
    """Score ``predictions`` (id → answer) on ``records`` for one task (``generation``, ``mc``
    or ``tf``): ``overall``, ``by_level`` and ``by_relation`` tallies (and ``by_kind`` when the
    records have a ``kind``), and the records without a prediction and the predictions without
    a record (counted and listed, not scored)."""
    scorer = SCORERS.get(task)
    if scorer is None:
        raise UsageError(f"unknown task {task!r}; choose one of {', '.join(SCORERS)}")
    overall = Tally()
    levels: dict[str, Tally] = {}
    relations: dict[str, Tally] = {}
    kinds: dict[str, Tally] = {}
    seen: set[str] = set()
    missing: list[str] = []
    for record in records:
        key = _record_id(record, seen)
        if key not in predictions:
            missing.append(key)
            continue
        score = scorer(_one_answer(key, predictions[key]), record)
        overall.add(score)
        levels.setdefault(str(record.get("level")), Tally()).add(score)
        relations.setdefault(str(record.get("relation")), Tally()).add(score)
        if record.get("kind") is not None:
            kinds.setdefault(str(record["kind"]), Tally()).add(score)
    unmatched = sorted(set(predictions) - seen)
    return {
        "task": task,
        "overall": overall.report(),
        "by_level": _reports(levels),
        "by_relation": _reports(relations),
        **({"by_kind": _reports(kinds)} if kinds else {}),
        "records": len(seen),
        "missing": len(missing),
        "missing_ids": sorted(missing)[:EXAMPLE_IDS],
        "unmatched": len(unmatched),
        "unmatched_ids": unmatched[:EXAMPLE_IDS],
    }


def _record_id(record: Record, seen: set[str]) -> str:
    key = record.get("id")
    if not isinstance(key, str):
        raise InputError(f"a record has no string 'id' (it has {sorted(record)})")
    if key in seen:
        raise InputError(f"record id {key!r} occurs twice in the records")
    seen.add(key)
    return key


def _one_answer(key: str, prediction: Prediction) -> str:
    if isinstance(prediction, str):
        return prediction
    raise UsageError(f"prediction {key!r} is a list; this scoring takes one answer per id")


def _reports(tallies: Mapping[str, Tally]) -> dict[str, dict[str, Any]]:
    return {name: tallies[name].report() for name in sorted(tallies)}
