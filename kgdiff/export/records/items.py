"""Records built one by one (the small ``updates`` and ``multi_hop`` splits): an item and its
other true/false statement, the lettered multiple-choice question; and the rule for the words
of a record's answers, which :mod:`kgdiff.export.records.answer_frames` applies column by column
(and is tested against)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kgdiff.export.scoring.choices import letter
from kgdiff.export.words.forms import normalised
from kgdiff.export.words.names import Names, main_texts_of, texts_of

MC_INSTRUCTION = "Answer with the letter of the correct option."


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
