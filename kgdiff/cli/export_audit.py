"""``kgdiff export audit DIR``: the quality report of an exported benchmark folder
(docs/benchmark-export.md#the-quality-audit)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, graph
from kgdiff.errors import UsageError
from kgdiff.store.layout import StoreLayout

if TYPE_CHECKING:
    from kgdiff.export.audit.report import AuditReport
    from kgdiff.query.graph import KnowledgeGraph


def _table(title: str, columns: Sequence[str], rows: list[dict[str, str]]) -> Table:
    """A table as narrow as its words: each column as wide as its longest cell or header
    word (headers wrap between words), the split column never wrapped."""
    table = Table(
        title=title, box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, collapse_padding=True
    )
    for column in columns:
        longest = max([len(word) for word in column.split()] + [len(row[column]) for row in rows])
        split = column == "split"
        table.add_column(column, width=longest, no_wrap=split, justify="left" if split else "right")
    for row in rows:
        table.add_row(*(escape(row[column]) for column in columns))
    return table


def print_audit(report: AuditReport) -> None:
    """The audit's two tables (records at fault, shares), its hard targets (with a few
    records at fault) and its notes."""
    from kgdiff.export.audit.render import (
        CONFIG_MARK,
        FAULTS,
        SHARES,
        cells,
        left_out_lines,
        target_lines,
    )

    rows = [cells(split) for split in report.splits]
    console.print(_table("benchmark records at fault", FAULTS, rows))
    if any(row["left out"].endswith(CONFIG_MARK) for row in rows):
        console.print(f"{CONFIG_MARK} left out of the whole config", highlight=False)
    console.print(_table("benchmark records: options and coverage", SHARES, rows))
    for line in left_out_lines(report):
        console.print(escape(line), soft_wrap=True, highlight=False)
    marks = {True: "[green]met[/]", False: "[bold red]NOT met[/]"}
    for line in target_lines(report, lambda met: marks[met] + ":"):
        shown_line = escape(line) if line.startswith("    ") else line
        console.print(shown_line, soft_wrap=True, highlight=False)
    for note in report.notes:
        console.print(f"note: {escape(note)}", soft_wrap=True, highlight=False)


def _store(store: Path | None) -> KnowledgeGraph | None:
    """The store to read item classes from: ``--store`` (which must be one), else the
    default store when there is one."""
    layout = StoreLayout.resolve(store)
    if layout.catalog.is_file():
        return graph(store)
    if store is not None:
        raise UsageError(
            f"--store {store}: no store there (no kg.duckdb); give the store the export was"
            " made from"
        )
    return None


def export_audit_command(
    folder: Annotated[Path, typer.Argument(help="An exported benchmark folder.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="Exit with code 8 when a hard target is missed."),
    ] = False,
    write: Annotated[
        bool,
        typer.Option(
            "--write", help="Also write the report into the folder's card and kgdiff_build.json."
        ),
    ] = False,
    store: StoreOption = None,
) -> None:
    """Audit an exported benchmark: per config and split, tautologies, reformatted or refined
    changes, distractors of the gold's kind, duplicate and unsayable options, labels, contexts
    (docs/benchmark-export.md#the-quality-audit). Reads item classes from the store when there
    is one."""
    from kgdiff.export.audit.report import check_targets
    from kgdiff.export.audit.run import audit_export
    from kgdiff.export.audit.write import write_audit

    report = audit_export(folder, _store(store))
    if write:
        write_audit(folder, report)
    if as_json:
        print(json.dumps(report.as_json(), indent=2, sort_keys=True, ensure_ascii=False))
    else:
        print_audit(report)
    if strict:
        check_targets(report)
