"""``kgdiff evidence``: find the Wikipedia sentences that mention each fact (``build``, also
what a bare ``kgdiff evidence`` does) and show them for one subject (``show``)."""

from __future__ import annotations

from typing import Annotated

import typer

from kgdiff.cli.common import StoreOption, console
from kgdiff.cli.evidence_show import show_command
from kgdiff.errors import StoreError
from kgdiff.evidence.build import build_evidence
from kgdiff.store.layout import StoreLayout

evidence_app = typer.Typer(
    help="Find the Wikipedia sentences that mention each fact (bare: build them all), and "
    "show them for one subject.",
    invoke_without_command=True,
)


@evidence_app.callback()
def evidence_default(ctx: typer.Context, store: StoreOption = None) -> None:
    """Build the evidence of every Wikipedia snapshot when no sub-command is given."""
    if ctx.invoked_subcommand is None:
        build_command(None, store)


@evidence_app.command("build")
def build_command(
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


evidence_app.command("show")(show_command)
