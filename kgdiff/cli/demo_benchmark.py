"""The demo's last step: its classification exported as a benchmark, and one record shown."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
from rich.markup import escape
from rich.table import Table

from kgdiff.cli.common import console, graph
from kgdiff.temporal.builds import Build

if TYPE_CHECKING:
    from kgdiff.export.benchmark import BenchmarkExport

EXPORTS = "exports"
"""The folder of the store where the demo writes its benchmark."""


def print_export(done: BenchmarkExport, config: str) -> None:
    """The records per config and split of an export, and how to load it."""
    table = Table("config", "split", "records", title="benchmark records")
    for name, splits in done.configs.items():
        for split, count in splits.items():
            table.add_row(name, split, f"{count:,}")
    console.print(table)
    for note in done.notes:
        console.print(note, soft_wrap=True, highlight=False)
    console.print(f"written to {done.out}", soft_wrap=True, highlight=False)
    console.print(
        f"load it with: datasets.load_dataset({str(done.out)!r}, {config!r})",
        soft_wrap=True,
        highlight=False,
    )


def export_demo_benchmark(store: Path, build: Build) -> Path:
    """Export every config of the demo's classification into ``STORE/exports/`` (replacing
    the demo's earlier export) and print it with one evolved record; the folder."""
    from kgdiff.export.benchmark import CONFIGS, export_benchmark
    from kgdiff.export.benchmark_model import BenchmarkRequest

    params = build.params
    request = BenchmarkRequest(
        cutoff=date.fromisoformat(params.cutoff),
        init=date.fromisoformat(params.init),
        current=date.fromisoformat(params.current),
        mode=params.mode,
        configs=tuple(CONFIGS),
    )
    out = store / EXPORTS / f"benchmark-{params.cutoff}"
    out.parent.mkdir(exist_ok=True)
    console.rule("[bold]a benchmark for a model with this cutoff")
    done = export_benchmark(graph(store), request, out, force=True)
    print_export(done, "qa")
    _print_record(out / "data" / "qa" / "evolved.jsonl")
    return out


def _print_record(split: Path) -> None:
    """The first record of a split: its question, options (the gold one marked) and answers."""
    lines = split.read_bytes().splitlines()
    if not lines:
        return
    record = orjson.loads(lines[0])
    table = Table("field", "value", title=f"one record of {split.parent.name}/{split.stem}")
    table.add_row("question", record["question"])
    for letter, option, kind in zip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ", record["options"], record["choice_types"], strict=False
    ):
        mark = "  ← gold" if letter == record["gold"] else ""
        table.add_row(f"option {letter}", escape(f"{option} ({kind}){mark}"))
    table.add_row("answers", ", ".join(record["answers"]))
    table.add_row("outdated answers", ", ".join(record["outdated_answers"]))
    table.add_row("true or false", f"{record['tf_statement']} → {record['tf_label']}")
    if record.get("context_page"):
        table.add_row("context", f"{record['context_page']}: {record['context'][:200]}")
    console.print(table)
