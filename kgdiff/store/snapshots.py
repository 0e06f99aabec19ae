"""List, show and remove published snapshots."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kgdiff.errors import StoreError
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import Manifest, read_manifest


def list_snapshots(layout: StoreLayout) -> list[Manifest]:
    """Manifests of every published snapshot, by date then name."""
    manifests = [
        read_manifest(layout.snapshot_dir(name) / "manifest.json")
        for name in layout.published_names()
    ]
    return sorted(manifests, key=lambda m: (m.date, m.name))


def list_wikipedia_snapshots(layout: StoreLayout) -> list[Manifest]:
    """Manifests of every published Wikipedia snapshot, by date then name."""
    manifests = [
        read_manifest(layout.wikipedia_snapshot_dir(name) / "manifest.json")
        for name in layout.wikipedia_names()
    ]
    return sorted(manifests, key=lambda m: (m.date, m.name))


def snapshot_folder(layout: StoreLayout, name: str) -> Path:
    """The folder of the Wikidata or Wikipedia snapshot ``name`` (a store error if none)."""
    for folder in (layout.snapshot_dir(name), layout.wikipedia_snapshot_dir(name)):
        if (folder / "manifest.json").is_file():
            return folder
    known = ", ".join(layout.published_names() + layout.wikipedia_names()) or "none"
    raise StoreError(f"no snapshot named {name!r} in {layout.root} (known: {known})")


def get_snapshot(layout: StoreLayout, name: str) -> Manifest:
    """The manifest of snapshot ``name`` (raises :class:`StoreError` if there is none)."""
    return read_manifest(snapshot_folder(layout, name) / "manifest.json")


def remove_snapshot(layout: StoreLayout, name: str) -> None:
    """Unpublish ``name`` atomically (catalog first consistent without it), then delete it."""
    folder = snapshot_folder(layout, name)
    layout.ensure()
    trash = layout.staging_dir / f".trash-{name}-{os.getpid()}"
    with store_lock(layout):
        folder.rename(trash)
        rebuild_catalog(layout)
    shutil.rmtree(trash, ignore_errors=True)


def refresh_catalog(layout: StoreLayout) -> None:
    """Rebuild ``kg.duckdb`` (e.g. after moving the store folder)."""
    layout.ensure()
    with store_lock(layout):
        rebuild_catalog(layout)
