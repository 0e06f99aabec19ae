"""What stopped runs leave in the store: temporary files and folders, staging, jobs.

A run writes into a hidden temporary (``.tmp-<key>-<pid>``, ``.kg.duckdb.tmp-<pid>``, ...)
and renames it into place; a killed run leaves it behind. The pid in its name tells whether
the run still goes (:mod:`kgdiff.store.liveness`): a live process's temporary is left
alone. An ingest's ``.staging/NAME`` is locked (``.staging/NAME.lock``, flock) while the
ingest runs; a stopped Wikidata ingest's staging is resumable work, kept unless asked
(``--drop-staging``), and the check says how to resume it. The jobs of a server that
stopped stay ``queued`` or ``running`` for ever unless marked failed
(:func:`kgdiff.query.jobs.fail_orphaned_jobs`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import msgspec

from kgdiff.maintenance.findings import (
    DROP_STAGING,
    FAIL_JOBS,
    REMOVE,
    Finding,
    Repair,
    note,
    problem,
)
from kgdiff.query.jobs import orphaned_jobs
from kgdiff.refresh.staging import read_state
from kgdiff.store.layout import StoreLayout
from kgdiff.store.liveness import ProcessMark, is_running
from kgdiff.store.staging import FORMAT_VERSION, StagingState, staging_in_use

PID_NAMES = (
    re.compile(r"^\.(?:tmp|trash)-.+-(\d+)$"),  # builds, page views, pages, evidence; removals
    re.compile(r"^\..+\.(?:tmp|partial|replaced)-(\d+)(?:\.wal)?$"),  # catalog, copies, files
    re.compile(r"^\..+\.(\d+)\.tmp$"),  # staleness curves, RDF exports
    re.compile(r"^\..+\.json\.(\d+)\.\d+$"),  # job states being written
)
"""Names of the temporaries kgdiff writes, each with the pid of the process writing it."""
PUBLISHED_PARENTS = ("snapshots", "wikipedia", "pageviews")
"""Folders whose ``NAME=...`` subfolders are published (checked against their manifests)."""


def jobs_folder(layout: StoreLayout) -> Path:
    """Where the service keeps its jobs' states (``STORE/builds/jobs``)."""
    return layout.root / "builds" / "jobs"


def writer_pid(name: str) -> int | None:
    """The pid in the name of a temporary kgdiff writes, or None for any other name."""
    for pattern in PID_NAMES:
        match = pattern.match(name)
        if match:
            return int(match.group(1))
    return None


def check_leftovers(layout: StoreLayout) -> list[Finding]:
    """Temporaries of stopped processes, staging of stopped ingests, orphaned jobs."""
    findings = list(_temporaries(layout))
    findings += _staging(layout)
    findings += _jobs(layout)
    return findings


def _relative(layout: StoreLayout, path: Path) -> str:
    return path.relative_to(layout.root).as_posix()


def _temporaries(layout: StoreLayout) -> Iterator[Finding]:
    for top, folders, files in os.walk(layout.root):
        here = Path(top)
        for name in sorted(folders + files):
            pid = writer_pid(name)
            if pid is not None:
                yield _temporary(layout, here / name, pid)
        # never into a temporary, the staging (see _staging) or a published folder (its
        # manifest tells what it holds)
        if here.name in PUBLISHED_PARENTS and here.parent == layout.root:
            folders[:] = []
        skipped = {".staging"} if here == layout.root else set()
        folders[:] = [f for f in folders if writer_pid(f) is None and f not in skipped]


def _temporary(layout: StoreLayout, path: Path, pid: int) -> Finding:
    where = _relative(layout, path)
    if is_running(ProcessMark(pid)):
        return note(where, f"being written by the running process {pid}", "left alone")
    message = f"left by the process {pid}, which stopped before its clean-up"
    return problem(where, message, "--repair removes it", Repair(REMOVE, where))


def _staging(layout: StoreLayout) -> Iterator[Finding]:
    folder = layout.staging_dir
    entries = sorted(folder.iterdir()) if folder.is_dir() else []
    for entry in entries:
        pid = writer_pid(entry.name)
        if pid is not None:
            yield _temporary(layout, entry, pid)
        elif entry.is_dir():
            yield from _staging_folder(layout, entry)
        elif entry.suffix == ".lock" and _lone_lock(entry):
            where = _relative(layout, entry)
            message = "the lock of a stopped ingest"
            yield problem(where, message, "--repair removes it", Repair(DROP_STAGING, where))


def _lone_lock(path: Path) -> bool:
    """Whether ``path`` is the lock of no staging folder, held by no ingest."""
    folder = path.with_suffix("")
    return not folder.exists() and not staging_in_use(folder)


def _staging_folder(layout: StoreLayout, folder: Path) -> Iterator[Finding]:
    where = _relative(layout, folder)
    name = folder.name
    if staging_in_use(folder):
        yield note(where, f"an ingest of {name!r} is running", "left alone")
        return
    drop = Repair(DROP_STAGING, where)
    size = f"{_size(folder) / 1e6:,.1f} MB"
    published = layout.snapshot_dir(name), layout.wikipedia_snapshot_dir(name)
    if any((path / "manifest.json").is_file() for path in published):
        message = f"the staging ({size}) of {name!r}, published by an ingest stopped before"
        message += " its clean-up"
        yield problem(where, message, "--repair removes it", drop)
        return
    refresh = read_state(folder)
    if refresh is not None:
        yield note(
            where,
            f"a stopped refresh of {name!r} on {refresh.base!r} ({size} of parsed change"
            " files), resumable",
            f"resume it by running the same 'kgdiff refresh ... --snapshot {name}' again, or"
            " drop it with 'kgdiff store check --repair --drop-staging'",
            drop,
        )
        return
    state, why_not = _resumable(folder)
    if state is None:
        message = f"the staging ({size}) of a stopped ingest of {name!r}, not resumable ({why_not})"
        yield problem(where, message, "--repair removes it", drop)
        return
    command = f"kgdiff ingest wikidata {state.source.path} --snapshot {name}"
    yield note(
        where,
        f"a stopped ingest of {name!r} ({size} of parsed chunks), resumable",
        f"resume it by running the same '{command} ...' again, or drop it with"
        " 'kgdiff store check --repair --drop-staging'",
        drop,
    )


def _resumable(folder: Path) -> tuple[StagingState | None, str]:
    """The state of a stopped Wikidata ingest that the same command resumes, else why not."""
    try:
        state = msgspec.json.decode((folder / "state.json").read_bytes(), type=StagingState)
    except FileNotFoundError:
        return None, "it records no source: a Wikipedia ingest, or one stopped at its start"
    except (OSError, msgspec.DecodeError):
        return None, "its state.json is damaged"
    if state.format_version != FORMAT_VERSION:
        return None, "an earlier kgdiff wrote it"
    try:
        stat = Path(state.source.path).stat()
    except OSError:
        return None, f"its source {state.source.path} is gone"
    if (stat.st_size, stat.st_mtime_ns) != (state.source.size, state.source.mtime_ns):
        return None, f"its source {state.source.path} has changed"
    if not any((folder / "parts").glob("[0-9]*/meta.json")):
        return None, "no chunk was parsed yet"
    return state, ""


def _size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def _jobs(layout: StoreLayout) -> Iterator[Finding]:
    folder = jobs_folder(layout)
    for state in orphaned_jobs(folder):
        where = _relative(layout, folder / f"{state.id}.json")
        owner = f"pid {state.owner.pid}" if state.owner is not None else "an earlier kgdiff"
        message = f"the job is {state.status}, but the server that ran it ({owner}) has stopped"
        fix = "--repair marks it failed (asking again runs it anew)"
        yield problem(where, message, fix, Repair(FAIL_JOBS))
