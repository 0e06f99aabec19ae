"""Classification results materialised as Parquet builds, keyed by their parameters.

``STORE/builds/classify/<key>/`` holds ``result/part-*.parquet`` (one file per part, see
:mod:`kgdiff.temporal.parts`) and ``params.json``; the
key hashes the dates, the mode, the snapshots (names and source checksums) and the
kgdiff version, so asking twice reuses the build and a new snapshot makes a new one.
Builds appear in the catalog as views ``classified_<init>_<cutoff>_<current>_<mode>``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import duckdb
import msgspec

from kgdiff.errors import StoreError
from kgdiff.sqlfiles import load_sql
from kgdiff.store.builds_index import build_problem
from kgdiff.store.catalog import macros_current, rebuild_catalog, store_lock
from kgdiff.store.layout import CLASSIFY_RULES, StoreLayout, build_files, classification_view
from kgdiff.store.manifest import Manifest
from kgdiff.store.snapshots import list_snapshots
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.classify import check_dates, check_mode, role_days
from kgdiff.temporal.dates import DateRead, GapPolicy
from kgdiff.temporal.helper_macros import open_catalog_with_helpers
from kgdiff.temporal.parts import (
    CLASSIFY_MEMORY,
    PartDone,
    classify_in_parts,
    classifying,
    plan_parts,
)
from kgdiff.temporal.served_builds import evict_if_serving, kept_for_caller, mark_if_serving
from kgdiff.temporal.window import Window, check_window
from kgdiff.version import __version__

BUILD_LAYOUT = "result-parts"
"""How a build stores its rows (part of the key): ``result/part-*.parquet``. Builds made
before (one ``result.parquet``) get new keys and are left out of the catalog."""


class BuildParams(msgspec.Struct, frozen=True):
    """What a classification build was computed from."""

    init: str
    cutoff: str
    current: str
    mode: str
    snapshots: list[tuple[str, str | None, str]]
    """(name, source sha256, coverage) of every snapshot the build was computed from."""
    tool_version: str
    layout: str = BUILD_LAYOUT
    rules: str = CLASSIFY_RULES

    @property
    def view_name(self) -> str:
        """The catalog view of this build."""
        return classification_view(self.init, self.cutoff, self.current, self.mode)


@dataclass(frozen=True)
class Build:
    """A materialised classification."""

    params: BuildParams
    path: Path
    reused: bool
    reads: list[DateRead] = field(default_factory=list)
    """Which snapshot answered each date, and how far it is from it."""


def build_params(
    layout: StoreLayout, manifests: list[Manifest], days: tuple[date, date, date], mode: str
) -> BuildParams:
    """The parameters (and so the key) of the build for ``days`` (init, cutoff, current)."""
    init, cutoff, current = days
    check_dates(init, cutoff, current)
    check_mode(mode)
    if not manifests:
        raise StoreError(
            f"no snapshots in {layout.root}; ingest some with 'kgdiff ingest wikidata'"
        )
    snapshots = [(m.name, m.source.sha256, m.coverage) for m in manifests]
    return BuildParams(
        init.isoformat(), cutoff.isoformat(), current.isoformat(), mode, snapshots, __version__
    )


def build_dir(layout: StoreLayout, params: BuildParams) -> Path:
    """Folder of the build for ``params``."""
    key = hashlib.sha256(msgspec.json.encode(params)).hexdigest()[:16]
    return layout.root / "builds" / "classify" / key


def planned_build_dir(layout: StoreLayout, days: tuple[date, date, date], mode: str) -> Path:
    """The folder the build for ``days`` (init, cutoff, current) and ``mode`` has or will
    have (it may not exist yet); nothing is computed."""
    return build_dir(layout, build_params(layout, list_snapshots(layout), days, mode))


def planned_build(
    layout: StoreLayout,
    days: tuple[date, date, date],
    mode: str,
    gap: GapPolicy | None = None,
) -> tuple[list[Manifest], BuildParams, list[DateRead]]:
    """The snapshots, the parameters and the dates' reads of the build for ``days`` (init,
    cutoff, current) in ``mode``; a usage error for dates the snapshots cannot answer
    unless ``gap`` allows them, or out of order (:mod:`kgdiff.temporal.window`)."""
    check_mode(mode)
    manifests = list_snapshots(layout)
    reads: list[DateRead] = []
    if manifests:  # else build_params says the store has none
        with open_catalog(layout) as connection:
            reads = check_window(connection, Window(role_days(*days)), mode, gap or GapPolicy())
    return manifests, build_params(layout, manifests, days, mode), reads


def publish_build(
    layout: StoreLayout,
    params: BuildParams,
    reads: list[DateRead],
    fill: Callable[[Path], None],
    catalog: bool = True,
) -> Build:
    """The build of ``params``, made unless the store has it: ``fill`` writes the result's
    files into the folder it is given (``build_files(folder).parent``), then the build is
    published whole by one rename under the store lock (another process publishing the same
    build first wins) and, with ``catalog``, the catalog is rebuilt.

    A build the store has is reused; with ``catalog``, its view is restored if the catalog
    lacks it (a run killed between the rename and the rebuild). One that cannot be read (no
    result files, a damaged ``params.json``) is removed and made anew. A build made for a
    request to the service is marked, and evicts the least recently used such builds past
    the bound (:mod:`kgdiff.temporal.served_builds`)."""
    folder = build_dir(layout, params)
    result = build_files(folder)
    if folder.is_dir():  # a build folder appears complete, by one rename
        if build_problem(folder) is not None:
            discard_build(layout, folder)
        elif kept_for_caller(layout, folder):  # else the service evicted it meanwhile
            if catalog and lacks_view(layout, params):
                with store_lock(layout):
                    rebuild_catalog(layout)
            return Build(params, result, reused=True, reads=reads)
    tmp = folder.with_name(f".tmp-{folder.name}-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    fill(build_files(tmp).parent)
    (tmp / "params.json").write_bytes(msgspec.json.encode(params))
    mark_if_serving(tmp)
    with store_lock(layout):
        if folder.exists():  # another process published the same build meanwhile
            shutil.rmtree(tmp, ignore_errors=True)
            return Build(params, result, reused=True, reads=reads)
        tmp.rename(folder)
        evict_if_serving(layout, folder)
        if catalog:
            rebuild_catalog(layout)
    return Build(params, result, reused=False, reads=reads)


def lacks_view(layout: StoreLayout, params: BuildParams) -> bool:
    """Whether the catalog lacks the view of the build of ``params``."""
    try:
        with open_catalog(layout) as connection:
            names = {"names": [params.view_name]}
            return not connection.execute(load_sql("lookup/views_present"), names).fetchall()
    except (StoreError, duckdb.Error):
        return True  # no catalog, or one that cannot be opened: a rebuild makes it


def discard_build(layout: StoreLayout, folder: Path) -> None:
    """Unpublish the unreadable build in ``folder`` (renamed away under the store lock, so
    no other process publishes into it meanwhile), then delete it; the catalog is rebuilt."""
    trash = folder.with_name(f".trash-{folder.name}-{os.getpid()}")
    with store_lock(layout):
        if not folder.is_dir() or build_problem(folder) is None:
            return  # another process removed or replaced it meanwhile
        folder.rename(trash)
        rebuild_catalog(layout)
    shutil.rmtree(trash, ignore_errors=True)


def classification(
    layout: StoreLayout,
    init: date,
    cutoff: date,
    current: date,
    mode: str,
    on_part: PartDone | None = None,
    gap: GapPolicy | None = None,
    catalog: bool = True,
    memory: str = CLASSIFY_MEMORY,
) -> Build:
    """The classification build for these parameters, computed if it does not exist yet.

    Dates the snapshots cannot answer are a usage error unless ``gap`` allows them
    (:mod:`kgdiff.temporal.dates`). A large store is classified in parts
    (:mod:`kgdiff.temporal.parts`); ``on_part`` hears of each part done. ``catalog=False``
    leaves the catalog's rebuild (the build's view) to the caller, who makes several builds
    and rebuilds it once (:func:`~kgdiff.store.catalog.rebuild_catalog`). ``memory`` is
    DuckDB's limit while it classifies (a caller inside a bounded step gives its own).
    """
    manifests, params, reads = planned_build(layout, (init, cutoff, current), mode, gap)
    values: dict[str, object] = {"init": init, "cutoff": cutoff, "current": current, "mode": mode}

    def fill(result: Path) -> None:
        if not macros_current(layout):  # an older kgdiff's classify macro: not these rules
            with store_lock(layout):
                rebuild_catalog(layout)
        with classifying(layout, open_catalog_with_helpers, memory) as connection:
            parts = plan_parts(connection, layout, manifests, [init, cutoff, current], mode)
            classify_in_parts(connection, values, parts, result, on_part)

    return publish_build(layout, params, reads, fill, catalog)
