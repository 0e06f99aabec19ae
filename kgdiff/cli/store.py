"""``kgdiff store check [--repair]``: verify the store and mend what kgdiff may mend."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
import typer

from kgdiff.cli.common import StoreOption, console, err_console
from kgdiff.cli.progress import progress_for
from kgdiff.maintenance.check import check_store, published_findings
from kgdiff.maintenance.findings import NOTE, Finding, Report
from kgdiff.maintenance.repair import repair_store
from kgdiff.store.layout import StoreLayout


def check_command(
    repair: Annotated[
        bool,
        typer.Option(
            "--repair",
            help="Mend what kgdiff may: remove what stopped runs left, unpublish builds that"
            " cannot be read, mark orphaned jobs failed, rebuild the catalog. Never changes a"
            " published snapshot.",
        ),
    ] = False,
    drop_staging: Annotated[
        bool,
        typer.Option(
            "--drop-staging",
            help="With --repair, also remove the staging of stopped ingests that could resume.",
        ),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as one JSON document.")
    ] = False,
    store: StoreOption = None,
) -> None:
    """Verify every snapshot against its manifest, every build, the catalog against the
    folders, and find what stopped runs left (docs/store.md). Exit code 0: sound; 1:
    problems --repair mends; 5: damage only you can mend, or a repair failed."""
    layout = StoreLayout.resolve(store)
    first = check_store(layout, progress_for(err_console, "files", "findings"))
    final = first
    if repair:
        mended = repair_store(layout, first, drop_staging)
        final = check_store(layout, published=published_findings(first))
        final = Report(final.findings, first.checked, mended.repaired, mended.failed)
    if as_json:
        console.print_json(msgspec.json.encode(_document(first, final, repair)).decode())
    else:
        _print(first, final, repair)
    raise typer.Exit(final.exit_code)


def _print(first: Report, final: Report, repaired: bool) -> None:
    for finding in first.findings:
        _say(finding.line)
    if repaired:
        for line in final.repaired:
            _say(f"repaired: {line}")
        for line in final.failed:
            _say(f"failed: {line}")
        _say("after the repair:")
        for finding in final.findings:
            if finding.severity != NOTE:  # the notes were said above
                _say(f"  {finding.line}")
    _say(final.summary)


def _say(line: str) -> None:
    console.print(line, highlight=False, markup=False, soft_wrap=True)


def _document(first: Report, final: Report, repaired: bool) -> dict[str, Any]:
    """The report for scripts: what was found, repaired, failed and is left."""
    return {
        "findings": [_finding(f) for f in first.findings],
        "checked": first.checked,
        "repaired": final.repaired,
        "failed": final.failed,
        "remaining": [_finding(f) for f in final.findings] if repaired else None,
        "exit_code": final.exit_code,
        "summary": final.summary,
    }


def _finding(finding: Finding) -> dict[str, Any]:
    return {**msgspec.to_builtins(finding), "line": finding.line}
