"""``kgdiff ingest wikidata``: a dump into a snapshot."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from kgdiff.cli.common import StoreOption, console, resumable
from kgdiff.cli.progress import progress_for
from kgdiff.ingest.pipeline import IngestRequest, IngestResult, ingest_wikidata
from kgdiff.ingest.progress import NullProgress
from kgdiff.readers.json_dump import DEFAULT_CHUNK_BYTES
from kgdiff.store.manifest import SUBSET


class StagingCodec(StrEnum):
    """The choices of ``--staging-compression`` (:data:`STAGING_CHOICES`)."""

    auto = "auto"
    lz4 = "lz4"
    zstd = "zstd"
    none = "none"


class Coverage(StrEnum):
    """The choices of ``--coverage`` (:mod:`kgdiff.store.coverage`)."""

    full = "full"
    subset = "subset"


def print_result(result: IngestResult) -> None:
    """Summarise a published snapshot in a few lines."""
    m = result.manifest
    if result.status == "unchanged":
        console.print(f"snapshot [bold]{m.name}[/] is already built from this file; nothing to do")
        return
    counts = ", ".join(f"{value:,} {key}" for key, value in m.counts.items())
    subset = ", a subset: see --coverage" if m.coverage == SUBSET else ""
    console.print(f"published snapshot [bold]{m.name}[/] ({m.date}{subset}) in {result.directory}")
    console.print(f"  {counts}")
    rejected = f"; {m.rejects:,} rejected, see {m.rejects_file}" if m.rejects else ""
    console.print(f"  {m.elapsed_seconds:.1f} s, sha256 {m.source.sha256}{rejected}")
    if m.duplicates:
        what = "entity" if m.duplicates == 1 else "entities"
        console.print(
            f"  {m.duplicates:,} duplicate {what} left out (an id seen again: the highest "
            f"lastrevid, else the last one read, is kept), see {m.rejects_file}"
        )


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
    staging_compression: Annotated[
        StagingCodec,
        typer.Option(
            "--staging-compression",
            help="Parsed chunks awaiting the sort: auto (none if they fit in memory, else lz4),"
            " lz4, zstd (~40 % less disk than lz4) or none (least CPU, ~1.8× lz4's disk).",
        ),
    ] = StagingCodec.auto,
    coverage: Annotated[
        Coverage | None,
        typer.Option(
            "--coverage",
            help="full (a whole dump: what it lacks did not exist) or subset (a sample, a"
            " filtered dump: it knows only its entities). Default: subset for --limit and"
            " entity files, else full.",
            show_default=False,
        ),
    ] = None,
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
        staging_compression=staging_compression.value,
        coverage=coverage.value if coverage else None,
    )
    progress = NullProgress() if quiet else progress_for(console)
    with resumable():
        result = ingest_wikidata(request, progress)
    if not quiet:
        print_result(result)
