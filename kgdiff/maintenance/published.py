"""Every published snapshot and page view source against its manifest.

A manifest written since issue 34 records every file of its folder (``files``: bytes,
SHA-256, rows; :mod:`kgdiff.store.inventory`): each file is hashed and compared, and a
missing file or one that is not in the manifest is found. An earlier manifest has no such
record: its tables are decoded whole (a damaged page fails) and their rows counted, and the
check says once that it could do no more. Either way the rows of each table must be the
manifest's ``counts``. Nothing here changes a published folder: the fix of any damage is to
remove the snapshot and ingest it again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from kgdiff.maintenance.findings import Finding, damage, note
from kgdiff.maintenance.reading import Meter, parquet_rows, unreadable
from kgdiff.store.coverage import COVERAGE_TABLE
from kgdiff.store.delta import CHANGES_TABLE, manifest_sha256, pins
from kgdiff.store.inventory import FileRecord, folder_files, sha256_of
from kgdiff.store.layout import TABLES, WIKIPEDIA_TABLES, StoreLayout, table_files
from kgdiff.store.manifest import SUBSET, Manifest
from kgdiff.store.vetting import PAGEVIEWS_FILE, manifest_problem

COUNTED_AS = {COVERAGE_TABLE: "covered"}
"""The manifest's name of a table's row count, where it is not the table's own."""


@dataclass(frozen=True)
class Published:
    """A published folder: what it is, its name, its folder, the tables it must hold."""

    kind: str
    name: str
    folder: Path
    tables: tuple[str, ...]

    @property
    def fix(self) -> str:
        """What to do when it is damaged."""
        if self.kind == "page view source":
            return f"remove the folder and ingest the source again ({REPAIR_NEVER})"
        return (
            f"remove it with 'kgdiff snapshots rm {self.name}' and ingest it again ({REPAIR_NEVER})"
        )


REPAIR_NEVER = "--repair never changes a published snapshot"


def published_folders(layout: StoreLayout) -> list[Published]:
    """Every published Wikidata and Wikipedia snapshot and page view source."""
    found = [
        Published("snapshot", name, layout.snapshot_dir(name), TABLES)
        for name in layout.published_names()
    ]
    found += [
        Published("Wikipedia snapshot", name, layout.wikipedia_snapshot_dir(name), WIKIPEDIA_TABLES)
        for name in layout.wikipedia_names()
    ]
    found += [
        Published("page view source", name, layout.pageview_source_dir(name), ())
        for name in layout.pageview_sources()
    ]
    return found


def unpublished_folders(layout: StoreLayout) -> Iterator[Finding]:
    """Folders among the published ones that have no manifest (never published by kgdiff,
    which renames a folder in whole, manifest written: copied, or left by hand)."""
    for parent, prefix in (
        (layout.snapshots_dir, "snapshot="),
        (layout.wikipedia_dir, "snapshot="),
        (layout.pageviews_dir, "source="),
    ):
        if not parent.is_dir():
            continue
        for folder in sorted(parent.iterdir()):
            if folder.name.startswith(prefix) and not (folder / "manifest.json").exists():
                where = folder.relative_to(layout.root).as_posix()
                yield damage(
                    where,
                    "a folder without manifest.json among the published ones (not made by kgdiff)",
                    "move it out of the store if it is yours, else remove it",
                )


def total_bytes(folders: list[Published]) -> int:
    """The bytes a check of ``folders`` reads."""
    return sum(path.stat().st_size for item in folders for path in folder_files(item.folder))


def check_published(layout: StoreLayout, folders: list[Published], meter: Meter) -> list[Finding]:
    """Damage in ``folders``, one finding per damaged file or count; a note when some
    were published without checksums."""
    findings: list[Finding] = list(unpublished_folders(layout))
    unrecorded = []
    for item in folders:
        manifest, problem = _manifest(item)
        where = item.folder.relative_to(layout.root).as_posix()
        if manifest is None:
            findings.append(damage(f"{where}/manifest.json", problem, item.fix))
            continue
        records = manifest.get("files")
        if records is None:
            unrecorded.append(item.name)
            found = list(_decoded(item, where, meter))
        else:
            found = list(_against_records(item, where, records, meter))
        found += _counts(item, where, manifest)
        found += _base_reference(layout, item, where)
        findings += found
    if unrecorded:
        names = ", ".join(unrecorded)
        findings.append(
            note(
                "snapshots",
                f"{len(unrecorded)} snapshot(s) published by an earlier kgdiff ({names}) record"
                " no checksums:"
                " checked by their row counts and by decoding every page only",
                "ingest them again for checksums, if you wish",
            )
        )
    return findings


def _manifest(item: Published) -> tuple[dict[str, Any] | None, str]:
    """The manifest as plain JSON values (the Wikidata and Wikipedia ones also decoded as
    :class:`~kgdiff.store.manifest.Manifest`), or why it cannot be read."""
    if item.kind != "page view source":
        manifest, problem = manifest_problem(item.folder)
        if manifest is None:
            return None, problem or "its manifest cannot be read"
        if manifest.name != item.name:
            return None, f"its manifest names it {manifest.name!r}"
        return msgspec.to_builtins(manifest), ""
    try:
        data = json.loads((item.folder / "manifest.json").read_bytes())
    except OSError as exc:
        return None, f"its manifest cannot be read ({exc.strerror or type(exc).__name__})"
    except ValueError as exc:
        return None, f"its manifest is damaged ({exc})"
    return (data, "") if isinstance(data, dict) else (None, "its manifest is not a JSON object")


def _against_records(
    item: Published, where: str, records: dict[str, Any], meter: Meter
) -> Iterator[Finding]:
    """Each file against its record: present, of its size, hash and rows; no other file."""
    present = {path.relative_to(item.folder).as_posix(): path for path in folder_files(item.folder)}
    for relative, raw in sorted(records.items()):
        record = msgspec.convert(raw, FileRecord)
        path = present.pop(relative, None)
        message = _record_problem(path, record, meter) if path is not None else "it is missing"
        if message is not None:
            yield damage(f"{where}/{relative}", message, item.fix)
        meter.file_done(message is not None)
    for relative, path in sorted(present.items()):
        meter.read(path.stat().st_size)
        yield damage(
            f"{where}/{relative}", "it is not in the manifest (it does not belong)", item.fix
        )


def _record_problem(path: Path, record: FileRecord, meter: Meter) -> str | None:
    size = path.stat().st_size
    if size != record.bytes:
        meter.read(size)
        return f"it has {size:,} bytes, the manifest {record.bytes:,} (truncated or overwritten)"
    sha256, _ = sha256_of(path, meter.read)
    if sha256 != record.sha256:
        return "its SHA-256 is not the manifest's (a byte changed since it was published)"
    if record.rows is not None and parquet_rows(path) != record.rows:
        return f"it does not hold the {record.rows:,} rows of the manifest"
    return None


def _decoded(item: Published, where: str, meter: Meter) -> Iterator[Finding]:
    """Each table file decoded whole (no checksums to compare with)."""
    for path in _table_paths(item):
        relative = path.relative_to(item.folder).as_posix()
        problem = unreadable(path, meter)
        if problem is not None:
            yield damage(f"{where}/{relative}", problem, item.fix)
        meter.file_done(problem is not None)


def _table_paths(item: Published) -> list[Path]:
    if item.kind == "page view source":
        return [item.folder / PAGEVIEWS_FILE]
    tables = (*item.tables, COVERAGE_TABLE)
    return [path for table in tables for path in table_files(item.folder, table)]


def _counts(item: Published, where: str, manifest: dict[str, Any]) -> list[Finding]:
    """The rows of each table against the manifest's counts (a delta's: those it stores)."""
    delta = manifest.get("delta")
    counts = (delta.get("stored") if delta else manifest.get("counts")) or {}
    expected: dict[str, Any] = {}
    if item.kind == "page view source":
        expected[PAGEVIEWS_FILE] = counts.get("rows_written")
    else:
        expected = {table: counts.get(table) for table in item.tables}
        if manifest.get("coverage") == SUBSET:
            expected[COVERAGE_TABLE] = counts.get(COUNTED_AS[COVERAGE_TABLE])
        if delta:
            expected[CHANGES_TABLE] = counts.get(CHANGES_TABLE)
    findings = []
    for table, count in expected.items():
        files = (
            [item.folder / table] if table == PAGEVIEWS_FILE else table_files(item.folder, table)
        )
        if not files:
            empty = (item.folder / table).is_dir()
            message = "its folder holds no part files" if empty else "the table is missing"
            findings.append(damage(f"{where}/{table}", message, item.fix))
            continue
        rows = [parquet_rows(path) for path in files]
        if count is None or None in rows:
            continue  # an unreadable file is reported as such; no count recorded
        if sum(r or 0 for r in rows) != count:
            message = f"it holds {sum(r or 0 for r in rows):,} rows, the manifest counts {count:,}"
            findings.append(damage(f"{where}/{table}", message, item.fix))
    return findings


def _base_reference(layout: StoreLayout, item: Published, where: str) -> list[Finding]:
    """A delta's base: published, readable, and the very one it was made on."""
    if item.kind != "snapshot":
        return []
    manifest, _ = manifest_problem(item.folder)
    delta = manifest.delta if manifest is not None else None
    if delta is None:
        return []
    base_folder = layout.snapshot_dir(delta.base)
    base, problem = manifest_problem(base_folder)
    fix = (
        f"restore {delta.base!r} as it was, or remove {item.name!r} ('kgdiff snapshots rm "
        f"{item.name}') and run its 'kgdiff refresh' again ({REPAIR_NEVER})"
    )
    if base is None:
        what = "is not in the store" if not base_folder.exists() else f"cannot be read: {problem}"
        return [damage(where, f"it is stored as a delta of {delta.base!r}, which {what}", fix)]
    if not _pinned(base, base_folder, delta.base_manifest_sha256):
        message = (
            f"it is stored as a delta of {delta.base!r}, whose manifest is not the one it was "
            "made on (its SHA-256 differs: the base changed since)"
        )
        return [damage(where, message, fix)]
    return []


def _pinned(base: Manifest, folder: Path, pinned: str) -> bool:
    try:
        return pins(base, manifest_sha256(folder), pinned)
    except OSError:
        return False
