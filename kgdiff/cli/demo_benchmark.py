"""The demo's last step: its classification exported as a benchmark, and one record shown."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from rich.markup import escape
from rich.table import Table

from kgdiff.cli.common import console, graph
from kgdiff.cli.export_audit import print_audit
from kgdiff.cli.tables import figure, key, prose
from kgdiff.temporal.builds import Build

if TYPE_CHECKING:
    from kgdiff.export.benchmark import BenchmarkExport
    from kgdiff.export.core.benchmark_model import BenchmarkRequest

EXPORTS = "exports"
"""The folder of the store where the demo writes its benchmark."""


def print_export(done: BenchmarkExport, config: str) -> None:
    """The audit of an export's records per config and split (their bare counts when there
    is no audit), and how to load it."""
    if done.audit is not None:
        print_audit(done.audit)
    else:
        table = Table(key("config"), key("split"), figure("records"), title="benchmark records")
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


def demo_request(init: str, cutoff: str, current: str, mode: str) -> BenchmarkRequest:
    """The demo's export of a classification's dates: every config, and ``current`` moved
    to the Wikipedia sample's date (2016-05-01) when earlier, the gap allowed. A record's
    context is a sentence of the Wikipedia snapshot dated at or before ``current``, and the
    only one is of that date; ``current`` then reads the Wikidata of 2014-12-31, so the
    levels are those of the demo's classification."""
    from kgdiff.demo import evidence_dates
    from kgdiff.export.benchmark import CONFIGS
    from kgdiff.export.core.benchmark_model import BenchmarkRequest
    from kgdiff.temporal.dates import GapPolicy

    return BenchmarkRequest(
        cutoff=date.fromisoformat(cutoff),
        init=date.fromisoformat(init),
        current=max(date.fromisoformat(current), evidence_dates()[0]),
        mode=mode,
        configs=tuple(CONFIGS),
        gap=GapPolicy(allow=True),
    )


def export_demo_benchmark(store: Path, build: Build) -> Path:
    """Export every config of the demo's classification into ``STORE/exports/`` (replacing
    the demo's earlier export, :func:`demo_request`) and print it with one evolved record
    and one with a context (a stable ``qa`` record, else a chain); the folder."""
    from kgdiff.export.benchmark import export_benchmark

    params = build.params
    request = demo_request(params.init, params.cutoff, params.current, params.mode)
    out = store / EXPORTS / f"benchmark-{params.cutoff}"
    out.parent.mkdir(exist_ok=True)
    console.rule("[bold]a benchmark for a model with this cutoff")
    console.print(
        f"init {request.init}, cutoff {request.cutoff}, current {request.current} (the"
        " Wikipedia sample's date, so that records get its sentences as contexts; the"
        " Wikidata read for it is the latest sample's)",
        soft_wrap=True,
        highlight=False,
    )
    done = export_benchmark(graph(store), request, out, force=True)
    print_export(done, "qa")
    _print_record(out / "data" / "qa" / "evolved.jsonl")
    if not _print_record(out / "data" / "qa" / "stable.jsonl", with_context=True):
        _print_chain(out / "data" / "multi_hop" / "hops_2.jsonl")
    return out


def _first(split: Path, with_context: bool) -> dict[str, Any] | None:
    """The first record of a split (with a context, if asked), or None."""
    if not split.is_file():  # an empty split is not written
        return None
    for line in split.read_bytes().splitlines():
        record: dict[str, Any] = orjson.loads(line)
        if not with_context or record.get("context_page") or any(record.get("hop_contexts", [])):
            return record
    return None


def _print_record(split: Path, with_context: bool = False) -> bool:
    """The first record of a split (that has a context, if asked): its question, options
    (the gold one marked) and answers; whether there was one."""
    record = _first(split, with_context)
    if record is None:
        return False
    kind = " with a Wikipedia context" if with_context else ""
    title = f"one record of {split.parent.name}/{split.stem}{kind}"
    table = Table(key("field"), prose("value"), title=title)
    table.add_row("question", record["question"])
    for letter, option, choice in zip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ", record["options"], record["choice_types"], strict=False
    ):
        mark = "  ← gold" if letter == record["gold"] else ""
        table.add_row(f"option {letter}", escape(f"{option} ({choice}){mark}"))
    table.add_row("answers", ", ".join(record["answers"]))
    table.add_row("outdated answers", ", ".join(record["outdated_answers"]))
    table.add_row("true or false", f"{record['tf_statement']} → {record['tf_label']}")
    if record.get("context_page"):
        table.add_row("context", f"{record['context_page']}: {record['context'][:200]}")
    console.print(table)
    return True


def _print_chain(split: Path) -> None:
    """The first chain of a split with a Wikipedia context for some hop: its question, its
    hops' questions with their contexts, and its answers."""
    record = _first(split, with_context=True)
    if record is None:
        return
    title = f"one record of {split.parent.name}/{split.stem} with a Wikipedia context"
    table = Table(key("field"), prose("value"), title=title)
    table.add_row("question", record["question"])
    questions, contexts = record["hop_questions"], record["hop_contexts"]
    hops = zip(questions, contexts, record["hop_context_pages"], strict=True)
    for number, (question, context, page) in enumerate(hops, start=1):
        table.add_row(f"hop {number}", question)
        if context:
            table.add_row(f"hop {number} context", f"{page}: {context[:200]}")
    table.add_row("answers", ", ".join(record["answers"]))
    console.print(table)
