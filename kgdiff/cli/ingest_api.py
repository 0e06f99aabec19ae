"""``kgdiff ingest api``: a few entities as of a date, from the Wikidata API."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgdiff.cli.common import StoreOption, console, parse_day, resumable
from kgdiff.cli.ingest import print_result
from kgdiff.ingest.api_snapshot import WIKIDATA_API, ApiSnapshotRequest, ingest_api_snapshot


def ingest_api_command(
    entities: Annotated[
        str, typer.Option("--entities", help="Comma-separated ids, e.g. Q1,Q42,P31.")
    ],
    date: Annotated[str, typer.Option("--date", help="The entities as of this day.")],
    snapshot: Annotated[
        str | None, typer.Option("--snapshot", help="Snapshot name (default api-YYYYMMDD).")
    ] = None,
    api: Annotated[str, typer.Option("--api", help="The wiki's api.php URL.")] = WIKIDATA_API,
    cache: Annotated[
        Path | None, typer.Option("--cache", help="Folder caching revision texts.")
    ] = None,
    budget: Annotated[int | None, typer.Option("--budget", min=1, help="Most requests.")] = None,
    store: StoreOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary.")] = False,
) -> None:
    """A small snapshot of some entities as of a date, from the API (no dump needed)."""
    request = ApiSnapshotRequest(
        entities=[e for e in entities.split(",") if e.strip()],
        date=parse_day(date, "--date"),
        snapshot=snapshot,
        api_url=api,
        store=store,
        cache_dir=cache,
        max_requests=budget,
    )
    with resumable():
        result = ingest_api_snapshot(request)
    if not quiet:
        print_result(result.ingest)
        console.print(f"  {result.requests:,} API requests")
        for entity_id, problem in sorted(result.problems.items()):
            console.print(f"  left out {entity_id}: {problem}")
