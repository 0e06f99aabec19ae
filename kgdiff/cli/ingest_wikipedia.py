"""``kgdiff ingest wikipedia``: a MediaWiki XML dump into a Wikipedia snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgdiff.cli.common import StoreOption, console, resumable
from kgdiff.cli.progress import progress_for
from kgdiff.ingest.progress import NullProgress
from kgdiff.wikipedia.ingest import WikipediaRequest, WikipediaResult, ingest_wikipedia


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
    progress = NullProgress() if quiet else progress_for(console, "pages", "revisions")
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
