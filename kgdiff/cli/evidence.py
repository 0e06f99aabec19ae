"""``kgdiff evidence``: find the Wikipedia sentences that mention each fact."""

from __future__ import annotations

from typing import Annotated

import typer

from kgdiff.cli.common import StoreOption, console
from kgdiff.errors import StoreError
from kgdiff.evidence.build import build_evidence
from kgdiff.store.layout import StoreLayout


def evidence_command(
    snapshot: Annotated[
        list[str] | None,
        typer.Argument(help="Wikipedia snapshots (default: every one in the store)."),
    ] = None,
    store: StoreOption = None,
) -> None:
    """Search the articles of Wikipedia snapshots for mentions of each fact (the evidence)."""
    layout = StoreLayout.resolve(store)
    names = snapshot or layout.wikipedia_names()
    if not names:
        raise StoreError(
            f"no Wikipedia snapshot in {layout.root}; ingest one with 'kgdiff ingest wikipedia'"
        )
    for name in names:
        build = build_evidence(layout, name)
        status = "reused" if build.reused else "built"
        console.print(f"{status} evidence of {name}: {build.rows:,} mentions in {build.path}")
