"""The classification builds a catalog shows: those made from exactly the snapshots
published now, by the current rules (``STORE/builds/classify/<key>/params.json``).

Only published builds count: a build is written into ``.tmp-<key>-<pid>`` and appears
under its key by one rename, so the hidden folders of other processes' unfinished builds
are never read. A published build that cannot be read (a damaged ``params.json``, no
result files) is left out of the catalog with the reason (:class:`LeftOut`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import msgspec

from kgdiff.store.layout import CLASSIFY_RULES, StoreLayout, build_files, classification_view
from kgdiff.store.vetting import LeftOut, parquet_problem, wikidata_snapshots

REMAKE = "run 'kgdiff store check --repair' to remove it (asking for it again makes it anew)"


class BuildKey(msgspec.Struct):
    """What a catalog needs of a build's ``params.json`` (the rest is the build's own)."""

    init: str
    cutoff: str
    current: str
    mode: str
    snapshots: list[list[str | None]]
    """(name, source sha256, coverage) of each snapshot (two items in builds of an earlier
    kgdiff, which are never shown)."""
    rules: str | None = None


@dataclass(frozen=True)
class ShownBuild:
    """A build the catalog shows as the view ``view`` over ``files`` (a glob)."""

    view: str
    files: Path
    init: str
    cutoff: str
    current: str


def classify_builds_dir(layout: StoreLayout) -> Path:
    """``STORE/builds/classify``."""
    return layout.root / "builds" / "classify"


def published_builds(layout: StoreLayout) -> list[Path]:
    """The folders of the published builds (never the hidden ones of unfinished builds)."""
    folder = classify_builds_dir(layout)
    if not folder.is_dir():
        return []
    return sorted(
        path for path in folder.iterdir() if not path.name.startswith(".") and path.is_dir()
    )


def read_build_key(folder: Path) -> tuple[BuildKey | None, str | None]:
    """The parameters of the build in ``folder``, or why they cannot be read."""
    try:
        return msgspec.json.decode((folder / "params.json").read_bytes(), type=BuildKey), None
    except FileNotFoundError:
        return None, "it has no params.json"
    except OSError as exc:
        return None, f"its params.json cannot be read ({exc.strerror or type(exc).__name__})"
    except msgspec.DecodeError as exc:
        return None, f"its params.json is damaged ({exc})"


def result_problem(folder: Path) -> str | None:
    """Why a view cannot read the result files of the build in ``folder``, or None."""
    result = build_files(folder).parent
    parts = sorted(result.glob("*.parquet")) if result.is_dir() else []
    if not parts:
        return "it has no result files"
    problem = parquet_problem(parts[0])
    return None if problem is None else f"result/{problem}"


def build_problem(folder: Path) -> str | None:
    """Why the published build in ``folder`` cannot be shown or reused, or None."""
    key, problem = read_build_key(folder)
    return problem if key is None else result_problem(folder)


def current_snapshots(layout: StoreLayout) -> list[list[str | None]]:
    """[name, source sha256, coverage] of every snapshot the catalog shows, sorted: what
    the ``snapshots`` of a build of them hold."""
    shown, _ = wikidata_snapshots(layout)
    return sorted([m.name, m.source.sha256, m.coverage] for m in shown)


def index_builds(layout: StoreLayout) -> tuple[list[ShownBuild], list[LeftOut]]:
    """The builds of the snapshots shown now (earlier ones stay on disk, unshown), and the
    published builds left out because they cannot be read."""
    published = current_snapshots(layout)
    shown, left_out = [], []
    for folder in published_builds(layout):
        key, problem = read_build_key(folder)
        if key is not None:
            current = sorted(key.snapshots) == published
            if not current or key.rules != CLASSIFY_RULES:
                continue
            if not build_files(folder).parent.is_dir() and (folder / "result.parquet").is_file():
                continue  # a build of an earlier kgdiff (one result.parquet)
            problem = result_problem(folder)
        if problem is not None:
            where = folder.relative_to(layout.root).as_posix()
            left_out.append(LeftOut("build", folder.name, where, problem, REMAKE))
            continue
        assert key is not None
        dates = key.init, key.cutoff, key.current
        view = classification_view(*dates, key.mode)
        shown.append(ShownBuild(view, build_files(folder), *dates))
    return shown, left_out


def shown_builds(layout: StoreLayout) -> list[ShownBuild]:
    """The builds of the snapshots shown now that a view can read."""
    return index_builds(layout)[0]
