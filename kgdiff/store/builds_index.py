"""The classification builds a catalog shows: those made from exactly the snapshots
published now, by the current rules (``STORE/builds/classify/<key>/params.json``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import msgspec

from kgdiff.store.layout import CLASSIFY_RULES, StoreLayout, build_files, classification_view


@dataclass(frozen=True)
class ShownBuild:
    """A build the catalog shows as the view ``view`` over ``files`` (a glob)."""

    view: str
    files: Path
    init: str
    cutoff: str
    current: str


def shown_builds(layout: StoreLayout) -> list[ShownBuild]:
    """The builds of the snapshots published now (earlier ones stay on disk, unshown)."""
    published = _published_snapshots(layout)
    shown = []
    for params_file in sorted((layout.root / "builds" / "classify").glob("*/params.json")):
        params = msgspec.json.decode(params_file.read_bytes())
        if sorted(params["snapshots"]) != published or params.get("rules") != CLASSIFY_RULES:
            continue
        files = build_files(params_file.parent)
        if not files.parent.is_dir():
            continue  # a build of an earlier kgdiff (one result.parquet)
        dates = params["init"], params["cutoff"], params["current"]
        view = classification_view(*dates, params["mode"])
        shown.append(ShownBuild(view, files, *dates))
    return shown


def _published_snapshots(layout: StoreLayout) -> list[list[str | None]]:
    """[name, source sha256, coverage] of every published snapshot, sorted."""
    manifests = (
        msgspec.json.decode((layout.snapshot_dir(name) / "manifest.json").read_bytes())
        for name in layout.published_names()
    )
    return sorted(
        [m["name"], m["source"].get("sha256"), m.get("coverage", "full")] for m in manifests
    )
