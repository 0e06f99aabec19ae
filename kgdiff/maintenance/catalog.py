"""The catalog against the folders: it shows every published snapshot, build, Wikipedia
snapshot and page view source a view can read, nothing else, and records the folders it
leaves out as a rebuild would now (:func:`kgdiff.store.catalog.catalog_plan`). Whatever
differs, ``--repair`` mends by rebuilding it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import duckdb

from kgdiff.errors import StoreError
from kgdiff.maintenance.findings import REBUILD_CATALOG, Finding, Repair, problem
from kgdiff.sqlfiles import load_sql, render
from kgdiff.store.builds_index import shown_builds
from kgdiff.store.catalog import CatalogPlan, catalog_plan
from kgdiff.store.catalog_reuse import macro_names
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.store.vetting import (
    LEFT_OUT_VIEW,
    LeftOut,
    pageview_sources,
    wikidata_snapshots,
    wikipedia_snapshots,
)

VIEW_NAME = re.compile(r'CREATE OR REPLACE VIEW\s+"?(\w+)"?')
PAGEVIEW_SOURCE = re.compile(r"pageviews/source=([^/']+)/")
WHERE = "kg.duckdb"
FIX = "--repair rebuilds the catalog"
REBUILD = Repair(REBUILD_CATALOG)


def _found(message: str) -> Finding:
    return problem(WHERE, message, FIX, REBUILD)


class _Catalog:
    """What the catalog holds, read once."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        self.connection = connection
        objects = connection.execute(load_sql("catalog/catalog_objects")).fetchall()
        self.views = {name for kind, name, _ in objects if kind == "view"}
        self.tables = {name for kind, name, _ in objects if kind == "table"}
        self.macros = {name for kind, name, _ in objects if kind not in ("view", "table")}

    def names(self, view: str) -> set[str]:
        """The ``name`` column of ``view`` (the snapshots it lists)."""
        rows = self.connection.execute(render("maintenance/shown_names", view=view)).fetchall()
        return {str(row[0]) for row in rows}

    def view_sql(self, view: str) -> str:
        """The statement that made ``view`` ('' when there is none)."""
        found = self.connection.execute(load_sql("maintenance/view_sql"), {"view": view})
        row = found.fetchone()
        return str(row[0]) if row else ""

    def left_out(self) -> list[str]:
        """The lines of the folders it records as left out."""
        if LEFT_OUT_VIEW not in self.views:
            return []
        rows = self.connection.execute(load_sql("query/left_out")).fetchall()
        return sorted(LeftOut(*row).line for row in rows)


def check_catalog(layout: StoreLayout) -> list[Finding]:
    """How the catalog differs from what a rebuild would make of the folders now."""
    if not layout.catalog.is_file():
        if not (layout.published_names() or layout.wikipedia_names()):
            return []  # an empty store: nothing to show
        return [_found("there is no catalog")]
    plan = catalog_plan(layout)
    try:
        with open_catalog(layout) as connection:
            return list(_differences(layout, plan, _Catalog(connection)))
    except (StoreError, duckdb.Error) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return [_found(f"the catalog cannot be read ({first.replace(str(layout.root), 'STORE')})")]


def _differences(layout: StoreLayout, plan: CatalogPlan, catalog: _Catalog) -> Iterator[Finding]:
    yield from _snapshot_differences(layout, catalog)
    yield from _build_differences(layout, catalog)
    expected = {match.group(1) for view in plan.views if (match := VIEW_NAME.search(view))}
    builds = {view for view in expected | catalog.views if view.startswith("classified_")}
    for view in sorted(expected - catalog.views - builds):
        yield _found(f"it lacks the view {view}")
    for view in sorted(catalog.views - expected - builds):
        yield _found(f"it has a view {view} that kgdiff does not make (a rebuild drops it)")
    for table in sorted(catalog.tables):
        yield _found(f"it has a table {table} that kgdiff does not make (a rebuild drops it)")
    for macro in sorted(set(macro_names(plan.marked)) - catalog.macros):
        yield _found(f"it lacks the macro {macro}")
    if sorted(item.line for item in plan.left_out) != catalog.left_out():
        yield _found("its record of the folders it leaves out (kgdiff_left_out) is out of date")


def _snapshot_differences(layout: StoreLayout, catalog: _Catalog) -> Iterator[Finding]:
    """Snapshots and page view sources shown that are not there, or there and not shown."""
    kinds = [
        ("snapshot", "snapshots", {m.name for m in wikidata_snapshots(layout)[0]}),
        (
            "Wikipedia snapshot",
            "wikipedia_snapshots",
            {m.name for m in wikipedia_snapshots(layout)[0]},
        ),
    ]
    for kind, view, published in kinds:
        shown = catalog.names(view)
        yield from _compare(kind, published, shown)
    sql = catalog.view_sql("pageviews")
    yield from _compare(
        "page view source", set(pageview_sources(layout)[0]), set(PAGEVIEW_SOURCE.findall(sql))
    )


def _compare(kind: str, published: set[str], shown: set[str]) -> Iterator[Finding]:
    for name in sorted(published - shown):
        yield _found(f"it does not show the {kind} {name!r}, which is published")
    for name in sorted(shown - published):
        yield _found(f"it shows a {kind} {name!r} that is not published, or cannot be read")


def _build_differences(layout: StoreLayout, catalog: _Catalog) -> Iterator[Finding]:
    """Build views missing, and build views of no build shown now."""
    expected = {build.view: _folder(layout, build.files) for build in shown_builds(layout)}
    present = {view for view in catalog.views if view.startswith("classified_")}
    for view in sorted(set(expected) - present):
        yield _found(f"it lacks the view {view} of the build {expected[view]}")
    for view in sorted(present - set(expected)):
        yield _found(f"its view {view} shows no build of the snapshots published now")


def _folder(layout: StoreLayout, files: Path) -> str:
    return files.parent.parent.relative_to(layout.root).as_posix()
