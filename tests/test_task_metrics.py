"""The metrics module written into a benchmark folder
(kgdiff/export/tasks/task_files/kgdiff_metrics.py) scores as kgdiff does: the same normalisation and
the same generation scores (without fuzzy), and its lm-eval hooks read the likeliest option
right."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.export.scoring import text_match
from kgdiff.export.scoring.report import generation_score
from kgdiff.export.tasks.task_files import kgdiff_metrics as folder

RECORD: dict[str, Any] = {
    "id": "Q183-P6",
    "question": "Who is the head of government of Germany?",
    "answer_labels": ["Olaf Scholz"],
    "answers": ["Olaf Scholz", "Scholz"],
    "outdated_answers": ["Angela Merkel", "Merkel", "Gerhard Schröder"],
    "mc_question": "Who is the head of government of Germany?\nA. Angela Merkel\n…",
    "options": ["Angela Merkel", "Unknown", "Olaf Scholz", "Emmanuel Macron"],
    "choice_types": ["outdated", "unknown", "correct", "noise"],
    "gold": "C",
    "tf_statement": "Olaf Scholz is the head of government of Germany.",
    "tf_label": True,
}
ANSWERS = [*RECORD["answers"], *RECORD["outdated_answers"], "Emmanuel Macron", "unknown", ""]
TEXT = st.text(
    alphabet=st.characters(codec="utf-8", categories=["L", "M", "N", "P", "S", "Z", "Cc", "Cf"]),
    max_size=30,
)


@settings(max_examples=400)
@given(TEXT)
def test_normalise_is_kgdiffs(text: str) -> None:
    assert folder.normalise(text) == text_match.normalise(text)
    assert folder.is_unknown(text) == text_match.is_unknown(text)


@settings(max_examples=200)
@given(st.one_of(st.sampled_from(ANSWERS), TEXT, st.sampled_from(ANSWERS).map(str.upper)))
def test_answer_scores_are_kgdiffs(prediction: str) -> None:
    ours = generation_score(prediction, RECORD)
    del ours["fuzzy"]  # needs rapidfuzz: only kgdiff score gives it
    assert folder.answer_scores(prediction, RECORD) == pytest.approx(ours)


@pytest.mark.parametrize(
    ("prediction", "expected"),
    [
        ("Olaf Scholz", {"em": 1.0, "alias_em": 1.0, "outdated_rate": 0.0}),
        ("scholz", {"em": 0.0, "alias_em": 1.0, "outdated_rate": 0.0}),
        ("Gerhard Schroder.", {"em": 0.0, "alias_em": 0.0, "outdated_rate": 1.0}),
        ("I don't know", {"em": 0.0, "unknown_rate": 1.0, "outdated_rate": 0.0}),
    ],
)
def test_generation_results(prediction: str, expected: dict[str, float]) -> None:
    scores = folder.gen_results(RECORD, [f" {prediction}\n"])
    assert {key: scores[key] for key in expected} == expected


def _likelihoods(best: int, count: int) -> list[tuple[float, bool]]:
    return [(-1.0 if index == best else -5.0, False) for index in range(count)]


@pytest.mark.parametrize(
    ("best", "expected"),
    [
        (2, {"mc_accuracy": 1.0, "outdated_rate": 0.0, "unknown_rate": 0.0}),
        (0, {"mc_accuracy": 0.0, "outdated_rate": 1.0, "unknown_rate": 0.0}),
        (1, {"mc_accuracy": 0.0, "outdated_rate": 0.0, "unknown_rate": 1.0}),
        (3, {"mc_accuracy": 0.0, "outdated_rate": 0.0, "unknown_rate": 0.0}),
    ],
)
def test_multiple_choice_results(best: int, expected: dict[str, float]) -> None:
    assert folder.mc_choices(RECORD) == ["A", "B", "C", "D"]
    assert folder.mc_target(RECORD) == 2
    assert folder.mc_results(RECORD, _likelihoods(best, 4)) == expected


def test_prompts() -> None:
    assert folder.gen_text(RECORD) == f"Question: {RECORD['question']}\nAnswer:"
    assert folder.mc_text(RECORD).splitlines() == [
        RECORD["question"],
        "A. Angela Merkel",
        "B. Unknown",
        "C. Olaf Scholz",
        "D. Emmanuel Macron",
        "Answer:",
    ]
    assert folder.tf_target(RECORD) == 0
    assert folder.tf_results(RECORD, _likelihoods(0, 2)) == {"tf_accuracy": 1.0}
    assert folder.tf_results({**RECORD, "tf_label": False}, _likelihoods(0, 2)) == {
        "tf_accuracy": 0.0
    }


def test_a_chain_is_scored_without_outdated_answers() -> None:
    chain = {key: RECORD[key] for key in ("question", "answers", "answer_labels")}
    assert folder.chain_text(chain) == folder.gen_text(chain)
    assert folder.chain_results(chain, [" Scholz\n"]) == {
        "em": 0.0,
        "alias_em": 1.0,
        "f1": 1.0,
        "unknown_rate": 0.0,
    }
