"""The records of the ``pools`` config: one per year of a (subject, property) group, asked
in that year as an open question, a cloze, a multiple-choice item and a true/false statement
(docs/benchmark-export.md#the-pools-config).

A year's *other-year objects* are the group's objects of its other asked years that are not in
that year's pool: ``earlier_objects`` (the nearest year first, going back) and
``later_objects`` (the nearest first, going forward). Naming one answers for the wrong year,
so their labels and aliases are the record's ``outdated_answers`` and the multiple-choice
item's outdated option (an earlier object when there is one, else a later one). A group's
distractors are drawn in an order fixed by its id, so its years are offered the same ones
(less any that is an answer of the year); each record's seed orders its own options.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kgdiff.export.options import Option, chosen_options, ordered_choices
from kgdiff.export.qa_records import (
    AnswerTexts,
    QaItem,
    QaSetting,
    answer_texts,
    mc_question,
    option_inputs,
    true_false,
)
from kgdiff.export.relation_model import Relation
from kgdiff.export.seeded import record_rng

Built = QaItem | str
"""A record, or why a year has none."""


@dataclass(frozen=True)
class YearAnswers:
    """The words of a year's objects and of its other-year objects, and the options besides
    the correct one (None: too few), unordered; the same for every year of a group whose
    objects and other-year objects are the same (a static group's years)."""

    texts: AnswerTexts
    correct: str
    others: list[Option] | None


def _unseen(pools: Iterable[Sequence[str]], known: set[str]) -> list[str]:
    """The values of ``pools`` not in ``known``, in order, each once."""
    found: list[str] = []
    for pool in pools:
        for value in pool:
            if value not in known:
                known.add(value)
                found.append(value)
    return found


def other_years(pools: Sequence[Sequence[str]], index: int) -> tuple[list[str], list[str]]:
    """The objects of the years before and after ``pools[index]`` that are not in it, the
    nearest year's first (the pools are a group's years in order)."""
    here = set(pools[index])
    earlier = _unseen(reversed(pools[:index]), set(here))
    later = _unseen(pools[index + 1 :], set(here))
    return earlier, later


def _sure_first(row: Mapping[str, Any]) -> list[str]:
    """The year's objects, those surely valid in it before those only precision puts there
    (so the correct option is one the qualifiers place in the year)."""
    unsure = set(row["precision_only"])
    objects = list(row["objects"])
    return [v for v in objects if v not in unsure] + [v for v in objects if v in unsure]


def year_answers(
    latest: list[str],
    others: list[str],
    every: list[str],
    relation: Relation,
    setting: QaSetting,
    group_id: str,
) -> YearAnswers | None:
    """The answers and options of a year whose objects are ``latest`` (the correct option's
    first) and other-year objects ``others``; None when no object has words. Distractors are
    none of ``every`` object of the group, drawn in an order fixed by the group's id."""
    texts = answer_texts(setting.names, latest, others)
    if texts.correct is None:
        return None
    inputs = option_inputs(texts, every, relation, setting, group_id)
    return YearAnswers(texts, inputs.correct, chosen_options(inputs, setting.options))


def year_item(
    row: Mapping[str, Any],
    others: tuple[list[str], list[str]],
    answers: YearAnswers | None,
    relation: Relation,
    setting: QaSetting,
) -> Built:
    """The record of one year of a group whose subject has a label (a row of
    :func:`~kgdiff.export.pool_groups.asked_years`), given its other-year objects (earlier,
    later) and their words."""
    subject, year = row["subject"], row["year"]
    label = str(setting.names.label(subject))
    if answers is None:
        return "no_answer_text"
    if answers.others is None:
        return "too_few_options"
    key = f"{row['group_id']}/{year}"
    rng = record_rng(setting.seed, key, "options")
    choices = ordered_choices(answers.correct, answers.others, rng)
    question, texts = relation.question_at(label, year), answers.texts
    statement, truth, other = true_false(relation, label, choices, setting, key, year)
    record = {
        "id": key, "subject": subject, "subject_label": label, "pid": relation.pid,
        "relation": relation.label, "year": year, "state": row["state"],
        "question": question, "cloze": relation.cloze_at(label, year),
        "answers": texts.answers, "answer_labels": texts.labels,
        "objects": list(row["objects"]), "precision_only": list(row["precision_only"]),
        "earlier_objects": others[0], "later_objects": others[1],
        "outdated_answers": texts.outdated,
        "mc_question": mc_question(question, choices.options), "options": choices.options,
        "choice_types": choices.choice_types, "gold": choices.gold,
        "tf_statement": statement, "tf_label": truth,
        "snapshot": row["snapshot"], "popularity": setting.popularity.get(subject),
        **setting.dates,
    }  # fmt: skip
    return QaItem(record, other)


def group_items(
    rows: Sequence[Mapping[str, Any]], relation: Relation, setting: QaSetting
) -> list[Built]:
    """The records of a group's asked years (``rows``, in year order), or why each has none."""
    subject = rows[0]["subject"]
    if setting.names.label(subject) in (None, subject):
        return ["unlabelled_subject"] * len(rows)
    pools = [list(row["objects"]) for row in rows]
    every = sorted({value for pool in pools for value in pool})
    group_id = rows[0]["group_id"]
    known: dict[tuple[tuple[str, ...], tuple[str, ...]], YearAnswers | None] = {}
    built = []
    for index, row in enumerate(rows):
        earlier, later = other_years(pools, index)
        latest, outdated = _sure_first(row), [*earlier, *later]
        key = (tuple(latest), tuple(outdated))
        if key not in known:
            known[key] = year_answers(latest, outdated, every, relation, setting, group_id)
        built.append(year_item(row, (earlier, later), known[key], relation, setting))
    return built
