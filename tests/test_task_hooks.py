"""The hooks the lm-eval task files of a benchmark folder name (kgdiff_metrics.py, written by
write_tasks and imported from its path as lm-eval imports it): the prompts, the scores of an
open answer, the likeliest option of a multiple-choice or true/false item, a chain's answer."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from tests.task_tools import folder_task_module

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


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The task files' kgdiff_metrics.py, of a folder of :data:`RECORD`."""
    return folder_task_module(tmp_path_factory.mktemp("task-hooks"), [RECORD])


@pytest.mark.parametrize(
    ("prediction", "expected"),
    [
        ("Olaf Scholz", {"em": 1.0, "alias_em": 1.0, "outdated_rate": 0.0}),
        ("scholz", {"em": 0.0, "alias_em": 1.0, "outdated_rate": 0.0}),
        ("Gerhard Schroder.", {"em": 0.0, "alias_em": 0.0, "outdated_rate": 1.0}),
        ("I don't know", {"em": 0.0, "unknown_rate": 1.0, "outdated_rate": 0.0}),
    ],
)
def test_generation_results(
    folder: ModuleType, prediction: str, expected: dict[str, float]
) -> None:
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
def test_multiple_choice_results(folder: ModuleType, best: int, expected: dict[str, float]) -> None:
    assert folder.mc_choices(RECORD) == ["A", "B", "C", "D"]
    assert folder.mc_target(RECORD) == 2
    assert folder.mc_results(RECORD, _likelihoods(best, 4)) == expected


def test_prompts(folder: ModuleType) -> None:
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


def test_a_chain_is_scored_without_outdated_answers(folder: ModuleType) -> None:
    chain = {key: RECORD[key] for key in ("question", "answers", "answer_labels")}
    assert folder.chain_text(chain) == folder.gen_text(chain)
    assert folder.chain_results(chain, [" Scholz\n"]) == {
        "em": 0.0,
        "alias_em": 1.0,
        "f1": 1.0,
        "unknown_rate": 0.0,
    }
