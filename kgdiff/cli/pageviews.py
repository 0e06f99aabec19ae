"""``kgdiff ingest pageviews``, ``kgdiff popularity`` and ``kgdiff pageviews fetch``."""

from __future__ import annotations

import hashlib
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console
from kgdiff.cli.options import checked_out
from kgdiff.cli.tables import figure, key, prose
from kgdiff.errors import UsageError
from kgdiff.pageviews.ingest import IngestOutcome, PageviewIngest, ingest_file, ingest_rows
from kgdiff.pageviews.popularity import popularity
from kgdiff.pageviews.rest import DEFAULT_BASE, PageviewsApi, fetch_monthly, parse_month
from kgdiff.readers.pageview_codes import project_wiki
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.writers import write_reader

WikiOption = Annotated[
    list[str] | None,
    typer.Option("--wiki", help="Keep only this wiki, e.g. enwiki (repeatable)."),
]


def wiki_name(value: str) -> str:
    """A database name from ``enwiki`` or a domain such as ``en.wikipedia``."""
    if "." not in value:
        return value
    wiki = project_wiki(value)
    if wiki is None:
        raise UsageError(f"--wiki {value!r}: write a database name such as enwiki")
    return wiki


def ingest_pageviews(
    path: Annotated[Path, typer.Argument(help="Page view dump (.gz/.bz2/plain).")],
    source: Annotated[
        str | None, typer.Option("--source", help="Source name (default: the file name).")
    ] = None,
    period: Annotated[
        str | None, typer.Option("--period", help="hour, day or month (default: file name).")
    ] = None,
    date: Annotated[
        str | None,
        typer.Option("--date", help="Period start YYYY-MM-DD[THH] or YYYY-MM (default: name)."),
    ] = None,
    store: StoreOption = None,
    wiki: WikiOption = None,
    max_rejects: Annotated[
        int | None, typer.Option("--max-rejects", min=0, help="Abort beyond N malformed lines.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary.")] = False,
) -> None:
    """Ingest an hourly, daily or monthly page view dump as a source (re-running is a no-op)."""
    wikis = tuple(wiki_name(value) for value in wiki or ())
    request = PageviewIngest(path, source, period, date, store, wikis, max_rejects)
    status = nullcontext() if quiet else console.status(f"reading {path.name}")
    with status:
        outcome = ingest_file(request)
    if not quiet:
        print_outcome(outcome)


def print_outcome(outcome: IngestOutcome) -> None:
    """Summarise an ingested source in a few lines."""
    m = outcome.manifest
    if outcome.status == "unchanged":
        console.print(f"page view source [bold]{outcome.name}[/] is already stored; nothing to do")
        return
    counts = m["counts"]
    console.print(
        f"published page view source [bold]{outcome.name}[/] "
        f"({m['period']} from {m.get('period_start') or '?'}) in {outcome.directory}"
    )
    console.print(
        f"  {counts['lines']:,} lines, {counts['rows_written']:,} rows, {counts['views']:,} views"
    )
    for reason, count in m["rejects_by_reason"].items():
        lines = ", ".join(str(line) for line in m["reject_lines"][reason])
        console.print(f"  rejected {count:,} × {reason} (lines {lines}…)")
    for reason, count in m["skipped"].items():
        console.print(f"  skipped {count:,} × {reason}")


def popularity_command(
    wiki: Annotated[str | None, typer.Option("--wiki", help="Only this wiki, e.g. enwiki.")] = None,
    title: Annotated[
        list[str] | None, typer.Option("--title", help="Only this title (repeatable).")
    ] = None,
    store: StoreOption = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write every row to FILE.csv, FILE.jsonl or FILE.parquet."),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Rows shown on screen.")] = 20,
) -> None:
    """Popularity per page: ln(median monthly views + 1), spiders and bots left out."""
    out = checked_out(out)
    titles = [name.replace("_", " ") for name in title or ()]
    table = popularity(StoreLayout.resolve(store), wiki and wiki_name(wiki), titles or None)
    if out is not None:
        written = write_reader(table.to_reader(), out)
        console.print(f"wrote {written:,} pages to {out}")
        return
    console.print(_table(table.slice(0, limit).to_pylist(), table.num_rows))


def _table(rows: list[dict[str, Any]], total: int) -> Table:
    figures = map(figure, ("months", "median monthly views", "popularity"))
    table = Table(key("wiki"), prose("title"), *figures)
    table.title = f"popularity: {total:,} pages" + (
        f", top {len(rows)}" if total > len(rows) else ""
    )
    for row in rows:
        median = f"{row['median_monthly_views']:,.1f}"
        table.add_row(
            row["wiki"], row["title"], str(row["months"]), median, f"{row['popularity']:.3f}"
        )
    return table


def pageviews_fetch_command(
    titles: Annotated[list[str], typer.Argument(help="Article titles, e.g. Albert_Einstein.")],
    wiki: Annotated[str, typer.Option("--wiki", help="The wiki, e.g. enwiki.")] = "enwiki",
    first: Annotated[str, typer.Option("--from", help="First month, YYYY-MM.")] = "2016-01",
    last: Annotated[str, typer.Option("--to", help="Last month, YYYY-MM.")] = "2024-12",
    api_base: Annotated[str, typer.Option("--api-base", help="REST API base URL.")] = DEFAULT_BASE,
    source: Annotated[
        str | None, typer.Option("--source", help="Source name (default: from the request).")
    ] = None,
    store: StoreOption = None,
    cache: Annotated[
        Path | None, typer.Option("--cache", help="Answer cache folder (default STORE/.cache).")
    ] = None,
) -> None:
    """Fetch monthly views of articles from the Wikimedia REST API and store them as a source."""
    wiki = wiki_name(wiki)
    start, end = parse_month(first, "--from"), parse_month(last, "--to")
    layout = StoreLayout.resolve(store)
    names = sorted({name.replace(" ", "_") for name in titles})
    request = {"api": api_base, "wiki": wiki, "titles": names, "from": first, "to": last}
    name = source or _fetch_name(request)
    api = PageviewsApi(base=api_base, cache_dir=cache or layout.root / ".cache" / "pageviews")
    with console.status(f"fetching {len(names)} titles"):
        rows = list(fetch_monthly(api, wiki, names, start, end))
    print_outcome(ingest_rows(layout.root, name, rows, request))


def _fetch_name(request: dict[str, Any]) -> str:
    digest = hashlib.sha256(repr(sorted(request.items())).encode()).hexdigest()[:8]
    months = f"{request['from']}_{request['to']}".replace("-", "")
    return f"rest-{request['wiki']}-{months}-{digest}"
