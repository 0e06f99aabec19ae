"""Which tasks each config of a benchmark gets, and their lm-eval task files.

A *form* is one way of asking a record: an open question answered in free text (``gen``),
multiple choice (``mc``), true or false (``tf``). :data:`CONFIG_FORMS` names the forms of each
config; a config whose records carry a form's fields gets that form by one entry there. Each
(config, form) is an lm-eval group of one task per split, so that the outdated-answer rate of
``evolved`` is reported apart from ``stable``. A metric only some records have
(``date_match``, ``number_match``: :data:`~kgdiff.portable.generation.PARTIAL_METRICS`) is
reported per split and left out of the group (:func:`group_document`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from kgdiff.export.tasks.yaml_writer import Function
from kgdiff.portable.generation import PARTIAL_METRICS

METRICS_MODULE = "kgdiff_metrics"
LOWER_IS_BETTER = frozenset({"outdated_rate", "unknown_rate"})


@dataclass(frozen=True)
class Form:
    """One way of asking a record, as lm-eval runs it."""

    name: str
    title: str
    output_type: str
    fields: tuple[str, ...]
    """The record fields its hooks read (checked in each split's Parquet schema)."""
    metrics: tuple[str, ...]
    hooks: str = ""
    """The prefix of its functions in ``kgdiff_metrics.py`` (default: ``name``)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Further task-file keys (a generation's stop sequence and length)."""

    def hook(self, kind: str) -> Function:
        """The ``!function`` of one hook: ``text``, ``target``, ``choices``, ``results``."""
        return Function(f"{METRICS_MODULE}.{self.hooks or self.name}_{kind}")


GENERATION = Form(
    name="gen",
    title="open questions, answered in free text",
    output_type="generate_until",
    fields=("question", "answers", "answer_labels", "outdated_answers"),
    metrics=("em", "alias_em", "f1", "outdated_rate", "unknown_rate", *PARTIAL_METRICS),
    options={"generation_kwargs": {"until": ["\n"], "do_sample": False, "max_gen_toks": 48}},
)
MULTIPLE_CHOICE = Form(
    name="mc",
    title="multiple choice, the likeliest option letter",
    output_type="multiple_choice",
    fields=("question", "options", "choice_types", "gold"),
    metrics=("mc_accuracy", "outdated_rate", "unknown_rate"),
)
TRUE_FALSE = Form(
    name="tf",
    title="true or false statements, the likelier answer",
    output_type="multiple_choice",
    fields=("tf_statement", "tf_label"),
    metrics=("tf_accuracy",),
)
CHAIN_GENERATION = replace(
    GENERATION,
    title="multi-hop chains asked as one open question, answered in free text",
    fields=("question", "answers", "answer_labels"),
    metrics=("em", "alias_em", "f1", "unknown_rate", *PARTIAL_METRICS),
    hooks="chain",
)
"""A ``multi_hop`` chain's question: the open form without outdated answers (a chain holds
at one date)."""

CONFIG_FORMS: dict[str, tuple[Form, ...]] = {
    "qa": (GENERATION, MULTIPLE_CHOICE, TRUE_FALSE),
    "multi_hop": (CHAIN_GENERATION,),
    "updates": (GENERATION, MULTIPLE_CHOICE, TRUE_FALSE),
    # no true/false: an unanswerable item's statement has no truth value
    "temporal": (GENERATION, MULTIPLE_CHOICE),
    "pools": (GENERATION, MULTIPLE_CHOICE, TRUE_FALSE),
}
"""The forms each config's task files ask; a config not here gets no task files."""


def group_name(config: str, form: Form) -> str:
    """The lm-eval group of a (config, form): ``kgdiff_qa_gen``."""
    return f"kgdiff_{config}_{form.name}"


def task_name(config: str, form: Form, split: str) -> str:
    """The lm-eval task of one split: ``kgdiff_qa_gen_evolved``."""
    return f"{group_name(config, form)}_{split}"


def task_document(config: str, form: Form, split: str) -> dict[str, Any]:
    """The lm-eval task file of one split, reading its Parquet file (relative to the folder
    lm-eval runs in: the dataset folder)."""
    document: dict[str, Any] = {
        "task": task_name(config, form, split),
        "dataset_path": "parquet",
        "dataset_kwargs": {"data_files": {split: f"data/{config}/{split}.parquet"}},
        "test_split": split,
        "output_type": form.output_type,
        "doc_to_text": form.hook("text"),
        "doc_to_target": form.hook("target"),
    }
    if form.output_type == "multiple_choice":
        document["doc_to_choice"] = form.hook("choices")
    document.update(form.options)
    document["process_results"] = form.hook("results")
    document["metric_list"] = [
        {"metric": name, "aggregation": "mean", "higher_is_better": name not in LOWER_IS_BETTER}
        for name in form.metrics
    ]
    document["metadata"] = {"version": 1.0}
    return document


def group_document(config: str, form: Form, splits: list[str]) -> dict[str, Any]:
    """The lm-eval group of a (config, form): its split tasks, and each metric's mean over
    them weighted by their sizes. A metric only some records have is left out: lm-eval
    weighs a split by its number of records, not by the number that have the metric, so its
    mean over the splits would be off (the split tasks report it right)."""
    whole = [name for name in form.metrics if name not in PARTIAL_METRICS]
    return {
        "group": group_name(config, form),
        "task": [task_name(config, form, split) for split in splits],
        "aggregate_metric_list": [
            {"metric": name, "aggregation": "mean", "weight_by_size": True} for name in whole
        ],
        "metadata": {"version": 1.0},
    }
