"""``kgdiff refresh``: a new snapshot from the changes since an earlier one, stored as a delta."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgdiff.cli.common import StoreOption, console, resumable
from kgdiff.cli.progress import progress_for
from kgdiff.ingest.progress import NullProgress
from kgdiff.readers.json_dump import DEFAULT_CHUNK_BYTES
from kgdiff.refresh.pipeline import refresh_snapshot
from kgdiff.refresh.request import RefreshRequest, RefreshResult

SUMMARY_KINDS = ("changed", "added", "redirected", "deleted")


def print_result(result: RefreshResult) -> None:
    """Summarise the refreshed snapshot in a few lines."""
    m = result.manifest
    if result.status == "unchanged":
        console.print(
            f"snapshot [bold]{m.name}[/] is already refreshed from these files; nothing to do"
        )
        return
    info, delta = m.refresh, m.delta
    assert info is not None and delta is not None
    changes = info.changes
    summary = ", ".join(f"{changes.get(kind, 0):,} {kind}" for kind in SUMMARY_KINDS)
    console.print(
        f"published snapshot [bold]{m.name}[/] ({m.date}) in {result.directory}, "
        f"a delta of {delta.base}"
    )
    console.print(f"  entities: {summary}")
    if info.deletions == "unknown":
        console.print(
            "  deletions unknown (no --deletions): an entity the changes do not touch is"
            " as the base has it"
        )
    whole = ", ".join(f"{value:,} {key}" for key, value in m.counts.items())
    console.print(f"  the whole snapshot: {whole}")
    stored = delta.stored.get("statements", 0)
    rejected = f"; {m.rejects:,} rejected, see {m.rejects_file}" if m.rejects else ""
    console.print(f"  {m.elapsed_seconds:.1f} s, {stored:,} statements stored{rejected}")


def refresh_command(
    changes: Annotated[
        list[Path],
        typer.Argument(
            help="Change files: daily incremental or history XML dumps (.bz2/.gz/plain), JSON"
            " dumps or entity files of the changed entities; any order."
        ),
    ],
    base: Annotated[str, typer.Option("--base", help="The snapshot the changes apply to.")],
    snapshot: Annotated[str, typer.Option("--snapshot", help="Name of the new snapshot.")],
    date: Annotated[
        str,
        typer.Option(
            "--date",
            help="Its date, YYYY-MM-DD: each entity's latest revision at or before its end wins.",
        ),
    ],
    deletions: Annotated[
        Path | None,
        typer.Option(
            "--deletions",
            help="A pages-logging XML dump or a file of deleted ids (one per line). Without"
            " it the deletions are unknown: an entity the changes do not touch stays.",
        ),
    ] = None,
    store: StoreOption = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Parse processes.")] = 2,
    max_rejects: Annotated[
        int | None,
        typer.Option("--max-rejects", min=0, help="Abort beyond N malformed revisions."),
    ] = None,
    chunk_mb: Annotated[int, typer.Option("--chunk-mb", min=1, help="Work unit size.")] = (
        DEFAULT_CHUNK_BYTES >> 20
    ),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress, no summary.")] = False,
) -> None:
    """A new snapshot: the base with the changes since, stored as a delta.

    Each entity with a revision in the change files at or before the end of --date is
    replaced by its latest such revision (merges become redirects); --deletions removes the
    deleted ones. Resumable; re-running is a no-op (docs/refresh.md)."""
    request = RefreshRequest(
        changes=tuple(changes),
        base=base,
        snapshot=snapshot,
        date=date,
        deletions=deletions,
        store=store,
        workers=workers,
        max_rejects=max_rejects,
        chunk_bytes=chunk_mb << 20,
    )
    progress = NullProgress() if quiet else progress_for(console)
    with resumable():
        result = refresh_snapshot(request, progress)
    if not quiet:
        print_result(result)
