"""Build ``STORE/kg.duckdb``: views over every published snapshot, for SQL users.

The catalog is rebuilt from scratch into a temporary file and renamed over the
old one, so a ``duckdb`` shell that has the catalog open keeps a consistent
(old) view and is never blocked by, nor blocks, an ingest. It is written with an
old storage version so that the ``duckdb`` CLI installed with kgdiff (which may
be older than the Python package) can open it. Its views name their files
relative to the store root (:mod:`kgdiff.store.store_root`), so a copied or
moved store keeps working without a rebuild.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb
import msgspec

from kgdiff.evidence.supported import (
    evidence_files,
    evidence_snapshots,
    evidence_wiki,
    supported_select,
    supported_view,
)
from kgdiff.sqlfiles import quote, render
from kgdiff.store.catalog_reuse import copy_previous, keep_macros, macro_mark, mark_macros
from kgdiff.store.coverage import COVERAGE_TABLE
from kgdiff.store.layout import (
    CLASSIFY_RULES,
    TABLES,
    WIKIPEDIA_TABLES,
    StoreLayout,
    build_files,
    classification_view,
    table_sources,
)
from kgdiff.store.store_root import root_macros, set_store_root, store_relative
from kgdiff.temporal.macros import catalog_macros

CATALOG_STORAGE_VERSION = "v1.0.0"


@contextmanager
def store_lock(layout: StoreLayout) -> Iterator[None]:
    """Serialise catalog rebuilds and publish/remove operations across processes."""
    layout.root.mkdir(parents=True, exist_ok=True)
    with layout.lock_file.open("wb") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass(frozen=True)
class CatalogPlan:
    """The statements that make a catalog, in this order: the root macros (every view
    calls them), the views, then the table macros (which bind against the views)."""

    root_macros: list[str]
    views: list[str]
    macros: list[str]

    @property
    def marked(self) -> list[str]:
        """Every macro of the catalog: the set a kept catalog must hold, marked."""
        return [*self.root_macros, *self.macros]


def _catalog_plan(layout: StoreLayout) -> CatalogPlan:
    """What the catalog of the snapshots, builds and sources published now is made of."""
    names = layout.published_names()
    if not names:
        views = [
            render("catalog/snapshots_empty"),
            *_wikipedia_views(layout),
            _pageviews_view(layout),
        ]
        return CatalogPlan(root_macros(), views, [])
    dirs = [layout.snapshot_dir(name) for name in names]
    manifests = [store_relative(layout, d / "manifest.json") for d in dirs]
    views = [render("catalog/snapshots_view", manifests=manifests)]
    views.extend(_table_views(layout, TABLES, dirs))
    coverage = _table_views(layout, (COVERAGE_TABLE,), dirs)  # subset snapshots only
    views.extend(coverage or [render("catalog/coverage_empty")])
    views.extend(_wikipedia_views(layout))  # before the builds: their views read evidence
    views.extend(_build_views(layout, dirs))
    views.append(_pageviews_view(layout))
    return CatalogPlan(root_macros(), views, catalog_macros())


def _table_views(layout: StoreLayout, tables: tuple[str, ...], dirs: list[Path]) -> list[str]:
    """One view per table over the snapshot folders that have it."""
    views = []
    for table in tables:
        files = [source for d in dirs for source in table_sources(layout.root, d, table)]
        if files:
            views.append(render("catalog/table_view", table=table, files=files))
    return views


def _pageviews_view(layout: StoreLayout) -> str:
    """``pageviews`` over every published source (an empty view when there is none)."""
    files = [
        store_relative(layout, layout.pageview_source_dir(name) / "pageviews.parquet")
        for name in layout.pageview_sources()
    ]
    if not files:
        return render("catalog/pageviews_empty")
    return render("catalog/pageviews_view", files=files)


def _wikipedia_views(layout: StoreLayout) -> list[str]:
    """``wikipedia_snapshots``, ``pages``, ``revisions``, ``page_entities`` and ``evidence``."""
    dirs = [layout.wikipedia_snapshot_dir(name) for name in layout.wikipedia_names()]
    if not dirs:
        return []
    manifests = [store_relative(layout, d / "manifest.json") for d in dirs]
    views = [render("catalog/wikipedia_snapshots_view", manifests=manifests)]
    views.extend(_table_views(layout, WIKIPEDIA_TABLES, dirs))
    if layout.published_names():
        views.append(render("catalog/page_entities_view"))
    evidence = [store_relative(layout, path) for path in evidence_files(layout)]
    if evidence:
        views.append(render("catalog/evidence_view", files=evidence))
    return views


def _build_views(layout: StoreLayout, dirs: list[Path]) -> list[str]:
    """Views over the classification builds made from exactly the snapshots published now."""
    current = sorted(
        [m["name"], m["source"].get("sha256"), m.get("coverage", "full")]
        for m in (msgspec.json.decode((d / "manifest.json").read_bytes()) for d in dirs)
    )
    views = []
    wiki = evidence_wiki(layout)  # with evidence, builds get the `supported` columns
    built = evidence_snapshots(layout)
    for params_file in sorted((layout.root / "builds" / "classify").glob("*/params.json")):
        params = msgspec.json.decode(params_file.read_bytes())
        if sorted(params["snapshots"]) != current or params.get("rules") != CLASSIFY_RULES:
            continue  # a build of an earlier set of snapshots or rules: kept, not shown
        files = build_files(params_file.parent)
        if not files.parent.is_dir():
            continue  # a build of an earlier kgdiff (one result.parquet): not shown
        dates = params["init"], params["cutoff"], params["current"]
        view = classification_view(*dates, params["mode"])
        relative = store_relative(layout, files)
        if wiki is None:
            views.append(render("catalog/build_view", view=view, file=relative))
        else:
            views.append(supported_view(view, supported_select(relative, *dates, wiki, built)))
    return views


def rebuild_catalog(layout: StoreLayout) -> Path:
    """Write a fresh catalog for the snapshots published now; return its path.

    The caller holds :func:`store_lock`. The previous catalog's macros are kept when they
    are the very ones this rebuild would make (:mod:`kgdiff.store.catalog_reuse`).
    """
    target = layout.catalog
    # Temporary files (and WALs) of a killed rebuild: with the lock held, no live one has any.
    for stale in target.parent.glob(f".{target.name}.tmp-*"):
        stale.unlink(missing_ok=True)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    plan = _catalog_plan(layout)
    try:
        kept = copy_previous(target, tmp) and _fill(tmp, layout, plan)
        if not kept:
            tmp.unlink(missing_ok=True)
            _fill(tmp, layout, plan, from_copy=False)
        tmp.replace(target)
    except BaseException:
        tmp.unlink(missing_ok=True)  # never left behind half made
        raise
    return target


def _fill(tmp: Path, layout: StoreLayout, plan: CatalogPlan, from_copy: bool = True) -> bool:
    """Make the views in ``tmp``, and the macros unless it is a copy of the previous
    catalog that has them already; False, with nothing made, when it is a copy that cannot
    keep its macros or cannot be opened."""
    mark = macro_mark(plan.marked, CATALOG_STORAGE_VERSION)
    connection = duckdb.connect()
    try:
        version = quote(CATALOG_STORAGE_VERSION)
        try:
            connection.execute(f"ATTACH {quote(str(tmp))} AS catalog (STORAGE_VERSION {version})")
        except duckdb.Error:
            if from_copy:
                return False  # a damaged or foreign previous catalog: start afresh
            raise
        connection.execute("USE catalog")
        # an in-memory database has no folder to tell the root: the views bind with this one
        set_store_root(connection, layout)
        if from_copy and not keep_macros(connection, plan.marked, mark):
            return False
        made = plan.views if from_copy else [*plan.root_macros, *plan.views, *plan.macros]
        for statement in made:
            connection.execute(statement)
        if not from_copy:
            mark_macros(connection, plan.marked, mark)
        connection.execute("USE memory")
        connection.execute("DETACH catalog")
    finally:
        connection.close()
    return True
