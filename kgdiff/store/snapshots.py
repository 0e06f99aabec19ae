"""List, show and remove published snapshots."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kgdiff.errors import StoreError
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.delta import dependents
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import Manifest
from kgdiff.store.vetting import (
    LeftOut,
    manifest_problem,
    wikidata_snapshots,
    wikipedia_snapshots,
)


def list_snapshots(layout: StoreLayout) -> list[Manifest]:
    """Manifests of every published snapshot the catalog shows (one it cannot read is left
    out: :func:`left_out_snapshots`), by date then name."""
    return sorted(wikidata_snapshots(layout)[0], key=lambda m: (m.date, m.name))


def list_wikipedia_snapshots(layout: StoreLayout) -> list[Manifest]:
    """Manifests of every published Wikipedia snapshot the catalog shows, by date then name."""
    return sorted(wikipedia_snapshots(layout)[0], key=lambda m: (m.date, m.name))


def left_out_snapshots(layout: StoreLayout) -> list[LeftOut]:
    """The published Wikidata and Wikipedia snapshots the catalog leaves out, and why."""
    return wikidata_snapshots(layout)[1] + wikipedia_snapshots(layout)[1]


def snapshot_folder(layout: StoreLayout, name: str) -> Path:
    """The folder of the Wikidata or Wikipedia snapshot ``name`` (a store error if none)."""
    for folder in (layout.snapshot_dir(name), layout.wikipedia_snapshot_dir(name)):
        if (folder / "manifest.json").is_file():
            return folder
    known = ", ".join(layout.published_names() + layout.wikipedia_names()) or "none"
    raise StoreError(f"no snapshot named {name!r} in {layout.root} (known: {known})")


def get_snapshot(layout: StoreLayout, name: str) -> Manifest:
    """The manifest of snapshot ``name`` (raises :class:`StoreError` if there is none, or
    if it cannot be read)."""
    manifest, problem = manifest_problem(snapshot_folder(layout, name))
    if manifest is None:
        raise StoreError(
            f"snapshot {name!r}: {problem}; remove it with 'kgdiff snapshots rm {name}' "
            "and ingest it again"
        )
    return manifest


def published_manifests(layout: StoreLayout) -> list[Manifest]:
    """The manifests of every published Wikidata snapshot that can be read (shown or not)."""
    found = (manifest_problem(layout.snapshot_dir(name))[0] for name in layout.published_names())
    return [manifest for manifest in found if manifest is not None]


def refuse_needed_base(layout: StoreLayout, name: str) -> None:
    """A :class:`StoreError` when snapshots stored as deltas of ``name`` need it."""
    needing = dependents(published_manifests(layout), name)
    if needing:
        listed = ", ".join(repr(other) for other in needing)
        first = needing[0]
        raise StoreError(
            f"snapshot {name!r} is the base of {listed} (stored as deltas of it); rewrite "
            f"each whole first ('kgdiff snapshots compact {first}') or remove it"
        )


def remove_snapshot(layout: StoreLayout, name: str) -> None:
    """Unpublish ``name`` atomically (catalog first consistent without it), then delete it.
    A base that deltas need is refused (:func:`refuse_needed_base`)."""
    folder = snapshot_folder(layout, name)
    layout.ensure()
    trash = layout.staging_dir / f".trash-{name}-{os.getpid()}"
    with store_lock(layout):
        refuse_needed_base(layout, name)
        folder.rename(trash)
        rebuild_catalog(layout)
    shutil.rmtree(trash, ignore_errors=True)


def refresh_catalog(layout: StoreLayout) -> None:
    """Rebuild ``kg.duckdb`` (e.g. after moving the store folder)."""
    layout.ensure()
    with store_lock(layout):
        rebuild_catalog(layout)
