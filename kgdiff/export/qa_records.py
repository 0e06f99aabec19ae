"""One record of the ``qa`` config: a (subject, property) group of the classification asked
as an open question, a cloze, a multiple-choice item and a true/false statement
(docs/benchmark-export.md#qa)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kgdiff.export.choices import letter
from kgdiff.export.contexts import Context
from kgdiff.export.names import Names, main_texts_of, texts_of
from kgdiff.export.noise import NoisePool
from kgdiff.export.options import Choices, OptionInputs, build_choices, normalised
from kgdiff.export.relation_model import Relation
from kgdiff.export.seeded import record_rng

MC_INSTRUCTION = "Answer with the letter of the correct option."


@dataclass(frozen=True)
class QaSetting:
    """What every record of an export shares: the dates, the seed, the options' count, and
    the store's names, distractors, contexts and popularity."""

    dates: Mapping[str, str]
    """``init``, ``cutoff`` and ``current`` as ISO dates."""
    seed: int
    options: int
    names: Names
    noise: NoisePool
    contexts: Mapping[tuple[str, str], Context]
    popularity: Mapping[str, float]


@dataclass(frozen=True)
class QaItem:
    """A record, and the true/false statement of the other truth value (None when the
    record cannot be made false), which a split whose labels all agree may swap in."""

    record: dict[str, Any]
    other_statement: str | None


def mc_question(question: str, options: list[str]) -> str:
    """The question with its options lettered, one a line, and the instruction."""
    lines = [f"{letter(index)}. {option}" for index, option in enumerate(options)]
    return "\n".join([question, *lines, MC_INSTRUCTION])


@dataclass(frozen=True)
class AnswerTexts:
    """The words of a group's answers, worked out once per record."""

    answers: list[str]
    """Labels and aliases of the latest objects (renderings of other values)."""
    labels: list[str]
    """The latest objects' labels."""
    outdated: list[str]
    """Labels and aliases of the outdated objects."""
    outdated_labels: list[str]
    correct: str | None
    """The value whose label is the correct option (None: no latest value has words)."""


def answer_texts(names: Names, latest: list[str], outdated: list[str]) -> AnswerTexts:
    """The words of the ``latest`` and ``outdated`` values; an outdated text that reads as a
    latest one (once normalised as scoring normalises answers) is left out, since an answer
    naming it is right, not outdated."""
    correct = next((value for value in latest if names.main_text(value) is not None), None)
    answers = texts_of(names, latest)
    if not outdated:
        return AnswerTexts(answers, main_texts_of(names, latest), [], [], correct)
    current = {normalised(text) for text in answers}
    return AnswerTexts(
        answers,
        main_texts_of(names, latest),
        [text for text in texts_of(names, outdated) if normalised(text) not in current],
        [text for text in main_texts_of(names, outdated) if normalised(text) not in current],
        correct,
    )


def option_inputs(
    texts: AnswerTexts, all_answers: list[str], relation: Relation, setting: QaSetting, key: str
) -> OptionInputs:
    """What the options of an item whose latest values have words (``texts``) are chosen
    from; distractors are none of ``all_answers``, drawn in an order fixed by ``key``."""
    names, value = setting.names, str(texts.correct)
    classes = [*names.classes(value), *filter(None, [relation.object_class])]
    return OptionInputs(
        correct=str(names.main_text(value)),
        latest=texts.answers,
        outdated=texts.outdated,
        outdated_labels=texts.outdated_labels,
        noise=setting.noise.offer(key, relation.pid, classes, all_answers),
    )


def item_choices(
    texts: AnswerTexts, all_answers: list[str], relation: Relation, setting: QaSetting, key: str
) -> Choices | None:
    """The multiple-choice item of a group whose latest values have words (``texts``);
    distractors are none of ``all_answers``."""
    inputs = option_inputs(texts, all_answers, relation, setting, key)
    return build_choices(inputs, record_rng(setting.seed, key, "options"), setting.options)


def true_false(
    relation: Relation,
    subject: str,
    choices: Choices,
    setting: QaSetting,
    key: str,
    year: int | None = None,
) -> tuple[str, bool, str | None]:
    """The statement, its truth, and the statement of the other truth (if any): false ones
    name the outdated option when there is one, else a distractor; with a ``year``, the
    relation's statement anchored in it."""

    def said(object: str) -> str:
        if year is None:
            return relation.statement(subject, object)
        return relation.statement_at(subject, object, year)

    return statement_pair(choices, said, setting.seed, key)


def statement_pair(
    choices: Choices, render: Callable[[str], str], seed: int, key: str
) -> tuple[str, bool, str | None]:
    """A true/false statement (``render`` of an option), its truth, and the statement of the
    other truth (if any): the false one names the outdated option when there is one, else a
    distractor; which of the two a record states is the seed's choice."""
    correct = choices.options[choices.choice_types.index("correct")]
    wrong = next(
        (
            choices.options[choices.choice_types.index(kind)]
            for kind in ("outdated", "noise")
            if kind in choices.choice_types
        ),
        None,
    )
    true_text, false_text = render(correct), render(wrong) if wrong is not None else None
    if false_text is None or record_rng(seed, key, "tf").random() < 0.5:
        return true_text, True, false_text
    return false_text, False, true_text
