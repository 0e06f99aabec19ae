"""``kgdiff ingest rdf``: a snapshot from Wikibase RDF."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgdiff.cli.common import StoreOption, console, resumable
from kgdiff.cli.ingest import Coverage, print_result
from kgdiff.cli.progress import progress_for
from kgdiff.ingest.progress import NullProgress
from kgdiff.ingest.rdf_snapshot import RdfIngestRequest, ingest_rdf
from kgdiff.readers.rdf_chunks import DEFAULT_CHUNK_BYTES, FORMATS


def ingest_rdf_command(
    path: Annotated[
        Path, typer.Argument(help="Wikibase RDF: .ttl, .nt, .nq or .rdf, plain or .gz/.bz2/.zst.")
    ],
    snapshot: Annotated[
        str | None, typer.Option("--snapshot", help="Snapshot name (default rdf-YYYYMMDD).")
    ] = None,
    date: Annotated[
        str | None,
        typer.Option("--date", help="Snapshot date, YYYY-MM-DD (default: from the file name)."),
    ] = None,
    store: StoreOption = None,
    rdf_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            help=f"RDF syntax: {', '.join(FORMATS)} (default: from the file name).",
            show_default=False,
        ),
    ] = None,
    max_rejects: Annotated[
        int | None,
        typer.Option(
            "--max-rejects",
            min=0,
            help="Abort beyond N malformed lines or Turtle statements (0: at the first).",
        ),
    ] = None,
    chunk_mb: Annotated[int, typer.Option("--chunk-mb", min=1, help="RDF parsed at a time.")] = (
        DEFAULT_CHUNK_BYTES >> 20
    ),
    coverage: Annotated[
        Coverage | None,
        typer.Option(
            "--coverage",
            help="full or subset (default: full if the file is a whole dump, i.e. has a"
            " wikibase:Dump node, else subset).",
            show_default=False,
        ),
    ] = None,
    any_order: Annotated[
        bool,
        typer.Option(
            "--any-order",
            help="The file is not grouped by entity (e.g. sorted by predicate): hold it all in"
            " memory.",
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress, no summary.")] = False,
) -> None:
    """A snapshot from Wikibase RDF (entities, terms, sitelinks, statements, qualifiers)."""
    request = RdfIngestRequest(
        path=path,
        snapshot=snapshot,
        date=date,
        store=store,
        format=rdf_format,
        coverage=coverage.value if coverage else None,
        max_rejects=max_rejects,
        chunk_bytes=chunk_mb << 20,
        grouped=not any_order,
    )
    progress = NullProgress() if quiet else progress_for(console)
    with resumable():
        result = ingest_rdf(request, progress)
    if quiet:
        return
    print_result(result.ingest)
    counted = ", ".join(f"{value:,} {key}" for key, value in sorted(result.counts.items()) if value)
    console.print(f"  from RDF: {counted}")
    if result.rejects:
        console.print(
            f"  {result.rejects:,} malformed pieces of RDF set aside, see {result.rejects_file}"
        )
