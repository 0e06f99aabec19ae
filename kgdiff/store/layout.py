"""Where things live in a store directory.

::

    STORE/kg.duckdb                          catalog of views (rebuilt atomically)
    STORE/snapshots/snapshot=NAME/           one published snapshot (never modified)
        manifest.json  rejects.jsonl
        entities/  labels/  sitelinks/  statements/  qualifiers/
            part-00000.parquet ...               sorted by subject across the files, in order
    STORE/wikipedia/snapshot=NAME/           one published Wikipedia snapshot (never modified)
        manifest.json  pages.parquet  revisions.parquet
    STORE/builds/evidence/NAME/              mentions found in Wikipedia snapshot NAME
    STORE/pageviews/source=NAME/             one published page view source
        manifest.json  pageviews.parquet
    STORE/.staging/NAME/                     an ingest in progress (resumable)

The ``snapshot=NAME`` folders are Hive-style partitions, so DuckDB and Spark
both read the ``snapshot`` column straight from the paths.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from kgdiff.errors import UsageError

DEFAULT_STORE = "kgdiff-data"
STORE_ENV = "KGDIFF_STORE"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
GLOB_CHARACTER = re.compile(r"([*?\[{}])")
TABLES = ("entities", "labels", "sitelinks", "statements", "qualifiers")
WIKIPEDIA_TABLES = ("pages", "revisions")


def table_files(directory: Path, table: str) -> list[Path]:
    """The Parquet files of ``table`` in a published folder, in order.

    Snapshot tables are folders of ``part-NNNNN.parquet`` files, each covering a range of
    subjects; a table written as one ``TABLE.parquet`` (Wikipedia snapshots, and Wikidata
    snapshots from earlier kgdiff builds) is a list of that one file.
    """
    folder = directory / table
    if folder.is_dir():
        return sorted(folder.glob("part-*.parquet"))
    single = directory / f"{table}.parquet"
    return [single] if single.is_file() else []


def table_sources(root: Path, directory: Path, table: str) -> list[str]:
    """What the catalog's views read for ``table`` in a published folder, relative to the
    store ``root``: one glob over its part files (a short view, however many files a full
    dump has), or its one ``TABLE.parquet``. (The catalog escapes the glob characters of
    the root itself: ``sql/catalog/store_files_macro.sql``.)"""
    if (directory / table).is_dir():
        return [(directory / table).relative_to(root).as_posix() + "/part-*.parquet"]
    return [path.relative_to(root).as_posix() for path in table_files(directory, table)]


def check_name(name: str, what: str) -> str:
    """Return ``name`` if it can name a folder of the store, else raise :class:`UsageError`
    (``what`` names the value in the message, e.g. ``snapshot name`` or ``--source``)."""
    if not NAME_PATTERN.fullmatch(name):
        raise UsageError(
            f"{what} {name!r} is not allowed: use letters, digits, '.', '_' and '-' "
            "(at most 100 characters, starting with a letter or digit)"
        )
    return name


def check_snapshot_name(name: str) -> str:
    """Return ``name`` if it can name a snapshot, else raise :class:`UsageError`."""
    return check_name(name, "snapshot name")


def classification_view(init: str, cutoff: str, current: str, mode: str) -> str:
    """Catalog view of a classification build: ``classified_<init>_<cutoff>_<current>_<mode>``."""
    days = "_".join(day.replace("-", "") for day in (init, cutoff, current))
    return f"classified_{days}_{mode}"


def duckdb_glob(pattern: Path) -> str:
    """``pattern`` (a folder, then a glob over its files: a build's ``result/*.parquet``) as
    DuckDB reads it: the glob characters of the folder escaped as one-character classes
    (``[`` as ``[[]``), so a store under any folder name is read literally, as the catalog
    reads its root (``sql/catalog/store_files_macro.sql``)."""
    return GLOB_CHARACTER.sub(r"[\1]", str(pattern.parent)) + "/" + pattern.name


CLASSIFY_RULES = "change-nature"
"""The version of the classification's rules and columns, recorded in every build's
parameters (and its key): builds by earlier rules are neither reused nor shown."""


def build_files(build: Path) -> Path:
    """The Parquet files of a classification build folder, as a glob ``read_parquet`` reads."""
    return build / "result" / "*.parquet"


def _names_in(folder: Path, prefix: str = "snapshot=") -> list[str]:
    """Names of the published ``prefix``NAME folders (those with a manifest) in ``folder``."""
    if not folder.is_dir():
        return []
    names = [
        path.name.removeprefix(prefix)
        for path in folder.iterdir()
        if path.name.startswith(prefix) and (path / "manifest.json").is_file()
    ]
    return sorted(names)


@dataclass(frozen=True)
class StoreLayout:
    """Paths of one store directory (always absolute)."""

    root: Path

    @classmethod
    def resolve(cls, store: str | Path | None) -> StoreLayout:
        """The store from ``--store``, else ``$KGDIFF_STORE``, else ``./kgdiff-data``; a
        usage error where that path is a file (every command would otherwise call it a store
        with no snapshots, or fail on a path inside it)."""
        chosen = store or os.environ.get(STORE_ENV) or DEFAULT_STORE
        root = Path(chosen).expanduser().resolve()
        if root.exists() and not root.is_dir():
            raise UsageError(
                f"store {root} is a file, not a folder: give --store (or ${STORE_ENV}) the "
                "folder the store is in, or one to make it in"
            )
        return cls(root)

    @property
    def catalog(self) -> Path:
        return self.root / "kg.duckdb"

    @property
    def snapshots_dir(self) -> Path:
        return self.root / "snapshots"

    @property
    def staging_dir(self) -> Path:
        return self.root / ".staging"

    @property
    def lock_file(self) -> Path:
        return self.root / ".lock"

    def snapshot_dir(self, name: str) -> Path:
        """Folder of the published snapshot ``name``."""
        return self.snapshots_dir / f"snapshot={check_snapshot_name(name)}"

    def staging(self, name: str) -> Path:
        """Work folder of an in-progress ingest of ``name``."""
        return self.staging_dir / check_snapshot_name(name)

    @property
    def wikipedia_dir(self) -> Path:
        return self.root / "wikipedia"

    def wikipedia_snapshot_dir(self, name: str) -> Path:
        """Folder of the published Wikipedia snapshot ``name``."""
        return self.wikipedia_dir / f"snapshot={check_snapshot_name(name)}"

    def evidence_dir(self, name: str) -> Path:
        """Folder of the evidence build of Wikipedia snapshot ``name``."""
        return self.root / "builds" / "evidence" / check_snapshot_name(name)

    def published_names(self) -> list[str]:
        """Names of the published Wikidata snapshots, sorted."""
        return _names_in(self.snapshots_dir)

    @property
    def pageviews_dir(self) -> Path:
        return self.root / "pageviews"

    def pageview_source_dir(self, name: str) -> Path:
        """Folder of the published page view source ``name``."""
        return self.pageviews_dir / f"source={name}"

    def pageview_sources(self) -> list[str]:
        """Names of the published page view sources, sorted."""
        return _names_in(self.pageviews_dir, prefix="source=")

    def wikipedia_names(self) -> list[str]:
        """Names of the published Wikipedia snapshots, sorted."""
        return _names_in(self.wikipedia_dir)

    def ensure(self) -> None:
        """Create the store folders if needed."""
        self.snapshots_dir.mkdir(parents=True, exist_ok=True)
        self.staging_dir.mkdir(parents=True, exist_ok=True)
