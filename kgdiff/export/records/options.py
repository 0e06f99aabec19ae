"""Which options a multiple-choice item gets besides the correct answer: the outdated one,
"I don't know", and distractors, by one record's inputs: the rule that
:mod:`kgdiff.export.records.option_frames` applies column by column (and is tested against).

Rules (docs/benchmark-export.md): the correct option is a label of a latest object; the outdated
option, a label of an outdated object, is there whenever the group has one that reads
differently from every latest label and alias; the "unknown" option is always there (given
room); distractors fill the rest, in the order they are offered, each reading differently
(once normalised as scoring normalises answers) from every label and alias of the latest and
the outdated objects and from every option already taken. Which options a record gets never
depends on the seed; the seed only orders them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kgdiff.export.words.forms import normalised

UNKNOWN_OPTION = "I don't know"
"""The option that abstains (the scoring reads it as an abstention:
kgdiff.export.scoring.text_match)."""
DEFAULT_OPTIONS = 4
CHOICE_TYPES = ("correct", "outdated", "unknown", "noise")
Option = tuple[str, str]
"""An option's text and type (one of :data:`CHOICE_TYPES`)."""


@dataclass(frozen=True)
class OptionInputs:
    """What a record's options are chosen from."""

    correct: str
    """The correct option's text (a label of a latest object)."""
    latest: Sequence[str]
    """Every label and alias of the latest objects."""
    outdated: Sequence[str]
    """Every label and alias of the outdated objects."""
    outdated_labels: Sequence[str]
    """The outdated objects' labels, in the order the outdated option prefers them."""
    noise: Iterable[str]
    """Distractor candidates, most wanted first (taken lazily)."""


def _forms(texts: Iterable[str]) -> set[str]:
    return {form for form in map(normalised, texts) if form}


def _others(inputs: OptionInputs, wanted: int) -> list[Option]:
    """The options besides the correct one, as (text, type), at most ``wanted``."""
    latest = _forms([*inputs.latest, inputs.correct])
    taken = latest | _forms([UNKNOWN_OPTION])
    others: list[Option] = []
    for label in inputs.outdated_labels:
        form = normalised(label)
        if form and form not in taken:
            others.append((label, "outdated"))
            taken.add(form)
            break
    others.append((UNKNOWN_OPTION, "unknown"))
    taken |= _forms(inputs.outdated)
    for text in inputs.noise:
        if len(others) >= wanted:
            break
        form = normalised(text)
        if form and form not in taken:
            others.append((text, "noise"))
            taken.add(form)
    return others[:wanted]


def chosen_options(inputs: OptionInputs, size: int = DEFAULT_OPTIONS) -> list[Option] | None:
    """The ``size - 1`` options (2 to 26 in all) besides the correct one, as (text, type),
    unordered; None when there are not enough distinct options (or the correct text is empty
    once normalised)."""
    if not 2 <= size <= 26:
        raise ValueError(f"a multiple-choice item takes 2 to 26 options, not {size}")
    if not normalised(inputs.correct):
        return None
    others = _others(inputs, size - 1)
    return others if len(others) == size - 1 else None
