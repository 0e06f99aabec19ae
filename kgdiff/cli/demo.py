"""``kgdiff demo``: ingest the bundled samples and print what was built."""

from __future__ import annotations

from rich.table import Table

from kgdiff.cli.common import StoreOption, console, resumable
from kgdiff.cli.ingest import print_result
from kgdiff.cli.progress import RichProgress
from kgdiff.demo import Sample, run_demo
from kgdiff.ingest.progress import Progress


def _progress(sample: Sample) -> Progress:
    console.rule(f"[bold]{sample.name}[/]: {sample.note}")
    return RichProgress(console)


def demo(store: StoreOption = None) -> None:
    """Ingest the three bundled Wikidata samples (2013-12, 2014-10, 2014-12) and show them."""
    with resumable():
        report = run_demo(store, _progress)
    for result in report.results:
        print_result(result)
    console.rule("[bold]the catalog")
    table = Table("snapshot", "entities", "statements", title="per snapshot")
    for name, entities, statements in report.per_snapshot:
        table.add_row(str(name), f"{entities:,}", f"{statements:,}")
    console.print(table)
    table = Table(
        "snapshot",
        "subject",
        "label",
        "pid",
        "value",
        "start",
        "end",
        title="statements with start/end qualifiers across the three snapshots",
    )
    for snap, subject, label, pid, value, start_lo, start_hi, end_lo, end_hi in report.intervals:
        start = f"{start_lo}…{start_hi}" if start_lo != start_hi else str(start_lo)
        end = f"{end_lo}…{end_hi}" if end_lo != end_hi else str(end_lo)
        table.add_row(str(snap), str(subject), str(label), str(pid), str(value), start, end)
    console.print(table)
    console.print(
        f"explore with: [bold].venv/bin/duckdb {report.catalog}[/] "
        '-c "select snapshot, count(*) from statements group by 1"'
    )
