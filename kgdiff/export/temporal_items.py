"""The ``temporal`` config's items about one statement: when it started or ended
(``timestamp``) and how long it held (``interval``), from its start (P580) and end (P582)
qualifiers in the snapshot read (docs/benchmark-export.md#the-temporal-config)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from kgdiff.export.dataset_schema import TEMPORAL_SCHEMA
from kgdiff.export.options import Choices, OptionInputs, build_choices
from kgdiff.export.qa_records import QaItem, QaSetting, mc_question, statement_pair
from kgdiff.export.relation_model import Relation, RelationCatalogue
from kgdiff.export.seeded import fixed_rng, record_rng
from kgdiff.export.temporal_dates import Duration, QualifierDate, held_for, qualifier_date

NOISE_STEPS = 6
"""Distractor dates and durations lie 1 to this many years (or units) from the gold."""
_ASKED = {"year": "In which year", "month": "In which month and year", "day": "On which date"}
_VERBS = {"start": ("become", "became"), "end": ("stop being", "stopped being")}


@dataclass(frozen=True)
class TemporalSetting:
    """What every temporal record shares: the qa setting (dates, seed, options, names,
    distractors, popularity), the catalogue, and the snapshot read."""

    qa: QaSetting
    catalogue: RelationCatalogue
    snapshot: str | None


def base_record(
    row: Mapping[str, Any], kind: str, key: str, label: str, setting: TemporalSetting
) -> dict[str, Any]:
    """The fields every record has (the others null, for its kind to fill)."""
    relation = setting.catalogue[row["pid"]]
    record: dict[str, Any] = dict.fromkeys(TEMPORAL_SCHEMA.names())
    record.update(
        id=key, subject=row["subject"], subject_label=label, pid=relation.pid,
        relation=relation.label, kind=kind, outdated_answers=[], outdated=[],
        popularity=setting.qa.popularity.get(row["subject"]), snapshot=setting.snapshot,
        **setting.qa.dates,
    )  # fmt: skip
    return record


def truth(
    choices: Choices, render: Callable[[str], str], setting: TemporalSetting, key: str
) -> tuple[str, bool, str | None]:
    """The true/false statement (``render`` of an option), its truth and the statement of
    the other truth (:func:`~kgdiff.export.qa_records.statement_pair`)."""
    return statement_pair(choices, render, setting.qa.seed, key)


def choice_fields(
    question: str,
    choices: Choices,
    render: Callable[[str], str],
    setting: TemporalSetting,
    key: str,
) -> tuple[dict[str, Any], str | None]:
    """The multiple-choice and true/false fields of a record, and its other statement."""
    statement, label, other = truth(choices, render, setting, key)
    fields = {
        "question": question, "mc_question": mc_question(question, choices.options),
        "options": choices.options, "choice_types": choices.choice_types, "gold": choices.gold,
        "tf_statement": statement, "tf_label": label,
    }  # fmt: skip
    return fields, other


def _offsets(key: str) -> list[int]:
    steps = [sign * step for step in range(1, NOISE_STEPS + 1) for sign in (1, -1)]
    fixed_rng(key, "noise").shuffle(steps)
    return steps


def _date_noise(when: QualifierDate, key: str) -> Iterator[str]:
    for offset in _offsets(key):
        other = when.shifted(offset)
        if other is not None:
            yield other.texts()[0]


def _duration_noise(held: Duration, key: str) -> Iterator[str]:
    for offset in _offsets(key):
        if held.count + offset > 0:
            yield Duration(held.count + offset, held.unit).text()


def _choices(
    texts: list[str], noise: Iterator[str], setting: TemporalSetting, key: str
) -> Choices | None:
    inputs = OptionInputs(texts[0], texts, [], [], noise)
    return build_choices(inputs, record_rng(setting.qa.seed, key, "options"), setting.qa.options)


def bound_date(row: Mapping[str, Any], bound: str) -> QualifierDate | str:
    """The start or end of a statement at its precision, or why it cannot be asked."""
    if row[f"{bound}_snaktype"] != "value" or not row[f"{bound}_values"]:
        return "unknown_date"
    if row[f"{bound}_values"] > 1:
        return "several_dates"
    when = qualifier_date(row[f"{bound}_value"])
    if when is None:
        return "coarser_than_year"
    if row[f"{bound}_after"]:
        return "after_snapshot"
    return when


def _dates(row: Mapping[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for bound in ("start", "end"):
        when = qualifier_date(row[f"{bound}_value"]) if row[f"{bound}_values"] == 1 else None
        fields[bound] = when.iso() if when else None
        fields[f"{bound}_precision"] = when.precision if when else None
    return fields


def _asked(row: Mapping[str, Any], setting: TemporalSetting) -> tuple[str, str, Relation] | str:
    names = setting.qa.names
    label = names.label(row["subject"])
    if not label:
        return "unlabelled_subject"
    text = names.main_text(row["value"])
    if text is None:
        return "no_object_text"
    return label, text, setting.catalogue[row["pid"]]


def timestamp_item(row: Mapping[str, Any], setting: TemporalSetting) -> QaItem | str:
    """When a statement started or ended (``row["bound"]``), at its qualifier's
    precision; or why it is not asked."""
    bound, key = row["bound"], row["_id"]
    when = bound_date(row, bound)
    asked = _asked(row, setting)
    if isinstance(when, str) or isinstance(asked, str):
        return when if isinstance(when, str) else str(asked)
    label, text, relation = asked
    verb, past = _VERBS[bound]
    subject = f"{label}'s {relation.label}"
    texts = when.texts()
    choices = _choices(texts, _date_noise(when, key), setting, key)
    if choices is None:
        return "too_few_options"
    preposition = when.phrase().split(" ", 1)[0]
    question = f"{_ASKED[when.precision]} did {subject} {verb} {text}?"
    fields, other = choice_fields(
        question, choices, lambda option: f"{subject} {past} {text} {preposition} {option}.",
        setting, key,
    )  # fmt: skip
    record = base_record(row, "timestamp", key, label, setting)
    record.update(
        answers=texts, answer_labels=texts[:1], objects=[row["value"]], object_labels=[text],
        statement_id=row["statement_id"], bound=bound, date=when.iso(),
        date_precision=when.precision, **_dates(row), **fields,
    )  # fmt: skip
    return QaItem(record, other)


def interval_item(row: Mapping[str, Any], setting: TemporalSetting) -> QaItem | str:
    """How long a statement held, from its start and end; or why it is not asked."""
    key = row["_id"]
    start, end = bound_date(row, "start"), bound_date(row, "end")
    if isinstance(start, str) or isinstance(end, str):
        return start if isinstance(start, str) else str(end)
    held = held_for(start, end)
    asked = _asked(row, setting)
    if isinstance(held, str) or isinstance(asked, str):
        return held if isinstance(held, str) else str(asked)
    label, text, relation = asked
    subject = f"{label}'s {relation.label}"
    choices = _choices(held.texts(), _duration_noise(held, key), setting, key)
    if choices is None:
        return "too_few_options"
    question = f"For how many {held.unit} was {subject} {text}?"
    fields, other = choice_fields(
        question, choices, lambda option: f"{subject} was {text} for {option}.", setting, key
    )
    record = base_record(row, "interval", key, label, setting)
    record.update(
        answers=held.texts(), answer_labels=[held.text()], objects=[row["value"]],
        object_labels=[text], statement_id=row["statement_id"], duration=held.count,
        duration_unit=held.unit, **_dates(row), **fields,
    )  # fmt: skip
    return QaItem(record, other)
