"""Inspect tasks for a kgdiff benchmark folder: open questions, multiple choice, true/false.

Written by kgdiff into ``tasks/inspect/`` of an exported benchmark; it reads the JSON lines
of ``data/<config>/<split>.jsonl`` two folders up, so it runs from any working directory::

    inspect eval tasks/inspect/kgdiff_tasks.py@kgdiff_gen -T split=evolved --model …

Task arguments: ``config`` (default ``qa``), ``split`` (default: every split of the
config) and ``dry_run`` (``-T dry_run=true``: Inspect's mock model gives each record's gold
answer, offline, so that a run checks the folder and its scorers without a model). The
answer matching is kgdiff's own (``kgdiff_metrics.py`` and ``kgdiff_portable/`` beside this
file), so ``em``, ``alias_em``, ``f1``, ``outdated_rate``, ``unknown_rate``, ``date_match`` and
``number_match`` are what ``kgdiff score`` reports.
"""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, Model, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import Score, Scorer, Target, choice, includes, match, mean, scorer
from inspect_ai.solver import TaskState, generate, multiple_choice, system_message

DATASET = Path(__file__).resolve().parents[2]
SPLIT_ORDER = ("stable", "evolved", "uncharted")
ANSWER_KEYS = ("em", "alias_em", "f1", "outdated_rate", "unknown_rate")


def _sibling(name: str) -> ModuleType:
    # Loaded by path: the folder is not a package, and Inspect's own search path for task
    # files is not guaranteed when this file is imported some other way.
    path = Path(__file__).with_name(f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"kgdiff_benchmark_{name}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


METRICS = _sibling("kgdiff_metrics")
PARTIAL_KEYS: tuple[str, ...] = METRICS.PARTIAL_METRICS
"""``date_match`` and ``number_match``: only the records that have them are scored on them."""


def split_files(config: str, split: str) -> list[Path]:
    """The JSON lines files of ``split`` of ``config`` (all its splits when ``split`` is empty),
    stable, evolved and uncharted first."""
    folder = DATASET / "data" / config
    if split:
        wanted = folder / f"{split}.jsonl"
        if not wanted.is_file():
            raise FileNotFoundError(f"{wanted}: no such split of the {config} config")
        return [wanted]
    found = sorted(folder.glob("*.jsonl"))
    if not found:
        raise FileNotFoundError(f"{folder}: no split (*.jsonl) of the {config} config")
    rank = {name: position for position, name in enumerate(SPLIT_ORDER)}
    return sorted(found, key=lambda path: (rank.get(path.stem, len(rank)), path.stem))


def records(config: str, split: str) -> list[dict[str, Any]]:
    """Every record of the split (or of every split), in file order."""
    rows = []
    for path in split_files(config, split):
        with path.open(encoding="utf-8") as lines:
            rows += [json.loads(line) for line in lines if line.strip()]
    return rows


def _about(record: dict[str, Any]) -> dict[str, Any]:
    return {"level": record.get("level"), "relation": record.get("relation")}


@scorer(metrics={key: [mean()] for key in (*ANSWER_KEYS, *PARTIAL_KEYS)})
def kgdiff_answer() -> Scorer:
    """kgdiff's scores of a free-text answer (docs/scoring.md of kgdiff, without fuzzy)."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion.strip()
        # A key the record has no score for is NaN: Inspect leaves it out of that key's mean
        # (it counts the sample as unscored there), as kgdiff score's mean leaves it out.
        unscored = dict.fromkeys(PARTIAL_KEYS, math.nan)
        value = unscored | METRICS.answer_scores(answer, state.metadata)
        return Score(value=value, answer=answer)

    return score


@scorer(metrics={"outdated_rate": [mean()], "unknown_rate": [mean()]})
def chosen_kind() -> Scorer:
    """Whether the chosen option is the outdated object, or "Unknown"."""

    async def score(state: TaskState, target: Target) -> Score:
        kinds = state.metadata.get("choice_types") or []
        chosen = [c.original_position for c in state.choices if c.correct]
        kind = kinds[chosen[0]] if len(chosen) == 1 and chosen[0] < len(kinds) else "none"
        outdated, unknown = float(kind == "outdated"), float(kind == "unknown")
        return Score(value={"outdated_rate": outdated, "unknown_rate": unknown}, answer=kind)

    return score


def gold_model(replies: dict[str, str]) -> Model:
    """Inspect's mock model answering a prompt with the reply of the longest text of
    ``replies`` it holds. Its replies carry their token counts: Inspect then counts none
    itself, which it does with tiktoken's o200k_base encoding, downloaded on first use (a run
    of ``--model mockllm/model`` without network stops there)."""
    texts = sorted(replies, key=len, reverse=True)

    def reply(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        prompt = messages[-1].text
        text = next((replies[known] for known in texts if known in prompt), "")
        output = ModelOutput.from_content(model="mockllm", content=text)
        asked, said = len(prompt.split()), len(text.split())
        output.usage = ModelUsage(input_tokens=asked, output_tokens=said, total_tokens=asked + said)
        return output

    return get_model("mockllm/model", custom_outputs=reply)


def _model(dry_run: bool, replies: dict[str, str]) -> Model | None:
    """The task's own model: the gold answers' for a dry run, else the one ``--model`` names."""
    return gold_model(replies) if dry_run else None


@task
def kgdiff_gen(config: str = "qa", split: str = "", dry_run: bool = False) -> Task:
    """Open questions answered in free text: kgdiff's matches (with ``date_match`` and
    ``number_match`` for the records that have them), and Inspect's ``includes``."""
    samples = [
        Sample(
            input=record["question"],
            target=list(record["answers"]),
            id=record["id"],
            metadata={
                **_about(record),
                **{name: record.get(name) for name in METRICS.SCORED_FIELDS},
            },
        )
        for record in records(config, split)
    ]
    gold = {record["question"]: _first(record) for record in records(config, split)}
    return Task(
        dataset=MemoryDataset(samples, name=f"kgdiff_{config}_gen"),
        solver=[
            system_message("Give only the answer, as a name or a value, on one line."),
            generate(),
        ],
        scorer=[kgdiff_answer(), includes()],
        model=_model(dry_run, gold),
    )


def _first(record: dict[str, Any]) -> str:
    """A record's first answer, as a model that knows it would give it."""
    return str((record.get("answer_labels") or record["answers"] or [""])[0])


@task
def kgdiff_mc(config: str = "qa", split: str = "", dry_run: bool = False) -> Task:
    """Multiple choice: Inspect's ``choice`` and how often the outdated option is chosen."""
    samples = [
        Sample(
            input=record["question"],
            choices=list(record["options"]),
            target=record["gold"],
            id=record["id"],
            metadata={**_about(record), "choice_types": record.get("choice_types") or []},
        )
        for record in records(config, split)
    ]
    gold = {record["question"]: f"ANSWER: {record['gold']}" for record in records(config, split)}
    return Task(
        dataset=MemoryDataset(samples, name=f"kgdiff_{config}_mc"),
        solver=multiple_choice(),
        scorer=[choice(), chosen_kind()],
        model=_model(dry_run, gold),
    )


@task
def kgdiff_tf(config: str = "qa", split: str = "", dry_run: bool = False) -> Task:
    """True or false statements, the answer matched at the start of the reply."""
    samples = [
        Sample(
            input=f"True or false? {record['tf_statement']}",
            target="True" if record["tf_label"] else "False",
            id=record["id"],
            metadata=_about(record),
        )
        for record in records(config, split)
    ]
    gold = {
        record["tf_statement"]: "True" if record["tf_label"] else "False"
        for record in records(config, split)
    }
    return Task(
        dataset=MemoryDataset(samples, name=f"kgdiff_{config}_tf"),
        solver=[system_message("Reply with True or False."), generate()],
        scorer=match(location="begin"),
        model=_model(dry_run, gold),
    )
