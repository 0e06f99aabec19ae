"""The ``temporal`` config's items about a group in a year: what its objects were in a year
they are known without doubt (``implicit``), and years the data cannot answer, whose gold is
the abstention (``unanswerable``) (docs/benchmark-export.md#the-temporal-config)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from kgdiff.export.choices import letter
from kgdiff.export.names import main_texts_of, texts_of
from kgdiff.export.options import UNKNOWN_OPTION, Choices, normalised
from kgdiff.export.qa_records import QaItem, answer_texts, item_choices, mc_question
from kgdiff.export.seeded import fixed_rng, record_rng
from kgdiff.export.temporal_items import TemporalSetting, base_record, choice_fields
from kgdiff.export.text_match import UNKNOWN_PHRASES

YEARS_PAST_DATA = 10
"""An unanswerable year is one of the first this many years wholly past the data's reach,
or of the this many years before the subject's start of existence."""
ABSTENTION_LABELS = [UNKNOWN_OPTION, "Unknown"]
"""kgdiff's wording of an abstention, and EvolveBench's."""


def _distinct(texts: Iterable[str]) -> list[str]:
    kept: dict[str, str] = {}
    for text in texts:
        kept.setdefault(normalised(text), text)
    return list(kept.values())


ABSTENTIONS = _distinct([*ABSTENTION_LABELS, *UNKNOWN_PHRASES])
"""Every abstention the scoring recognises (:data:`kgdiff.export.text_match.UNKNOWN_PHRASES`),
the labels first: the answers of an unanswerable item."""


def pick_year(first: int, last: int, *parts: str) -> int:
    """A year of ``[first, last]`` drawn from ``parts`` (the group and what the year is
    for), the same whatever the seed."""
    return first + fixed_rng("/".join(parts), "year").randrange(last - first + 1)


def implicit_item(row: Mapping[str, Any], setting: TemporalSetting) -> QaItem | str:
    """What a group's objects were in ``row["year"]`` (a year of a period whose objects are
    known without doubt), the group's other objects being outdated; or why it is not asked."""
    names, key, year = setting.qa.names, row["_id"], row["year"]
    label = names.label(row["subject"])
    if not label:
        return "unlabelled_subject"
    relation = setting.catalogue[row["pid"]]
    objects = list(row["objects"])
    outdated = [value for value in row["group_objects"] if value not in objects]
    texts = answer_texts(names, objects, outdated)
    if texts.correct is None:
        return "no_answer_text"
    choices = item_choices(texts, [*objects, *outdated], relation, setting.qa, key)
    if choices is None:
        return "too_few_options"
    question = relation.question_at(label, year)
    fields, other = choice_fields(
        question, choices, lambda option: relation.statement_at(label, option, year), setting, key
    )
    record = base_record(row, "implicit", key, label, setting)
    record.update(
        answers=texts.answers, answer_labels=texts.labels, outdated_answers=texts.outdated,
        objects=objects, object_labels=main_texts_of(names, objects), outdated=outdated,
        year=year, **fields,
    )  # fmt: skip
    return QaItem(record, other)


def abstention_choices(
    outdated_labels: list[str],
    outdated: list[str],
    noise: Iterable[str],
    rng: random.Random,
    size: int,
) -> Choices | None:
    """``size`` options of an unanswerable item: "I don't know" (the gold, of type
    ``unknown``) at a uniformly random place, the first outdated label (an object the data
    hold for another year), and distractors reading as none of the outdated texts."""
    taken = {normalised(UNKNOWN_OPTION)}
    others: list[tuple[str, str]] = []
    for text in outdated_labels:
        if normalised(text) and normalised(text) not in taken:
            others.append((text, "outdated"))
            taken.add(normalised(text))
            break
    taken |= {normalised(text) for text in outdated}
    for text in noise:
        if len(others) >= size - 1:
            break
        if normalised(text) and normalised(text) not in taken:
            others.append((text, "noise"))
            taken.add(normalised(text))
    if len(others) < size - 1:
        return None
    rng.shuffle(others)
    place = rng.randrange(size)
    others.insert(place, (UNKNOWN_OPTION, "unknown"))
    return Choices([text for text, _ in others], [kind for _, kind in others], letter(place))


def unanswerable_item(row: Mapping[str, Any], setting: TemporalSetting) -> QaItem | str:
    """A group asked about ``row["year"]``, a year the data cannot answer (past their reach,
    or before the subject existed): the gold is the abstention; or why it is not asked."""
    names, key, year = setting.qa.names, row["_id"], row["year"]
    label = names.label(row["subject"])
    if not label:
        return "unlabelled_subject"
    relation = setting.catalogue[row["pid"]]
    values = list(row["group_objects"])
    labels, texts = main_texts_of(names, values), texts_of(names, values)
    named = next((value for value in values if names.main_text(value) is not None), None)
    classes = [*(names.classes(named) if named else ()), *filter(None, [relation.object_class])]
    noise = setting.qa.noise.offer(key, relation.pid, classes, values)
    rng = record_rng(setting.qa.seed, key, "options")
    choices = abstention_choices(labels, texts, noise, rng, setting.qa.options)
    if choices is None:
        return "too_few_options"
    question = relation.question_at(label, year)
    record = base_record(row, "unanswerable", key, label, setting)
    record.update(
        question=question, answers=ABSTENTIONS, answer_labels=ABSTENTION_LABELS,
        outdated_answers=texts, objects=[], object_labels=[], outdated=values, year=year,
        unanswerable_reason=row["reason"], mc_question=mc_question(question, choices.options),
        options=choices.options, choice_types=choices.choice_types, gold=choices.gold,
    )  # fmt: skip
    return QaItem(record, None)
