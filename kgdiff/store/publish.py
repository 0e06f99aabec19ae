"""Publish a finished snapshot folder atomically and keep the catalog in step."""

from __future__ import annotations

import os
import platform
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TypedDict

import duckdb
import msgspec

from kgdiff.errors import StoreError
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.complete import check_complete
from kgdiff.store.inventory import file_records
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import Manifest, SourceInfo, write_manifest
from kgdiff.store.vetting import manifest_problem
from kgdiff.version import __version__


class ToolVersions(TypedDict):
    """The versions every manifest records (typed: a manifest's other fields are not str)."""

    tool_version: str
    duckdb_version: str
    python_version: str


def tool_versions() -> ToolVersions:
    """Versions recorded in every manifest."""
    return {
        "tool_version": __version__,
        "duckdb_version": duckdb.__version__,
        "python_version": platform.python_version(),
    }


def utc_now() -> str:
    """The current time, ISO 8601 in UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def already_published(
    layout: StoreLayout,
    name: str,
    source: SourceInfo,
    directory: Path | None = None,
    coverage: str | None = None,
) -> Manifest | None:
    """The manifest of ``name`` if it was built from this very file; raise if from another,
    or (``coverage`` given) if it was recorded with another coverage.

    ``directory`` is where such a snapshot lives (default: the Wikidata snapshot folder)."""
    directory = directory or layout.snapshot_dir(name)
    if not (directory / "manifest.json").is_file():
        return None
    manifest, problem = manifest_problem(directory)
    if manifest is None:
        raise StoreError(
            f"snapshot {name!r} already exists but {problem}; remove it with "
            f"'kgdiff snapshots rm {name}' and ingest it again"
        )
    if not manifest.source.same_file(source):
        raise StoreError(
            f"snapshot {name!r} already exists, built from {manifest.source.path} "
            f"on {manifest.created_at}; remove it with 'kgdiff snapshots rm {name}' "
            "or choose another --snapshot"
        )
    if coverage is not None and manifest.coverage != coverage:
        raise StoreError(
            f"snapshot {name!r} was built from this file as a {manifest.coverage} snapshot, "
            f"not {coverage}; remove it with 'kgdiff snapshots rm {name}' and ingest again"
        )
    repair_after_publish(layout, name, directory)
    return manifest


def repair_after_publish(layout: StoreLayout, name: str, directory: Path) -> None:
    """Finish what a run killed between the publishing rename and its clean-up left undone.

    The manifest is written before the rename and the catalog after it, so a catalog
    older than the manifest does not list the snapshot yet.
    """
    catalog = layout.catalog
    manifest_time = (directory / "manifest.json").stat().st_mtime_ns
    if not catalog.is_file() or catalog.stat().st_mtime_ns < manifest_time:
        with store_lock(layout):
            rebuild_catalog(layout)
    staging = layout.staging(name)
    if staging.exists():
        shutil.rmtree(staging, ignore_errors=True)
    staging.with_name(f"{staging.name}.lock").unlink(missing_ok=True)


def fsync_dir(path: Path) -> None:
    """Make a folder's entries (new files, renames) durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def publish_snapshot(
    layout: StoreLayout, final: Path, manifest: Manifest, target: Path | None = None
) -> Path:
    """Write the manifest (with the record of every file, :mod:`kgdiff.store.inventory`),
    move ``final`` into place by one rename, rebuild the catalog.

    ``target`` is the snapshot's folder (default: the Wikidata snapshot folder). A folder
    that lacks a table's files, or whose rows differ from the manifest's counts, is refused
    (:func:`kgdiff.store.complete.check_complete`): nothing is renamed into place."""
    check_complete(final, manifest)
    started = time.monotonic()
    files = file_records(final)
    timings = {**manifest.timings, "checksum_seconds": round(time.monotonic() - started, 3)}
    manifest = msgspec.structs.replace(manifest, files=files, timings=timings)
    write_manifest(final / "manifest.json", manifest)
    fsync_dir(final)
    target = target or layout.snapshot_dir(manifest.name)
    target.parent.mkdir(parents=True, exist_ok=True)
    with store_lock(layout):
        if target.exists():
            raise StoreError(f"snapshot {manifest.name!r} appeared while ingesting; not replaced")
        final.rename(target)
        fsync_dir(target.parent)
        rebuild_catalog(layout)
    return target
