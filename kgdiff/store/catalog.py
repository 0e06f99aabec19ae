"""Build ``STORE/kg.duckdb``: views over every published snapshot, for SQL users.

The catalog is rebuilt from scratch into a temporary file and renamed over the
old one, so a ``duckdb`` shell that has the catalog open keeps a consistent
(old) view and is never blocked by, nor blocks, an ingest. It is written with an
old storage version so that the ``duckdb`` CLI installed with kgdiff (which may
be older than the Python package) can open it. Its views name their files
relative to the store root (:mod:`kgdiff.store.store_root`), so a copied or
moved store keeps working without a rebuild.

The store layer makes the views of what it holds (snapshots, their tables, Wikipedia
pages, page views) and the macros over them; the layers above contribute theirs as
*catalog parts* (the classification's macros and build views, the evidence views):
:data:`CATALOG_PARTS` names the modules, each with a ``CATALOG_PART``, in the order their
statements must run. The store names them but imports none of them with an import statement
(it loads them by name when it makes a catalog), so it depends on no layer above it.
"""

from __future__ import annotations

import fcntl
import importlib
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import duckdb

from kgdiff.sqlfiles import as_table_macro, load_sql, quote, render
from kgdiff.store.builds_index import index_builds
from kgdiff.store.catalog_reuse import (
    MARK_STATEMENTS,
    copy_previous,
    keep_macros,
    macro_mark,
    mark_macros,
)
from kgdiff.store.coverage import COVERAGE_TABLE
from kgdiff.store.delta import CHANGES_TABLE, CarryPlan, carry_plan
from kgdiff.store.layout import TABLES, WIKIPEDIA_TABLES, StoreLayout, table_sources
from kgdiff.store.manifest import Manifest
from kgdiff.store.optimizers import connect
from kgdiff.store.store_root import open_catalog, root_macros, set_store_root, store_relative
from kgdiff.store.vetting import (
    LeftOut,
    evidence_tables,
    pageview_sources,
    wikidata_snapshots,
    wikipedia_snapshots,
)
from kgdiff.store.view_reuse import make_views

LOG = logging.getLogger(__name__)
"""Warns of each published folder a rebuild leaves out (the command line prints them)."""

CATALOG_STORAGE_VERSION = "v1.0.0"
CATALOG_PARTS = ("kgdiff.temporal.catalog_part", "kgdiff.evidence.catalog_part")
"""The modules that add views and macros to a store's catalog, in the order they run (each
has a ``CATALOG_PART``; the store makes its own views and macros first)."""


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


class CatalogPart(Protocol):
    """What a layer above the store adds to the catalog."""

    def views(self, layout: StoreLayout) -> list[str]:
        """``CREATE VIEW`` statements, made after the store's views (and earlier parts')."""

    def macros(self) -> list[str]:
        """``CREATE MACRO`` statements, made after the views and the store's macros."""


def catalog_parts() -> list[CatalogPart]:
    """The parts the layers above add (:data:`CATALOG_PARTS`), in order."""
    return [importlib.import_module(name).CATALOG_PART for name in CATALOG_PARTS]


LABEL_DEFAULTS = {"label_snapshot": "NULL", "label_lang": "'en'"}


def store_macros() -> list[str]:
    """The macros over the store's own views: ``entity_labels(label_ids, label_snapshot :=
    NULL, label_lang := 'en')``, labels as of a snapshot (sql/labels/entity_labels.sql)."""
    params = ["label_ids", *LABEL_DEFAULTS]
    return [as_table_macro("labels/entity_labels", "entity_labels", params, LABEL_DEFAULTS)]


@dataclass(frozen=True)
class CatalogPlan:
    """The statements that make a catalog, in this order: the root macros (every view
    calls them), the views, then the table macros (which bind against the views); and the
    published folders it leaves out, because a view could not read them."""

    root_macros: list[str]
    views: list[str]
    macros: list[str]
    left_out: list[LeftOut] = field(default_factory=list)

    @property
    def marked(self) -> list[str]:
        """Every macro of the catalog: the set a kept catalog must hold, marked."""
        return [*self.root_macros, *self.macros]


def catalog_plan(layout: StoreLayout) -> CatalogPlan:
    """What the catalog of the snapshots, builds and sources published now is made of."""
    manifests, left_out = wikidata_snapshots(layout)
    wikipedia, wikipedia_left_out = wikipedia_snapshots(layout)
    sources, sources_left_out = pageview_sources(layout)
    left_out += wikipedia_left_out + sources_left_out
    if manifests:
        left_out += index_builds(layout)[1]
        left_out += evidence_tables(layout, [m.name for m in wikipedia])[1]
    others = [
        *_wikipedia_views(layout, wikipedia, bool(manifests)),
        _pageviews_view(layout, sources),
    ]
    if not manifests:
        views = [render("catalog/snapshots_empty"), *others, left_out_view(left_out)]
        return CatalogPlan(root_macros(), views, [], left_out)
    dirs = [layout.snapshot_dir(m.name) for m in manifests]
    paths = [store_relative(layout, d / "manifest.json") for d in dirs]
    views = [render("catalog/snapshots_view", manifests=paths)]
    plan = carry_plan({m.name: m for m in manifests}, [m.name for m in manifests if m.delta])
    views.extend(_snapshot_table_views(layout, TABLES, dirs, plan))
    coverage = _snapshot_table_views(layout, (COVERAGE_TABLE,), dirs, plan)  # subsets only
    views.extend(coverage or [render("catalog/coverage_empty")])
    views.extend(others)
    for part in catalog_parts():
        views.extend(part.views(layout))
    views.append(left_out_view(left_out))
    return CatalogPlan(root_macros(), views, table_macros(), left_out)


def left_out_view(left_out: list[LeftOut]) -> str:
    """The view ``kgdiff_left_out``: the folders this catalog leaves out, and why."""
    return render(
        "catalog/left_out_view",
        kinds=[item.kind for item in left_out],
        names=[item.name for item in left_out],
        paths=[item.path for item in left_out],
        reasons=[item.reason for item in left_out],
        fixes=[item.fix for item in left_out],
    )


def table_macros() -> list[str]:
    """The catalog's table macros, in order: the store's, then each part's."""
    return [*store_macros(), *(macro for part in catalog_parts() for macro in part.macros())]


def _table_views(layout: StoreLayout, tables: tuple[str, ...], dirs: list[Path]) -> list[str]:
    """One view per table over the snapshot folders that have it."""
    views = []
    for table in tables:
        files = [source for d in dirs for source in table_sources(layout.root, d, table)]
        if files:
            views.append(render("catalog/table_view", table=table, files=files))
    return views


TABLE_KEYS = {"statements": "subject", "qualifiers": "subject"}
"""The subject column of each snapshot table whose subject is not ``qid``."""


def _snapshot_table_views(
    layout: StoreLayout, tables: tuple[str, ...], dirs: list[Path], plan: CarryPlan
) -> list[str]:
    """One view per snapshot table: every snapshot's own rows, then, when some snapshots
    are deltas, the rows each reads from the snapshots below it (:mod:`kgdiff.store.delta`)."""
    if not plan.deltas:
        return _table_views(layout, tables, dirs)
    changes = [
        source
        for name in plan.deltas
        for source in table_sources(layout.root, layout.snapshot_dir(name), CHANGES_TABLE)
    ]
    views = []
    for table in tables:
        files = [source for d in dirs for source in table_sources(layout.root, d, table)]
        carried = [
            source
            for name in plan.layers
            for source in table_sources(layout.root, layout.snapshot_dir(name), table)
        ]
        if not carried:
            views.extend(_table_views(layout, (table,), dirs))
            continue
        views.append(
            render(
                "catalog/delta_table_view",
                table=table,
                key=TABLE_KEYS.get(table, "qid"),
                files=files,
                carried_files=carried,
                change_files=changes,
                carry_deltas=plan.carry_deltas,
                carry_layers=plan.carry_layers,
                mask_deltas=plan.mask_deltas,
                mask_layers=plan.mask_layers,
                mask_by=plan.mask_by,
            )
        )
    return views


def _pageviews_view(layout: StoreLayout, sources: list[str]) -> str:
    """``pageviews`` over the published ``sources`` (an empty view when there is none)."""
    files = [
        store_relative(layout, layout.pageview_source_dir(name) / "pageviews.parquet")
        for name in sources
    ]
    if not files:
        return render("catalog/pageviews_empty")
    return render("catalog/pageviews_view", files=files)


def _wikipedia_views(layout: StoreLayout, manifests: list[Manifest], wikidata: bool) -> list[str]:
    """``wikipedia_snapshots``, ``pages``, ``revisions`` and ``page_entities`` (with
    ``wikidata`` snapshots shown)."""
    dirs = [layout.wikipedia_snapshot_dir(m.name) for m in manifests]
    if not dirs:
        return [render("catalog/wikipedia_snapshots_empty")]
    paths = [store_relative(layout, d / "manifest.json") for d in dirs]
    views = [render("catalog/wikipedia_snapshots_view", manifests=paths)]
    views.extend(_table_views(layout, WIKIPEDIA_TABLES, dirs))
    if wikidata:
        views.append(render("catalog/page_entities_view"))
    return views


def rebuild_catalog(layout: StoreLayout) -> Path:
    """Write a fresh catalog for the snapshots published now; return its path.

    The caller holds :func:`store_lock`. The previous catalog's macros are kept when they
    are the very ones this rebuild would make (:mod:`kgdiff.store.catalog_reuse`). A
    published folder that a view cannot read is left out, recorded in the catalog's view
    ``kgdiff_left_out`` and logged as a warning (:mod:`kgdiff.store.vetting`).
    """
    target = layout.catalog
    # Temporary files (and WALs) of a killed rebuild: with the lock held, no live one has any.
    for stale in target.parent.glob(f".{target.name}.tmp-*"):
        stale.unlink(missing_ok=True)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    plan = catalog_plan(layout)
    try:
        kept = copy_previous(target, tmp) and _fill(tmp, layout, plan)
        if not kept:
            tmp.unlink(missing_ok=True)
            _fill(tmp, layout, plan, from_copy=False)
        tmp.replace(target)
    except BaseException:
        tmp.unlink(missing_ok=True)  # never left behind half made
        raise
    for item in plan.left_out:
        LOG.warning("%s", item.line)
    return target


def macros_current(layout: StoreLayout) -> bool:
    """Whether the catalog's macros are the ones this kgdiff makes: a catalog an older
    kgdiff made holds its own (e.g. a ``classify`` macro without a column added since)."""
    mark = macro_mark(catalog_plan(layout).marked, CATALOG_STORAGE_VERSION)
    with open_catalog(layout) as connection:
        objects = connection.execute(load_sql("catalog/catalog_objects")).fetchall()
    return all(comment == mark for kind, _, comment in objects if kind in MARK_STATEMENTS)


def _fill(tmp: Path, layout: StoreLayout, plan: CatalogPlan, from_copy: bool = True) -> bool:
    """Make the views in ``tmp`` (keeping those of a copy of the previous catalog that are
    the same: :mod:`kgdiff.store.view_reuse`), and the macros unless it is a copy that has
    them already; False, with nothing made, when it is a copy that cannot keep its macros or
    cannot be opened."""
    mark = macro_mark(plan.marked, CATALOG_STORAGE_VERSION)
    connection = connect()
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
        for statement in [] if from_copy else plan.root_macros:
            connection.execute(statement)
        made = make_views(connection, layout.root, plan.views, CATALOG_STORAGE_VERSION)
        LOG.debug("catalog views made: %s", " ".join(made) or "none")
        if not from_copy:
            for statement in plan.macros:
                connection.execute(statement)
            mark_macros(connection, plan.marked, mark)
        connection.execute("USE memory")
        connection.execute("DETACH catalog")
    finally:
        connection.close()
    return True
