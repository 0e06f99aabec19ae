"""``kgdiff revisions``: the first Wikipedia revision that states each knowledge update."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import pyarrow as pa
import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, parse_day
from kgdiff.errors import StoreError
from kgdiff.evidence.histories import ApiHistory, DumpHistory, History
from kgdiff.evidence.supporting import UpdateQuery, supporting_revisions
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_wikipedia_snapshots
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.writers import check_out, write_reader
from kgdiff.wikiapi.client import WikiClient

SHOWN = 20


def revisions_command(
    cutoff: Annotated[str, typer.Option("--cutoff", help="The model's knowledge cutoff.")],
    current: Annotated[str, typer.Option("--current", help="The present, YYYY-MM-DD.")],
    wiki: Annotated[str, typer.Option("--wiki", help="Wiki of the articles.")] = "enwiki",
    pid: Annotated[
        list[str] | None, typer.Option("--pid", help="Only these properties (repeatable).")
    ] = None,
    wikipedia: Annotated[
        str | None,
        typer.Option("--wikipedia", help="History snapshot to search (default: the latest)."),
    ] = None,
    api: Annotated[
        str | None,
        typer.Option("--api", help="Search through this api.php URL instead of a dump."),
    ] = None,
    cache: Annotated[
        Path | None, typer.Option("--cache", help="Folder caching API texts (with --api).")
    ] = None,
    budget: Annotated[
        int | None, typer.Option("--budget", min=1, help="Most API requests (with --api).")
    ] = None,
    exact: Annotated[
        bool, typer.Option("--exact", help="With --api: read every candidate's lead.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the rows to FILE.jsonl or .parquet.")
    ] = None,
    store: StoreOption = None,
) -> None:
    """First revision after each knowledge update whose lead names subject and new object."""
    layout = StoreLayout.resolve(store)
    query = UpdateQuery(
        parse_day(cutoff, "--cutoff"), parse_day(current, "--current"), wiki, tuple(pid or [])
    )
    if out is not None:
        check_out(out)
    with open_catalog(layout) as connection:
        if api is not None:
            client = WikiClient.from_api_url(api, cache_dir=cache, max_requests=budget)
            history: History = ApiHistory(client, exact=exact)
        else:
            history = DumpHistory(connection, wikipedia or _latest_history(layout, wiki))
        rows = list(supporting_revisions(connection, query, history))
    console.print(_summary(rows))
    if api is not None:
        console.print(f"{client.requests_made:,} API requests")
    if out is not None:
        written = write_reader(pa.Table.from_pylist(rows).to_reader(), out)
        console.print(f"wrote {written:,} rows to {out}")


def _latest_history(layout: StoreLayout, wiki: str) -> str:
    """The newest Wikipedia snapshot of ``wiki`` holding more than one revision of a page."""
    snapshots = [
        m
        for m in list_wikipedia_snapshots(layout)
        if m.wiki == wiki and m.input_stats.get("max_revisions_per_page", 0) > 1
    ]
    if not snapshots:
        raise StoreError(
            f"no history snapshot of {wiki} in {layout.root}: ingest a pages-meta-history dump "
            "with 'kgdiff ingest wikipedia', or search the live wiki with --api URL"
        )
    return snapshots[-1].name


def _summary(rows: list[dict[str, Any]]) -> Table:
    found = sum(row["revision_id"] is not None for row in rows)
    table = Table(
        "subject", "pid", "new", "since", "page", "revision", "sentence",
        title=f"{found:,} of {len(rows):,} knowledge updates have a supporting revision",
    )  # fmt: skip
    for row in rows[:SHOWN]:
        table.add_row(
            row["subject"], row["pid"], row["new_object"], str(row["new_start_lo"]),
            row["title"] or row["reason"], str(row["revision_id"] or ""), row["sentence"] or "",
        )  # fmt: skip
    if len(rows) > SHOWN:
        table.caption = f"first {SHOWN} shown; --out writes them all"
    return table
