"""Temporal commands: `kgdiff classify`, `kgdiff audit` and `kgdiff timeline`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, err_console, parse_day
from kgdiff.errors import AuditFailedError
from kgdiff.evidence.supported import SupportedSummary
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.audit import run_audits
from kgdiff.temporal.builds import classification
from kgdiff.temporal.export import export_classification, level_counts, supported_counts
from kgdiff.temporal.timeline import timeline

ModeOption = Annotated[
    str, typer.Option("--mode", help="record, valid or both (the two views must agree).")
]


def classify_command(
    init: Annotated[str, typer.Option("--init", help="Start of the window, YYYY-MM-DD.")],
    cutoff: Annotated[str, typer.Option("--cutoff", help="The model's knowledge cutoff.")],
    current: Annotated[str, typer.Option("--current", help="The present, YYYY-MM-DD.")],
    mode: ModeOption = "record",
    pid: Annotated[
        list[str] | None, typer.Option("--pid", help="Only these properties (repeatable).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the groups to FILE.jsonl or FILE.parquet.")
    ] = None,
    store: StoreOption = None,
) -> None:
    """Classify every (subject, property) group for a knowledge cutoff (DESIGN.md §4)."""
    layout = StoreLayout.resolve(store)
    days = parse_day(init, "--init"), parse_day(cutoff, "--cutoff"), parse_day(current, "--current")
    build = classification(layout, *days, mode, on_part=_report_part)
    source = "reused" if build.reused else "built"
    console.print(f"{source} {build.path} (view {build.params.view_name} in {layout.catalog})")
    table = Table("level", "groups", title="groups by level")
    for level, count in level_counts(build.path, pid or []):
        table.add_row(level, f"{count:,}")
    console.print(table)
    _print_supported(supported_counts(layout, build, pid or []))
    if out is not None:
        written = export_classification(layout, build, out, pid or [])
        console.print(f"wrote {written:,} groups to {out}")


def _print_supported(summary: SupportedSummary | None) -> None:
    """Groups per level whose evidence supports (or not) the level (EvoWiki's filters), and
    why the unknown ones are unknown."""
    if summary is None:
        return
    table = Table("level", "supported", "not supported", "unknown", title="evidence")
    for level, by_value in summary.counts.items():
        cells = (f"{by_value.get(value, 0):,}" for value in (True, False, None))
        table.add_row(level, *cells)
    console.print(table)
    for line in summary.reason_lines():
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def _report_part(done: int, total: int) -> None:
    if total > 1:
        err_console.print(f"classified part {done} of {total}", style="dim")


def audit_command(
    init: Annotated[str, typer.Option("--init", help="Start of the window, YYYY-MM-DD.")],
    cutoff: Annotated[str, typer.Option("--cutoff", help="The model's knowledge cutoff.")],
    current: Annotated[str, typer.Option("--current", help="The present, YYYY-MM-DD.")],
    mode: ModeOption = "record",
    store: StoreOption = None,
) -> None:
    """Run the SQL audits (sql/audits/) on a classification; exit 1 if any finds a row."""
    layout = StoreLayout.resolve(store)
    days = parse_day(init, "--init"), parse_day(cutoff, "--cutoff"), parse_day(current, "--current")
    build = classification(layout, *days, mode)
    failed = 0
    for result in run_audits(build.path):
        status = "[green]ok[/]" if result.violations == 0 else f"[red]{result.violations} rows[/]"
        console.print(f"{result.name:32} {status}")
        for row in result.examples:
            console.print(f"    {row}", highlight=False)
        failed += result.violations > 0
    if failed:
        raise AuditFailedError(f"{failed} audit(s) found violating rows in {build.path}")


def timeline_command(
    qid: Annotated[str, typer.Argument(help="The entity, e.g. Q42.")],
    pid: Annotated[
        list[str] | None, typer.Option("--pid", help="Only these properties (repeatable).")
    ] = None,
    store: StoreOption = None,
) -> None:
    """Every statement of an entity across the snapshots, with record and valid intervals."""
    layout = StoreLayout.resolve(store)
    with open_catalog(layout) as connection:
        cursor = timeline(connection, qid)
        names = [d[0] for d in cursor.description or []]
        rows = [r for r in cursor.fetchall() if not pid or r[0] in pid]
    table = Table(
        "pid",
        "value",
        "first seen",
        "last seen",
        "now",
        "valid from",
        "valid until",
        title=f"{qid}: {len(rows)} statements across snapshots",
    )
    column = {name: i for i, name in enumerate(names)}
    for row in rows:
        table.add_row(
            str(row[column["pid"]]),
            str(row[column["value"]]),
            str(row[column["first_seen"]]),
            str(row[column["last_seen"]]),
            "yes" if row[column["current"]] else "no",
            _interval(row[column["valid_from_lo"]], row[column["valid_from_hi"]]),
            _interval(row[column["valid_until_lo"]], row[column["valid_until_hi"]]),
        )
    console.print(table)


def _interval(lo: object, hi: object) -> str:
    if lo is None:
        return ""
    return str(lo) if lo == hi else f"{lo} … {hi}"
