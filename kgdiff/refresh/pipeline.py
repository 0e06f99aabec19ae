"""``kgdiff refresh``: the base snapshot, with the changes since, as a new snapshot stored as
a delta (:mod:`kgdiff.store.delta`).

The change files are parsed by the ingest's readers and workers, each into its own staging
folder (:mod:`kgdiff.refresh.inputs`); each entity's latest revision at or before the end of
the date is chosen across them and the deletions applied (:mod:`kgdiff.refresh.select`);
the ingest's sort writes the kept rows into the delta's tables, and the changes and counts
are worked out against the base (:mod:`kgdiff.refresh.changes`). The snapshot is published
whole, by one rename, like an ingest's; an interrupted run resumes from the parsed chunks,
and a run of the same refresh again does nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from datetime import date, datetime
from datetime import time as clock
from pathlib import Path

from kgdiff.errors import StoreError, UsageError
from kgdiff.fetch.guard import refuse_unverified
from kgdiff.ingest.dispatch import worker_pool
from kgdiff.ingest.progress import NullProgress, Progress
from kgdiff.readers.input_file import check_input_file
from kgdiff.refresh.deletions import no_deletions, read_deletions
from kgdiff.refresh.inputs import ParsedInput, ParseSettings, parse_input
from kgdiff.refresh.manifest import refreshed_manifest
from kgdiff.refresh.request import (
    RefreshRequest,
    RefreshResult,
    RefreshState,
    file_identity,
    made_by,
)
from kgdiff.refresh.select import select_revisions
from kgdiff.refresh.staging import RefreshStaging
from kgdiff.refresh.write import write_delta
from kgdiff.store.delta import manifest_sha256
from kgdiff.store.layout import StoreLayout, check_snapshot_name
from kgdiff.store.manifest import Manifest, read_manifest
from kgdiff.store.publish import publish_snapshot, repair_after_publish
from kgdiff.store.snapshots import list_snapshots
from kgdiff.store.vetting import manifest_problem

CHANGES_INPUT = "a change file (an incremental or history XML dump, a JSON dump or an entity file)"


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise UsageError(f"--date {text!r} is not a date; write it as YYYY-MM-DD") from exc


def day_end(day: date) -> str:
    """The last second of ``day`` as dump timestamps write it."""
    return datetime.combine(day, clock(23, 59, 59)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _base(layout: StoreLayout, name: str, day: date) -> Manifest:
    """The manifest of the base snapshot (shown by the catalog), dated before ``day``."""
    shown = {m.name: m for m in list_snapshots(layout)}
    base = shown.get(name)
    if base is None:
        known = ", ".join(sorted(shown)) or "none"
        raise UsageError(
            f"--base {name!r}: no such snapshot in {layout.root} (known: {known}); "
            "`kgdiff snapshots` lists them"
        )
    if date.fromisoformat(base.date) >= day:
        raise UsageError(
            f"--date {day} is not after the date of the base {name!r} ({base.date}); "
            "a refresh brings a snapshot forward: give a later --date"
        )
    return base


def _existing(layout: StoreLayout, name: str, state: RefreshState) -> Manifest | None:
    """The snapshot ``name`` if this very refresh made it; a :class:`StoreError` if anything
    else did."""
    folder = layout.snapshot_dir(name)
    if not (folder / "manifest.json").is_file():
        return None
    manifest, problem = manifest_problem(folder)
    if manifest is not None and made_by(manifest, state):
        repair_after_publish(layout, name, folder)
        return manifest
    what = problem or f"made on {manifest.created_at if manifest else '?'} from other input"
    raise StoreError(
        f"snapshot {name!r} already exists ({what}); remove it with 'kgdiff snapshots rm "
        f"{name}' or choose another --snapshot"
    )


def _state(request: RefreshRequest, layout: StoreLayout, base: Manifest) -> RefreshState:
    deletions = None if request.deletions is None else file_identity(request.deletions)
    return RefreshState(
        base=base.name,
        base_manifest_sha256=manifest_sha256(layout.snapshot_dir(base.name)),
        date=request.date,
        inputs=[file_identity(path) for path in request.changes],
        deletions=deletions,
        chunk_bytes=request.chunk_bytes,
    )


def _resolved(request: RefreshRequest) -> RefreshRequest:
    """``request`` with absolute paths, every file checked readable and not a download
    under way."""
    changes = tuple(path.expanduser().resolve() for path in request.changes)
    if not changes:
        raise UsageError("give at least one change file")
    if len(set(changes)) != len(changes):
        raise UsageError("a change file is given twice; give each once")
    for path in changes:
        check_input_file(path, CHANGES_INPUT)
        refuse_unverified(path)
    deletions = request.deletions
    if deletions is not None:
        deletions = deletions.expanduser().resolve()
        check_input_file(deletions, "a pages-logging dump or a list of deleted ids")
        refuse_unverified(deletions)
    check_snapshot_name(request.snapshot)
    return replace(request, changes=changes, deletions=deletions)


@dataclass(frozen=True)
class _Run:
    request: RefreshRequest
    layout: StoreLayout
    base: Manifest
    day: date
    progress: Progress


def _parse_all(run: _Run, staging: RefreshStaging) -> list[ParsedInput]:
    settings = ParseSettings(
        day=run.day,
        chunk_bytes=run.request.chunk_bytes,
        workers=run.request.workers,
        max_rejects=run.request.max_rejects,
        store_root=run.layout.root,
    )
    parsed: list[ParsedInput] = []
    with worker_pool(run.request.workers) as pool:
        for index, path in enumerate(run.request.changes):
            rejects = sum(item.done.rejects for item in parsed)
            folder = staging.input_folder(path)
            parsed.append(parse_input(index, path, folder, settings, pool, run.progress, rejects))
    return parsed


def _build(run: _Run, staging: RefreshStaging, started: float) -> tuple[Manifest, Path]:
    cpu = time.process_time()
    parsed = _parse_all(run, staging)
    timings = {"parse_seconds": round(time.monotonic() - started, 3)}
    timings["parse_main_cpu_seconds"] = round(time.process_time() - cpu, 3)
    deletions = read_deletions(run.request.deletions) if run.request.deletions else None
    table = deletions.table if deletions else no_deletions()
    after = day_end(date.fromisoformat(run.base.date))
    selection = select_revisions(parsed, table, after, day_end(run.day))
    run.progress.phase("sorting and writing the changed entities")
    mark, cpu = time.monotonic(), time.process_time()
    written = write_delta(run.layout, staging, parsed, selection, run.base, run.progress)
    written.summary.update({f"revisions_{fate}": n for fate, n in selection.fates.items()})
    timings["finalize_seconds"] = round(time.monotonic() - mark, 3)
    timings["finalize_cpu_seconds"] = round(time.process_time() - cpu, 3)
    timings["base_seconds"] = written.base_seconds
    timings["base_cpu_seconds"] = written.base_cpu_seconds
    manifest = refreshed_manifest(
        run.request, run.layout, run.base, parsed, deletions, written, timings, started
    )
    return manifest, staging.final


def refresh_snapshot(request: RefreshRequest, progress: Progress | None = None) -> RefreshResult:
    """Make (or find made) the snapshot ``request`` asks for (see the module docstring)."""
    progress = progress or NullProgress()
    started = time.monotonic()
    request = _resolved(request)
    layout = StoreLayout.resolve(request.store)
    day = _day(request.date)
    base = _base(layout, request.base, day)
    state = _state(request, layout, base)
    existing = _existing(layout, request.snapshot, state)
    if existing is not None:
        return RefreshResult(existing, layout.snapshot_dir(request.snapshot), "unchanged")
    layout.ensure()
    staging = RefreshStaging(layout.staging(request.snapshot), state)
    staging.open()
    try:
        run = _Run(request, layout, base, day, progress)
        manifest, final = _build(run, staging, started)
        directory = publish_snapshot(layout, final, manifest)
    except BaseException:
        staging.close(remove=False)
        raise
    finally:
        progress.end()
    staging.close(remove=True)
    published = read_manifest(directory / "manifest.json")  # with its files' records
    return RefreshResult(published, directory, "refreshed")
