"""Which published folders the catalog can show, and why it leaves any out.

A catalog rebuild binds every view it makes: DuckDB reads every manifest and the first
Parquet file of each view's list right then. One unreadable manifest, one table folder with
no part files (the snapshot of an empty dump, as an older kgdiff published it) or one damaged
first file would make the rebuild fail, and with it every command that publishes anything.
So the rebuild vets each folder first, with the same reads, and leaves out what fails,
saying which and why (:class:`LeftOut`). The snapshots a catalog shows are also the ones
the classification reads (:func:`wikidata_snapshots`). ``kgdiff store check`` reads every
byte; this reads what binding needs, a few small reads per folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.store.coverage import COVERAGE_TABLE
from kgdiff.store.delta import CHANGES_TABLE, manifest_sha256, pins
from kgdiff.store.layout import TABLES, WIKIPEDIA_TABLES, StoreLayout, table_files
from kgdiff.store.manifest import SUBSET, Manifest, read_manifest

PAGEVIEWS_FILE = "pageviews.parquet"
EVIDENCE_FILE = "evidence.parquet"
MEMO_SIZE = 4096
"""Files whose vetting is remembered (by inode, size and modification time)."""
LEFT_OUT_VIEW = "kgdiff_left_out"
"""The catalog's view of the folders it leaves out (``sql/catalog/left_out_view.sql``): they
change with the catalog, atomically, and whoever reads the catalog can read them."""


@dataclass(frozen=True)
class LeftOut:
    """A published folder the catalog does not show: what it is, where (relative to the
    store root), why, and what to do."""

    kind: str
    name: str
    path: str
    reason: str
    fix: str

    @property
    def line(self) -> str:
        """The one-line warning a command prints."""
        return (
            f"{self.kind} {self.name!r} ({self.path}) is left out of the catalog: "
            f"{self.reason}; {self.fix}"
        )


def parquet_problem(path: Path) -> str | None:
    """Why ``path`` is no readable Parquet file (its footer, what DuckDB reads to bind a
    view over it), or None. Remembered while the file is unchanged (inode, size, time):
    every rebuild, and every list of snapshots, asks again."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        return f"{path.name} is missing"
    except OSError as exc:
        return f"{path.name} cannot be read ({exc.strerror or type(exc).__name__})"
    return _footer_problem(path, (stat.st_ino, stat.st_size, stat.st_mtime_ns))


@lru_cache(maxsize=MEMO_SIZE)
def _footer_problem(path: Path, identity: tuple[int, int, int]) -> str | None:
    try:
        pq.read_metadata(path)
    except FileNotFoundError:
        return f"{path.name} is missing"
    except OSError as exc:
        return f"{path.name} cannot be read ({exc.strerror or type(exc).__name__})"
    except (ValueError, pa.ArrowException):
        return f"{path.name} is not a readable Parquet file (truncated or damaged)"
    return None


def manifest_problem(folder: Path) -> tuple[Manifest | None, str | None]:
    """The manifest of a published folder, or why it cannot be read (remembered while the
    file is unchanged)."""
    path = folder / "manifest.json"
    try:
        stat = path.stat()
        return _manifest(path, (stat.st_ino, stat.st_size, stat.st_mtime_ns)), None
    except OSError as exc:
        return None, f"its manifest.json cannot be read ({exc.strerror or type(exc).__name__})"
    except msgspec.DecodeError as exc:
        return None, f"its manifest.json is damaged ({exc})"


@lru_cache(maxsize=MEMO_SIZE)
def _manifest(path: Path, identity: tuple[int, int, int]) -> Manifest:
    """The manifest at ``path`` as it is (a frozen struct: safe to share)."""
    return read_manifest(path)


def tables_problem(folder: Path, tables: tuple[str, ...]) -> str | None:
    """Why one of ``tables`` of a published folder cannot be read by a view, or None."""
    for table in tables:
        files = table_files(folder, table)
        if not files:
            if (folder / table).is_dir():
                return f"its table folder {table}/ holds no part files"
            return f"it has no table {table}"
        problem = parquet_problem(files[0])
        if problem is not None:
            return f"{files[0].relative_to(folder).as_posix()}: {problem}"
    return None


def _relative(layout: StoreLayout, path: Path) -> str:
    return path.relative_to(layout.root).as_posix()


def _rm_fix(name: str) -> str:
    return f"remove it with 'kgdiff snapshots rm {name}' and ingest it again"


def _vet_snapshot(folder: Path, name: str, tables: tuple[str, ...]) -> tuple[Manifest | None, str]:
    """The manifest of a snapshot folder that a view can read, else (None, why not)."""
    manifest, problem = manifest_problem(folder)
    if manifest is None:
        return None, problem or ""
    if manifest.name != name:
        return None, f"its manifest names it {manifest.name!r}"
    needed = (*tables, COVERAGE_TABLE) if manifest.coverage == SUBSET else tables
    if manifest.delta is not None:
        needed = (*needed, CHANGES_TABLE)
    problem = tables_problem(folder, needed)
    if problem is not None:
        return None, problem
    return manifest, ""


def _snapshots(
    layout: StoreLayout,
    kind: str,
    names: list[str],
    folder_of: Callable[[str], Path],
    tables: tuple[str, ...],
) -> tuple[list[Manifest], list[LeftOut]]:
    shown, left_out = [], []
    for name in names:
        folder = folder_of(name)
        manifest, problem = _vet_snapshot(folder, name, tables)
        if manifest is None:
            left_out.append(LeftOut(kind, name, _relative(layout, folder), problem, _rm_fix(name)))
        else:
            shown.append(manifest)
    return shown, left_out


def wikidata_snapshots(layout: StoreLayout) -> tuple[list[Manifest], list[LeftOut]]:
    """The Wikidata snapshots a catalog shows (by name, the order of its views' files), and
    those it leaves out (a delta whose base is not shown, or not the one it was made on, too)."""
    shown, left_out = _snapshots(
        layout, "snapshot", layout.published_names(), layout.snapshot_dir, TABLES
    )
    return _with_bases(layout, shown, left_out)


def _with_bases(
    layout: StoreLayout, shown: list[Manifest], left_out: list[LeftOut]
) -> tuple[list[Manifest], list[LeftOut]]:
    """``shown`` without the deltas whose chain of bases is broken (added to ``left_out``)."""
    by_name = {m.name: m for m in shown}
    changed = True
    while changed:  # a delta on a delta left out is left out in the next round
        changed = False
        for manifest in list(by_name.values()):
            problem = base_problem(layout, manifest, by_name)
            if problem is not None:
                del by_name[manifest.name]
                folder = _relative(layout, layout.snapshot_dir(manifest.name))
                left_out.append(
                    LeftOut("snapshot", manifest.name, folder, problem, _base_fix(manifest))
                )
                changed = True
    return [m for m in shown if m.name in by_name], left_out


def base_problem(layout: StoreLayout, manifest: Manifest, shown: dict[str, Manifest]) -> str | None:
    """Why the delta ``manifest`` cannot read its base (None: it can, or it is no delta)."""
    delta = manifest.delta
    if delta is None:
        return None
    base = shown.get(delta.base)
    if base is None:
        return f"it is stored as a delta of {delta.base!r}, which the store does not show"
    if not pins(base, _manifest_digest(layout.snapshot_dir(base.name)), delta.base_manifest_sha256):
        return (
            f"it is stored as a delta of {delta.base!r}, which has changed since (its "
            "manifest is not the one the delta was made on)"
        )
    return None


def _manifest_digest(folder: Path) -> str:
    try:
        return manifest_sha256(folder)
    except OSError:
        return ""


def _base_fix(manifest: Manifest) -> str:
    base = manifest.delta.base if manifest.delta is not None else ""
    return (
        f"restore {base!r} as it was, or remove {manifest.name!r} with 'kgdiff snapshots rm "
        f"{manifest.name}' and run its 'kgdiff refresh' again"
    )


def wikipedia_snapshots(layout: StoreLayout) -> tuple[list[Manifest], list[LeftOut]]:
    """The Wikipedia snapshots a catalog shows (by name), and those it leaves out."""
    return _snapshots(
        layout,
        "wikipedia snapshot",
        layout.wikipedia_names(),
        layout.wikipedia_snapshot_dir,
        WIKIPEDIA_TABLES,
    )


def pageview_sources(layout: StoreLayout) -> tuple[list[str], list[LeftOut]]:
    """The page view sources a catalog shows, and those it leaves out."""
    shown, left_out = [], []
    for name in layout.pageview_sources():
        folder = layout.pageview_source_dir(name)
        problem = _pageviews_problem(folder)
        if problem is None:
            shown.append(name)
            continue
        fix = f"remove the folder {_relative(layout, folder)} and ingest the source again"
        left_out.append(LeftOut("page view source", name, _relative(layout, folder), problem, fix))
    return shown, left_out


def _pageviews_problem(folder: Path) -> str | None:
    try:
        manifest = json.loads((folder / "manifest.json").read_bytes())
    except OSError as exc:
        return f"its manifest.json cannot be read ({exc.strerror or type(exc).__name__})"
    except ValueError as exc:
        return f"its manifest.json is damaged ({exc})"
    if not isinstance(manifest, dict):
        return "its manifest.json is damaged (not a JSON object)"
    return parquet_problem(folder / PAGEVIEWS_FILE)


def evidence_tables(layout: StoreLayout, wikipedia: list[str]) -> tuple[list[Path], list[LeftOut]]:
    """The evidence tables of the Wikipedia snapshots ``wikipedia`` (those a catalog shows)
    that a view can read, and those it leaves out."""
    shown, left_out = [], []
    for name in sorted(wikipedia):
        path = layout.evidence_dir(name) / EVIDENCE_FILE
        if not path.exists():
            continue  # no evidence built for this snapshot
        problem = parquet_problem(path)
        if problem is None:
            shown.append(path)
            continue
        fix = f"run 'kgdiff evidence build {name}' to make it again"
        where = _relative(layout, path.parent)
        left_out.append(LeftOut("evidence", name, where, problem, fix))
    return shown, left_out
