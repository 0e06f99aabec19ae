"""``kgdiff ingest ...`` commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgdiff.cli.common import StoreOption, console, parse_day, resumable
from kgdiff.cli.pageviews import ingest_pageviews
from kgdiff.cli.progress import RichProgress
from kgdiff.ingest.api_snapshot import WIKIDATA_API, ApiSnapshotRequest, ingest_api_snapshot
from kgdiff.ingest.pipeline import IngestRequest, IngestResult, ingest_wikidata
from kgdiff.ingest.progress import NullProgress
from kgdiff.readers.json_dump import DEFAULT_CHUNK_BYTES
from kgdiff.wikipedia.ingest import WikipediaRequest, WikipediaResult, ingest_wikipedia

ingest_app = typer.Typer(help="Load dumps into the snapshot store.", no_args_is_help=True)


def print_result(result: IngestResult) -> None:
    """Summarise a published snapshot in a few lines."""
    m = result.manifest
    if result.status == "unchanged":
        console.print(f"snapshot [bold]{m.name}[/] is already built from this file; nothing to do")
        return
    counts = ", ".join(f"{value:,} {key}" for key, value in m.counts.items())
    console.print(f"published snapshot [bold]{m.name}[/] ({m.date}) in {result.directory}")
    console.print(f"  {counts}")
    rejected = f"; {m.rejects:,} rejected, see {m.rejects_file}" if m.rejects else ""
    console.print(f"  {m.elapsed_seconds:.1f} s, sha256 {m.source.sha256}{rejected}")


@ingest_app.command("wikidata")
def ingest_wikidata_command(
    path: Annotated[Path, typer.Argument(help="Dump (.json/.gz/.bz2/.zst, XML) or entity file.")],
    snapshot: Annotated[
        str | None, typer.Option("--snapshot", help="Snapshot name (default wikidata-YYYYMMDD).")
    ] = None,
    date: Annotated[
        str | None,
        typer.Option("--date", help="Snapshot date, YYYY-MM-DD (default: from the file name)."),
    ] = None,
    store: StoreOption = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Parse processes.")] = 2,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only the first N entities.")
    ] = None,
    max_rejects: Annotated[
        int | None,
        typer.Option("--max-rejects", min=0, help="Abort beyond N malformed entities."),
    ] = None,
    chunk_mb: Annotated[int, typer.Option("--chunk-mb", min=1, help="Work unit size.")] = (
        DEFAULT_CHUNK_BYTES >> 20
    ),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress, no summary.")] = False,
) -> None:
    """Ingest a Wikidata dump into an immutable snapshot (resumable; re-running is a no-op)."""
    request = IngestRequest(
        path=path,
        snapshot=snapshot,
        date=date,
        store=store,
        workers=workers,
        limit=limit,
        max_rejects=max_rejects,
        chunk_bytes=chunk_mb << 20,
    )
    progress = NullProgress() if quiet else RichProgress(console)
    with resumable():
        result = ingest_wikidata(request, progress)
    if not quiet:
        print_result(result)


ingest_app.command("pageviews")(ingest_pageviews)


@ingest_app.command("wikipedia")
def ingest_wikipedia_command(
    path: Annotated[Path, typer.Argument(help="MediaWiki XML dump (pages-articles or history).")],
    snapshot: Annotated[
        str | None, typer.Option("--snapshot", help="Snapshot name (default WIKI-YYYYMMDD).")
    ] = None,
    date: Annotated[
        str | None,
        typer.Option("--date", help="Snapshot date, YYYY-MM-DD (default: from the file name)."),
    ] = None,
    wiki: Annotated[
        str | None, typer.Option("--wiki", help="Wiki database name (default: the dump's).")
    ] = None,
    store: StoreOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress, no summary.")] = False,
) -> None:
    """Ingest a Wikipedia XML dump: each page as of --date, and every revision it holds."""
    request = WikipediaRequest(path=path, snapshot=snapshot, date=date, wiki=wiki, store=store)
    progress = NullProgress() if quiet else RichProgress(console, "pages", "revisions")
    with resumable():
        result = ingest_wikipedia(request, progress)
    if not quiet:
        print_wikipedia_result(result)


def print_wikipedia_result(result: WikipediaResult) -> None:
    """Summarise a published Wikipedia snapshot."""
    m = result.manifest
    if result.status == "unchanged":
        console.print(f"snapshot [bold]{m.name}[/] is already built from this file; nothing to do")
        return
    console.print(f"published Wikipedia snapshot [bold]{m.name}[/] ({m.wiki}, {m.date})")
    console.print(f"  {m.counts['pages']:,} pages, {m.counts['revisions']:,} revisions")
    later = m.input_stats.get("pages_after_date", 0)
    if later:
        console.print(f"  {later:,} pages skipped: their first revision is after {m.date}")
    console.print(f"  {m.elapsed_seconds:.1f} s, sha256 {m.source.sha256}")


@ingest_app.command("api")
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
