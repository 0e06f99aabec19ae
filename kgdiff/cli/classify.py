"""`kgdiff classify` and `kgdiff audit`: a classification for a knowledge cutoff."""

from __future__ import annotations

from datetime import date
from typing import Annotated

import typer
from rich.table import Table

from kgdiff.cli.common import (
    StoreOption,
    console,
    err_console,
    graph,
    optional_day,
    parse_day,
)
from kgdiff.cli.options import (
    AllowGapOption,
    CurrentOption,
    CutoffOption,
    InitOption,
    LangOption,
    MaxGapOption,
    OutOption,
    PidsOption,
    checked_out,
    describe_reads,
    gap_policy,
    pid_list,
)
from kgdiff.cli.tables import figure, key
from kgdiff.errors import AuditFailedError, UsageError
from kgdiff.evidence.supported import SupportedSummary
from kgdiff.query.classified import (
    GroupChoice,
    export_classification,
    level_counts,
    supported_counts,
)
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.audit import run_audits
from kgdiff.temporal.builds import Build
from kgdiff.temporal.levels import LEVELS
from kgdiff.wording import counted

ModeOption = Annotated[
    str, typer.Option("--mode", help="record, valid or both (the two views must agree).")
]
LevelOption = Annotated[
    list[str] | None,
    typer.Option("--level", help=f"Only these levels (repeatable): {', '.join(LEVELS)}."),
]


def classify_command(
    cutoff: CutoffOption,
    init: InitOption = None,
    current: CurrentOption = None,
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
    substantive: Annotated[
        bool,
        typer.Option(
            "--substantive",
            help="Keep only substantive changes among the evolved groups: one whose change is"
            " reformatted or refined (change_nature) is reported stable.",
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
    choice = GroupChoice(
        pid_list(pid), level_list(level, drop_not_covered), substantive=substantive
    )
    days = _days(init, cutoff, current)
    kg = graph(store)
    kg.answers.check_ids(choice.pids)
    gap = gap_policy(max_gap, allow_gap)
    build = kg.answers.classification(*days, mode, gap, _report_part)
    layout = kg.layout
    _print_build(layout, build, choice)
    if out is not None:
        exported = export_classification(layout, build, out, choice, lang)
        console.print(f"wrote {counted(exported.rows, 'group')} to {out}, with {lang} labels")
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


Days = tuple[date, date | None, date | None]


def _days(init: str | None, cutoff: str, current: str | None) -> Days:
    """(cutoff, init, current) as :meth:`~kgdiff.query.answers.Answers.classification` takes
    them (init and current None for their defaults: the first and the latest snapshot's)."""
    return (
        parse_day(cutoff, "--cutoff"),
        optional_day(init, "--init"),
        optional_day(current, "--current"),
    )


def _print_build(layout: StoreLayout, build: Build, choice: GroupChoice) -> None:
    source = "reused" if build.reused else "built"
    console.print(f"{source} {build.path} (view {build.params.view_name} in {layout.catalog})")
    for line in describe_reads(build.reads):
        console.print(line, highlight=False, markup=False)
    counts = level_counts(build.path, choice)
    table = Table(key("level"), figure("groups"), title="groups by level")
    for name, count in counts:
        table.add_row(name, f"{count:,}")
    console.print(table)
    uncovered = dict(counts).get("not_covered", 0)
    if uncovered:
        console.print(
            f"{counted(uncovered, 'group')} {'is' if uncovered == 1 else 'are'} not_covered: their"
            " subject is missing from a subset"
            " snapshot read (see not_covered_in), so nothing can be said of them",
            highlight=False,
        )
    _print_supported(supported_counts(layout, build, choice))


def _print_supported(summary: SupportedSummary | None) -> None:
    """Groups per level whose evidence supports (or not) the level (EvoWiki's filters), and
    why the unknown ones are unknown."""
    if summary is None:
        return
    counts = (figure(name) for name in ("supported", "not supported", "unknown"))
    table = Table(key("level"), *counts, title="evidence")
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
    cutoff: CutoffOption,
    init: InitOption = None,
    current: CurrentOption = None,
    mode: ModeOption = "record",
    max_gap: MaxGapOption = 31,
    allow_gap: AllowGapOption = False,
    store: StoreOption = None,
) -> None:
    """Run the SQL audits (sql/audits/) on a classification; exit 1 if any finds a row."""
    gap = gap_policy(max_gap, allow_gap)
    build = graph(store).answers.classification(*_days(init, cutoff, current), mode, gap)
    for line in describe_reads(build.reads):
        console.print(line, highlight=False, markup=False)
    failed = 0
    for result in run_audits(build.path):
        found = counted(result.violations, "row")
        status = "[green]ok[/]" if result.violations == 0 else f"[red]{found}[/]"
        console.print(f"{result.name:32} {status}")
        for row in result.examples:
            console.print(f"    {row}", highlight=False)
        failed += result.violations > 0
    if failed:
        raise AuditFailedError(f"{failed} audit(s) found violating rows in {build.path}")
