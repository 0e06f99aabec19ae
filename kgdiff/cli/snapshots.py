"""``kgdiff snapshots ...`` commands."""

from __future__ import annotations

from typing import Annotated

import msgspec
import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, graph, parse_day, warn
from kgdiff.cli.tables import figure, key, prose
from kgdiff.errors import StoreError
from kgdiff.store.compact import compact_snapshot
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import Manifest
from kgdiff.store.snapshots import (
    get_snapshot,
    left_out_snapshots,
    list_snapshots,
    list_wikipedia_snapshots,
    refresh_catalog,
    refuse_needed_base,
    remove_snapshot,
    snapshot_folder,
)

snapshots_app = typer.Typer(help="List, show and remove snapshots.", invoke_without_command=True)


@snapshots_app.callback()
def snapshots_default(ctx: typer.Context, store: StoreOption = None) -> None:
    """List snapshots when no sub-command is given."""
    if ctx.invoked_subcommand is None:
        list_command(store)


@snapshots_app.command("list")
def list_command(store: StoreOption = None) -> None:
    """One line per published snapshot."""
    layout = StoreLayout.resolve(store)
    if not layout.root.exists():  # a mistyped --store must not read as an empty store
        raise StoreError(
            f"no store at {layout.root} (no such folder); ingest a snapshot there first "
            "(or run 'kgdiff demo'), or give --store the folder of an existing store"
        )
    manifests = list_snapshots(layout)
    wikipedia = list_wikipedia_snapshots(layout)
    for item in left_out_snapshots(layout):
        warn(item.line)
    if not manifests and not wikipedia:
        console.print(f"no snapshots in {layout.root}")
        return
    if manifests:
        _print_wikidata(manifests)
    if wikipedia:
        _print_wikipedia(wikipedia)


def _print_wikipedia(manifests: list[Manifest]) -> None:
    columns = [key("name"), key("wiki"), key("date"), figure("pages"), figure("revisions")]
    table = Table(*columns, title="Wikipedia snapshots")
    for m in manifests:
        pages, revisions = m.counts["pages"], m.counts["revisions"]
        table.add_row(m.name, m.wiki or "", m.date, f"{pages:,}", f"{revisions:,}")
    console.print(table)
    _print_sources(manifests)


def _stored(manifest: Manifest) -> str:
    """How a snapshot is stored: ``whole`` or ``delta of BASE``."""
    return "whole" if manifest.delta is None else f"delta of {manifest.delta.base}"


def _print_wikidata(manifests: list[Manifest]) -> None:
    """The snapshots' names, dates and counts (the rejects and how each is stored when any
    has rejects or is a delta), then where each was read from: at 80 columns, whole."""
    rejects = any(m.rejects for m in manifests)
    deltas = any(m.delta is not None for m in manifests)
    columns = [key("name"), key("date"), key("coverage"), figure("entities")]
    columns += [figure("statements"), *([figure("rejects")] if rejects else [])]
    table = Table(*columns, *([prose("stored")] if deltas else []), title="Wikidata snapshots")
    for m in manifests:
        row = [m.name, m.date, m.coverage, f"{m.counts['entities']:,}"]
        row += [f"{m.counts['statements']:,}", *([f"{m.rejects:,}"] if rejects else [])]
        table.add_row(*row, *([_stored(m)] if deltas else []))
    console.print(table)
    _print_sources(manifests)


def _print_sources(manifests: list[Manifest]) -> None:
    """Each snapshot's source file, one line each (a path is never cut)."""
    for m in manifests:
        console.print(f"{m.name}: read from {m.source.path}", highlight=False, soft_wrap=True)


@snapshots_app.command("show")
def show_command(name: str, store: StoreOption = None) -> None:
    """The manifest of one snapshot, as JSON."""
    manifest = get_snapshot(StoreLayout.resolve(store), name)
    console.print_json(msgspec.json.encode(manifest).decode())


@snapshots_app.command("rm")
def remove_command(
    name: str,
    store: StoreOption = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask.")] = False,
) -> None:
    """Remove a snapshot (its folder and its rows in the catalog views)."""
    layout = StoreLayout.resolve(store)
    snapshot_folder(layout, name)  # a snapshot whose manifest is damaged can be removed too
    refuse_needed_base(layout, name)  # before asking
    if not yes:
        typer.confirm(f"remove snapshot {name!r} from {layout.root}?", abort=True)
    remove_snapshot(layout, name)
    console.print(f"removed snapshot {name}")


@snapshots_app.command("compact")
def compact_command(name: str, store: StoreOption = None) -> None:
    """Rewrite a snapshot stored as a delta (kgdiff refresh) as a whole one: it no longer
    needs its base, and reads no faster or slower."""
    layout = StoreLayout.resolve(store)
    manifest = compact_snapshot(layout, name)
    rows = ", ".join(f"{value:,} {key}" for key, value in manifest.counts.items())
    console.print(f"compacted snapshot {name}: stored whole ({rows})")


@snapshots_app.command("catalog")
def catalog_command(store: StoreOption = None) -> None:
    """Rebuild kg.duckdb from the store's folders (a moved or copied store needs no rebuild)."""
    layout = StoreLayout.resolve(store)
    refresh_catalog(layout)
    console.print(f"rebuilt {layout.catalog}")


@snapshots_app.command("lookup")
def lookup_command(
    facts_at: Annotated[
        list[str] | None,
        typer.Option(
            "--facts-at",
            help="Also make the facts copy of this date (repeatable): every subject's facts"
            " then, so that one entity's facts at it are a lookup.",
        ),
    ] = None,
    mode: Annotated[
        str, typer.Option("--mode", help="record or valid time, for --facts-at.")
    ] = "record",
    store: StoreOption = None,
) -> None:
    """Make the store's lookup copy now (kgdiff serve makes it in the background otherwise):
    questions about one entity read it, several times sooner (docs/rest.md)."""
    days = [parse_day(value, "--facts-at") for value in facts_at or []]
    kg = graph(store)
    try:
        path = kg.build_lookup(lambda line: console.print(line, highlight=False))
        made = [kg.build_facts(day, mode) for day in days]
    finally:
        kg.close()
    for copy in (path, *made):
        size = copy.stat().st_size / 1e6
        console.print(f"lookup copy: {copy} ({size:,.0f} MB)", highlight=False, soft_wrap=True)
