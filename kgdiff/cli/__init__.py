"""The ``kgdiff`` command line (typer + rich); a thin layer over the library."""

from __future__ import annotations

import sys

import typer

from kgdiff.cli.chains import chains_command
from kgdiff.cli.common import run_guarded
from kgdiff.cli.demo import demo
from kgdiff.cli.evidence import evidence_command
from kgdiff.cli.fetch import fetch_command
from kgdiff.cli.ingest import ingest_app
from kgdiff.cli.page import page_command
from kgdiff.cli.pageviews import pageviews_fetch_command, popularity_command
from kgdiff.cli.pools import pools_command
from kgdiff.cli.revisions import revisions_command
from kgdiff.cli.snapshots import snapshots_app
from kgdiff.cli.temporal import audit_command, classify_command, timeline_command
from kgdiff.cli.updates import updates_command

app = typer.Typer(
    name="kgdiff",
    help="Temporal knowledge graph from Wikidata and Wikipedia dumps.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(ingest_app, name="ingest")
app.add_typer(snapshots_app, name="snapshots")
app.command("classify")(classify_command)
app.command("audit")(audit_command)
app.command("timeline")(timeline_command)
app.command("pools")(pools_command)
app.command("chains")(chains_command)
app.command("updates")(updates_command)
app.command("evidence")(evidence_command)
app.command("revisions")(revisions_command)
app.command("page")(page_command)
app.command("fetch")(fetch_command)
app.command("popularity")(popularity_command)
pageviews_app = typer.Typer(help="Page views from the Wikimedia REST API.", no_args_is_help=True)
pageviews_app.command("fetch")(pageviews_fetch_command)
app.add_typer(pageviews_app, name="pageviews")
app.command("demo")(demo)


def main() -> None:
    """Entry point of the ``kgdiff`` script."""
    sys.exit(run_guarded(app))
