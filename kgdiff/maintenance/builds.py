"""The store's builds: classifications, evidence tables and staleness curves.

Each is made from the snapshots and made again when asked for, so one that cannot be read
is a problem ``--repair`` mends by removing it (unpublished under the store lock). A
classification build must have a readable ``params.json`` and result files that decode;
builds of earlier snapshot sets or rules are not shown and nothing reads them: a note.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec

from kgdiff.maintenance.findings import UNPUBLISH, Finding, Repair, note, problem
from kgdiff.maintenance.reading import Meter, unreadable
from kgdiff.store.builds_index import current_snapshots, published_builds, read_build_key
from kgdiff.store.layout import CLASSIFY_RULES, StoreLayout, build_files
from kgdiff.store.vetting import EVIDENCE_FILE, wikipedia_snapshots

REMADE = "--repair removes it; kgdiff makes it again when it is asked for"
EVIDENCE_REMADE = "--repair removes it; make it again with 'kgdiff evidence build {name}'"


def build_bytes(layout: StoreLayout) -> int:
    """The bytes a check of the builds reads."""
    return sum(path.stat().st_size for path in _build_files(layout))


def _build_files(layout: StoreLayout) -> Iterator[Path]:
    for folder in published_builds(layout):
        yield from sorted(build_files(folder).parent.glob("*.parquet"))
    for folder in _evidence_folders(layout):
        if (folder / EVIDENCE_FILE).is_file():
            yield folder / EVIDENCE_FILE
    yield from _curves(layout)


def check_builds(layout: StoreLayout, meter: Meter) -> list[Finding]:
    """Builds that cannot be read (a problem each) and a note of the unshown ones."""
    findings: list[Finding] = []
    current = current_snapshots(layout)
    unshown = 0
    for folder in published_builds(layout):
        found, shown = _classify_build(layout, folder, current, meter)
        findings += found
        unshown += not shown and not found
    findings += _evidence(layout, meter)
    findings += _staleness(layout, meter)
    if unshown:
        findings.append(
            note(
                "builds/classify",
                f"{unshown} build(s) of earlier snapshot sets or rules are not shown and"
                " nothing reads them",
                "they take disk space only",
            )
        )
    return findings


def _unpublish(layout: StoreLayout, folder: Path) -> Repair:
    return Repair(UNPUBLISH, folder.relative_to(layout.root).as_posix(), folder.stat().st_ino)


def _classify_build(
    layout: StoreLayout, folder: Path, current: list[list[str | None]], meter: Meter
) -> tuple[list[Finding], bool]:
    """A classification build's problems, and whether the catalog shows it."""
    where = folder.relative_to(layout.root).as_posix()
    key, trouble = read_build_key(folder)
    if key is None:
        return [problem(where, trouble or "", REMADE, _unpublish(layout, folder))], False
    parts = sorted(build_files(folder).parent.glob("*.parquet"))
    if not parts:
        if (folder / "result.parquet").is_file():
            return [], False  # a build of an earlier kgdiff: never shown
        return [problem(where, "it has no result files", REMADE, _unpublish(layout, folder))], False
    found = []
    for part in parts:
        trouble = unreadable(part, meter)
        meter.file_done(trouble is not None)
        if trouble is not None:
            message = f"{part.relative_to(folder).as_posix()}: {trouble}"
            found.append(problem(where, message, REMADE, _unpublish(layout, folder)))
            break  # the build goes whole
    shown = sorted(key.snapshots) == current and key.rules == CLASSIFY_RULES
    return found, shown


def _evidence_folders(layout: StoreLayout) -> list[Path]:
    folder = layout.root / "builds" / "evidence"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def _evidence(layout: StoreLayout, meter: Meter) -> Iterator[Finding]:
    """Evidence tables of the published Wikipedia snapshots that cannot be read."""
    shown = {m.name for m in wikipedia_snapshots(layout)[0]}
    for folder in _evidence_folders(layout):
        if folder.name not in shown:
            continue  # of a snapshot removed or left out: never read
        where = folder.relative_to(layout.root).as_posix()
        fix = EVIDENCE_REMADE.format(name=folder.name)
        try:
            msgspec.json.decode((folder / "params.json").read_bytes())
            trouble = unreadable(folder / EVIDENCE_FILE, meter)
            trouble = None if trouble is None else f"{EVIDENCE_FILE}: {trouble}"
        except (OSError, msgspec.DecodeError):
            trouble = "its params.json cannot be read"
        meter.file_done(trouble is not None)
        if trouble is not None:
            yield problem(where, trouble, fix, _unpublish(layout, folder))


def _curves(layout: StoreLayout) -> list[Path]:
    folder = layout.root / "builds" / "staleness"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.parquet") if not p.name.startswith("."))


def _staleness(layout: StoreLayout, meter: Meter) -> Iterator[Finding]:
    """Staleness curves that cannot be read."""
    for path in _curves(layout):
        trouble = unreadable(path, meter)
        meter.file_done(trouble is not None)
        if trouble is not None:
            where = path.relative_to(layout.root).as_posix()
            yield problem(where, trouble, REMADE, _unpublish(layout, path))
