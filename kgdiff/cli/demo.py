"""``kgdiff demo``: ingest the bundled samples and print what was built."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.table import Table

from kgdiff.cli.common import StoreOption, console, resumable
from kgdiff.cli.demo_benchmark import export_demo_benchmark
from kgdiff.cli.demo_evidence import print_verdicts
from kgdiff.cli.ingest import print_result
from kgdiff.cli.ingest_wikipedia import print_wikipedia_result
from kgdiff.cli.progress import progress_for
from kgdiff.cli.tables import figure, key, prose
from kgdiff.demo import UPDATES_SINCE, DemoReport, Sample, run_demo
from kgdiff.ingest.progress import Progress


def _progress(sample: Sample) -> Progress:
    console.rule(f"[bold]{sample.name}[/]: {sample.note}")
    if sample.name.startswith("wd-"):
        return progress_for(console)
    return progress_for(console, "pages", "revisions")


def _print_evidence(report: DemoReport) -> None:
    for result in report.wikipedia:
        print_wikipedia_result(result)
    for build in report.evidence:
        console.print(f"evidence of {build.snapshot}: {build.rows:,} mentions of facts found")
    columns = ["subject", "property", "object", "page (revision)", "mentioning sentence"]
    table = Table(
        *map(prose, columns),
        title="evidence: facts stated in the lead of their subject's Wikipedia article",
    )
    for row in report.evidence_examples:
        _, subject, pid, prop, _, obj, title, revision, sentence = row
        short = str(sentence) if len(str(sentence)) <= 140 else f"{str(sentence)[:137]}…"
        table.add_row(str(subject), f"{prop} ({pid})", str(obj), f"{title} ({revision})", short)
    console.print(table)


def duckdb_shell() -> str:
    """The ``duckdb`` shell installed beside this Python (by duckdb-cli), else the one on PATH."""
    beside = Path(sys.executable).parent / "duckdb"
    return str(beside) if beside.is_file() else "duckdb"


def _joined(values: object) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list) else ""


def _print_classification(report: DemoReport) -> None:
    params = report.classification.params
    title = (
        f"a model with cutoff {params.cutoff}: facts since {params.init}, as of {params.current} "
        f"({params.mode} time; view {params.view_name})"
    )
    columns = [key("level"), *map(prose, ("subject", "property", "change", "latest", "outdated"))]
    table = Table(*columns, title=title)
    for level, subject, prop, kind, latest, outdated, reason in report.examples:
        answers = _joined(latest) or str(reason or "")
        table.add_row(
            str(level), str(subject), str(prop), str(kind or ""), answers, _joined(outdated)
        )
    console.print(table)


SHOWN_UPDATES = 8
"""Knowledge updates the demo prints (it says how many more there are)."""


def _print_updates(report: DemoReport) -> None:
    """The first knowledge updates since :data:`UPDATES_SINCE` (AntiLeakBench, valid time)."""
    columns = [key("subject"), prose("property"), prose("old"), prose("new"), prose("since")]
    title = (
        f"knowledge updates after a {UPDATES_SINCE} cutoff (AntiLeakBench, valid time):"
        f" {len(report.updates):,}, the first {min(SHOWN_UPDATES, len(report.updates))}"
    )
    table = Table(*columns, title=title)
    for row in report.updates[:SHOWN_UPDATES]:
        subject = f"{row['subject_label']} ({row['subject']})"
        table.add_row(
            subject, str(row["pid_label"]), _joined(row["old_objects_labels"]),
            str(row["new_object_label"]), str(row["new_start_lo"]),
        )  # fmt: skip
    console.print(table)


def demo(store: StoreOption = None) -> None:
    """Ingest the bundled samples, classify, and show facts with their Wikipedia evidence.

    The samples: Wikidata of 2013-12, 2014-10 and 2014-12, and 206 Wikipedia articles."""
    with resumable():
        report = run_demo(store, _progress)
    for result in report.results:
        print_result(result)
    console.rule("[bold]the catalog")
    columns = [key("snapshot"), figure("entities"), figure("statements")]
    table = Table(*columns, title="per snapshot")
    for name, entities, statements in report.per_snapshot:
        table.add_row(str(name), f"{entities:,}", f"{statements:,}")
    console.print(table)
    table = Table(
        key("snapshot"),
        key("subject"),
        prose("label"),
        key("pid"),
        prose("value"),
        prose("start"),
        prose("end"),
        title="statements with start/end qualifiers across the three snapshots",
    )
    for snap, subject, label, pid, value, start_lo, start_hi, end_lo, end_hi in report.intervals:
        start = f"{start_lo}…{start_hi}" if start_lo != start_hi else str(start_lo)
        end = f"{end_lo}…{end_hi}" if end_lo != end_hi else str(end_lo)
        table.add_row(str(snap), str(subject), str(label), str(pid), str(value), start, end)
    console.print(table)
    _print_classification(report)
    _print_updates(report)
    _print_evidence(report)
    if report.verdicts is not None:
        params = report.classification.params
        dates = f"init {params.init}, cutoff {params.cutoff}, current {params.current}"
        print_verdicts(report.verdicts, dates)
    console.print(
        f"explore with: [bold]{duckdb_shell()} {report.catalog}[/] "
        '-c "select snapshot, count(*) from statements group by 1"'
    )
    console.print(
        "one subject's evidence: [bold].venv/bin/kgdiff evidence show Q937 --pid P27 "
        f"--store {report.catalog.parent}[/]"
    )
    export_demo_benchmark(report.catalog.parent, report.classification)
    _print_serve(report.catalog.parent)


SERVE_EXAMPLES = (
    "/v1/entities/Q183/timeline?pid=P6",
    "/v1/facts?cutoff=2014-10-11&level=evolved&limit=5",
    "/v1/entities/Q183/facts?date=2014-06-01",
)
"""What the demo's store answers over HTTP: Germany's heads of government over time, the
facts that evolved after a 2014-10-11 cutoff, Germany's facts in June 2014."""


def _print_serve(store: Path) -> None:
    """How to serve the demo's store, three questions to ask it, and where the explorer is."""
    console.print(
        f"serve it: [bold].venv/bin/kgdiff serve --store {store}[/] (then, in another shell)",
        soft_wrap=True,
    )
    for path in SERVE_EXAMPLES:
        console.print(f"  curl -s 'http://127.0.0.1:8000{path}'", highlight=False, soft_wrap=True)
    console.print(
        "  or open http://127.0.0.1:8000/ in a browser: the explorer (search, timelines,"
        " the staleness curve, facts with their evidence)",
        highlight=False,
        soft_wrap=True,
    )
