"""`kgdiff classify` and `kgdiff audit`: a classification for a knowledge cutoff."""

from __future__ import annotations

from datetime import date
from typing import Annotated

import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, err_console, graph, parse_day
from kgdiff.cli.options import (
    AllowGapOption,
    LangOption,
    MaxGapOption,
    OutOption,
    PidsOption,
    checked_out,
    describe_reads,
    gap_policy,
    pid_list,
)
from kgdiff.errors import AuditFailedError, UsageError
from kgdiff.evidence.supported import SupportedSummary
from kgdiff.export.classified import (
    GroupChoice,
    export_classification,
    level_counts,
    supported_counts,
)
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.audit import run_audits
from kgdiff.temporal.builds import Build
from kgdiff.temporal.classify import check_dates
from kgdiff.temporal.levels import LEVELS

ModeOption = Annotated[
    str, typer.Option("--mode", help="record, valid or both (the two views must agree).")
]
InitOption = Annotated[str, typer.Option("--init", help="Start of the window, YYYY-MM-DD.")]
CutoffOption = Annotated[str, typer.Option("--cutoff", help="The model's knowledge cutoff.")]
CurrentOption = Annotated[str, typer.Option("--current", help="The present, YYYY-MM-DD.")]
LevelOption = Annotated[
    list[str] | None,
    typer.Option("--level", help=f"Only these levels (repeatable): {', '.join(LEVELS)}."),
]


def classify_command(
    init: InitOption,
    cutoff: CutoffOption,
    current: CurrentOption,
    mode: ModeOption = "record",
    pid: PidsOption = None,
    level: LevelOption = None,
    drop_not_covered: Annotated[
        bool,
        typer.Option(
            "--drop-not-covered",
            help="Leave out the groups a subset snapshot cannot speak for (level not_covered).",
        ),
    ] = False,
    out: OutOption = None,
    lang: LangOption = "en",
    max_gap: MaxGapOption = 31,
    allow_gap: AllowGapOption = False,
    store: StoreOption = None,
) -> None:
    """Classify every (subject, property) group for a knowledge cutoff (docs/classification.md)."""
    out = checked_out(out)
    choice = GroupChoice(pid_list(pid), level_list(level, drop_not_covered))
    init_day, cutoff_day, current_day = _days(init, cutoff, current)
    check_dates(init_day, cutoff_day, current_day)  # before the store: wrong dates need none
    kg = graph(store)
    kg.answers.check_ids(choice.pids)
    gap = gap_policy(max_gap, allow_gap)
    build = kg.answers.classification(cutoff_day, init_day, current_day, mode, gap, _report_part)
    layout = kg.layout
    _print_build(layout, build, choice)
    if out is not None:
        exported = export_classification(layout, build, out, choice, lang)
        console.print(f"wrote {exported.rows:,} groups to {out}, with {lang} labels")
        if exported.unlabelled:
            examples = ", ".join(exported.unlabelled_examples)
            console.print(
                f"{exported.unlabelled:,} id(s) have no {lang} label in the store and are shown"
                f" as ids (e.g. {examples})",
                highlight=False,
            )


def level_list(levels: list[str] | None, drop_not_covered: bool = False) -> list[str]:
    """``--level`` values, each one of the levels (a usage error naming a wrong one), without
    ``not_covered`` when it is dropped (empty: every level)."""
    chosen = [value.strip().lower() for value in levels or []]
    wrong = [value for value in chosen if value not in LEVELS]
    if wrong:
        raise UsageError(f"--level {wrong[0]!r} is not one of {', '.join(LEVELS)}")
    if drop_not_covered:
        kept = [value for value in chosen or LEVELS if value != "not_covered"]
        if not kept:
            raise UsageError("--drop-not-covered leaves no level of --level to show")
        return list(dict.fromkeys(kept))
    return list(dict.fromkeys(chosen))


def _days(init: str, cutoff: str, current: str) -> tuple[date, date, date]:
    return parse_day(init, "--init"), parse_day(cutoff, "--cutoff"), parse_day(current, "--current")


def _print_build(layout: StoreLayout, build: Build, choice: GroupChoice) -> None:
    source = "reused" if build.reused else "built"
    console.print(f"{source} {build.path} (view {build.params.view_name} in {layout.catalog})")
    for line in describe_reads(build.reads):
        console.print(line, highlight=False, markup=False)
    counts = level_counts(build.path, choice)
    table = Table("level", "groups", title="groups by level")
    for name, count in counts:
        table.add_row(name, f"{count:,}")
    console.print(table)
    uncovered = dict(counts).get("not_covered", 0)
    if uncovered:
        console.print(
            f"{uncovered:,} groups are not_covered: their subject is missing from a subset"
            " snapshot read (see not_covered_in), so nothing can be said of them",
            highlight=False,
        )
    _print_supported(supported_counts(layout, build, choice))


def _print_supported(summary: SupportedSummary | None) -> None:
    """Groups per level whose evidence supports (or not) the level (EvoWiki's filters), and
    why the unknown ones are unknown."""
    if summary is None:
        return
    table = Table("level", "supported", "not supported", "unknown", title="evidence")
    for name, by_value in summary.counts.items():
        cells = (f"{by_value.get(value, 0):,}" for value in (True, False, None))
        table.add_row(name, *cells)
    console.print(table)
    for line in summary.reason_lines():
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def _report_part(done: int, total: int) -> None:
    if total > 1:
        err_console.print(f"classified part {done} of {total}", style="dim")


def audit_command(
    init: InitOption,
    cutoff: CutoffOption,
    current: CurrentOption,
    mode: ModeOption = "record",
    max_gap: MaxGapOption = 31,
    allow_gap: AllowGapOption = False,
    store: StoreOption = None,
) -> None:
    """Run the SQL audits (sql/audits/) on a classification; exit 1 if any finds a row."""
    init_day, cutoff_day, current_day = _days(init, cutoff, current)
    gap = gap_policy(max_gap, allow_gap)
    build = graph(store).answers.classification(cutoff_day, init_day, current_day, mode, gap)
    for line in describe_reads(build.reads):
        console.print(line, highlight=False, markup=False)
    failed = 0
    for result in run_audits(build.path):
        status = "[green]ok[/]" if result.violations == 0 else f"[red]{result.violations} rows[/]"
        console.print(f"{result.name:32} {status}")
        for row in result.examples:
            console.print(f"    {row}", highlight=False)
        failed += result.violations > 0
    if failed:
        raise AuditFailedError(f"{failed} audit(s) found violating rows in {build.path}")
