"""``kgdiff score``: a model's predictions scored against an exported benchmark's records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, cast

import typer

from kgdiff.cli.common import console
from kgdiff.errors import UsageError
from kgdiff.export.dataset.folder import dataset_splits, read_records
from kgdiff.export.scoring.pools import score_pools
from kgdiff.export.scoring.predictions import read_predictions
from kgdiff.export.scoring.report import SCORERS, Task, score_predictions

POOLS = "pools"
REQUIRED: dict[str, tuple[str, ...]] = {
    "generation": ("id", "answers", "outdated_answers"),
    "mc": ("id", "options", "gold"),
    "tf": ("id", "tf_label"),
    POOLS: ("id", "subject", "relation", "year", "answers"),
}
"""The columns each scoring reads (the others it reads when present)."""


def score_command(
    predictions: Annotated[
        Path, typer.Argument(help='JSON lines, one {"id": …, "prediction": …} per record.')
    ],
    dataset: Annotated[
        Path, typer.Option("--dataset", help="The benchmark folder (kgdiff export benchmark).")
    ],
    config: Annotated[
        str, typer.Option("--config", help="The config whose records are scored.")
    ] = "qa",
    split: Annotated[
        list[str] | None,
        typer.Option("--split", help="Only this split (repeatable; default: every split)."),
    ] = None,
    task: Annotated[
        str,
        typer.Option("--task", help="How the predictions answer: generation, mc or tf."),
    ] = "generation",
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON (docs/scoring.md).")
    ] = False,
) -> None:
    """Score predictions against a benchmark folder's records: exact, alias-aware, token F1
    and fuzzy match and the outdated-answer rate (generation), or multiple-choice or
    true/false accuracy, overall, per level and per relation. For the pools config,
    ChroKnowBench's per-year categories and temporal patterns (docs/scoring.md)."""
    if task not in SCORERS:
        raise UsageError(f"--task {task!r}: choose one of {', '.join(SCORERS)}")
    found = read_predictions(predictions)
    kind = POOLS if config == POOLS else task
    splits = split or dataset_splits(dataset, config)
    records = read_records(dataset, config, splits, REQUIRED[kind])
    report: dict[str, Any] = {"config": config, "splits": splits}
    if kind == POOLS:
        report |= score_pools(records, found)
    else:
        report |= score_predictions(records, found, cast(Task, task))
    if as_json:
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    from kgdiff.cli.score_tables import print_pools, print_scores

    if kind == POOLS:
        print_pools(console, report)
    else:
        print_scores(console, report)
