"""Write the delta's folder: the kept revisions' rows sorted into the tables (the ingest's
sort), the ``changes`` table, and the counts of the whole refreshed snapshot."""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass

from kgdiff.ingest.progress import Progress
from kgdiff.refresh.changes import (
    classify_changes,
    fill_empty_tables,
    whole_counts,
    write_change_tables,
)
from kgdiff.refresh.inputs import ParsedInput
from kgdiff.refresh.select import Selection
from kgdiff.refresh.staging import RefreshStaging
from kgdiff.store.finalize import finalize, merge_rejects
from kgdiff.store.layout import TABLES, StoreLayout
from kgdiff.store.manifest import Manifest
from kgdiff.store.store_root import open_catalog


@dataclass(frozen=True)
class Written:
    """What the delta's folder holds, and what it means for the whole snapshot."""

    stored: dict[str, int]
    counts: dict[str, int]
    summary: dict[str, int]
    rejects_file: str | None
    base_seconds: float
    """The time spent reading the base (the touched ids' entities, the replaced rows)."""
    base_cpu_seconds: float
    """The CPU time of that (this process's, DuckDB's threads included): steadier than the
    wall time on a machine shared with other jobs."""


def _sort(
    staging: RefreshStaging,
    parsed: list[ParsedInput],
    selection: Selection,
    threads: int,
    progress: Progress,
) -> tuple[dict[str, int], str | None]:
    """The kept rows, sorted into ``final``; the rows of each table and the rejects file."""
    combined = staging.combined([item.staging for item in parsed])
    if selection.kept.num_rows:
        done = finalize(
            combined, threads=threads, progress=progress.advance, left_out=selection.left_out
        )
        rows, rejects = done.counts, done.rejects_file
    else:
        out = combined.fresh_final()
        rows, rejects = dict.fromkeys(TABLES, 0), merge_rejects(combined, out).file
    fill_empty_tables(staging.final)
    return {table: rows.get(table, 0) for table in TABLES}, rejects


def write_delta(
    layout: StoreLayout,
    staging: RefreshStaging,
    parsed: list[ParsedInput],
    selection: Selection,
    base: Manifest,
    progress: Progress,
    threads: int = 2,
) -> Written:
    """Write the delta of ``base`` into ``staging.final``."""
    if staging.final.exists():
        shutil.rmtree(staging.final)
    stored, rejects = _sort(staging, parsed, selection, threads, progress)
    started, cpu = time.monotonic(), time.process_time()
    connection = open_catalog(layout)
    try:
        changes = classify_changes(connection, base.name, selection)
        stored.update(write_change_tables(staging.final, changes, base.coverage))
        counts = whole_counts(connection, base, changes, stored)
    finally:
        connection.close()
    seconds = round(time.monotonic() - started, 3)
    cpu_seconds = round(time.process_time() - cpu, 3)
    return Written(stored, counts, changes.summary, rejects, seconds, cpu_seconds)
