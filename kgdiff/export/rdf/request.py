"""What ``kgdiff export rdf`` is asked for, checked before any work: the formats, the
snapshots, the classification's dates and mode, the entities, the output's folder."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from kgdiff.errors import UsageError
from kgdiff.export.rdf.entity_order import RANGE_ENTITIES
from kgdiff.export.rdf.gzipped import is_gzip_name
from kgdiff.store.layout import StoreLayout

FORMATS = ("nt", "ttl", "nq", "trig")
QUADS = ("nq", "trig")
"""Formats with named graphs: one per snapshot, one for the classification."""
SUBSET_FORMATS = ("ttl", "trig")
"""Formats written through rdflib, in memory: for a few entities."""
CLASSIFICATION_MODES = ("record", "valid")


@dataclass(frozen=True)
class RdfRequest:
    """What to export: snapshots (comma-separated; None: those the classification reads),
    where, in which format, which entities, truthy only, and a classification to add."""

    snapshot: str | None
    out: Path
    format: str = "nt"
    entities: list[str] | None = None
    truthy: bool = False
    range_entities: int = RANGE_ENTITIES
    """Entities read per subject range (memory is bounded by a range's rows)."""
    classification: str | None = None
    """``INIT,CUTOFF,CURRENT`` (YYYY-MM-DD each): also write that classification."""
    mode: str = "record"

    @property
    def snapshots(self) -> list[str]:
        """The snapshots named by :attr:`snapshot`."""
        return [name.strip() for name in (self.snapshot or "").split(",") if name.strip()]


@dataclass(frozen=True)
class RdfResult:
    """What was written."""

    path: Path
    triples: int


def classification_days(text: str) -> tuple[date, date, date]:
    """``INIT,CUTOFF,CURRENT`` as three dates (their order is checked with the store, as
    every face checks it: :mod:`kgdiff.temporal.window`)."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 3:
        raise UsageError(
            f"--classification {text!r}: give three dates INIT,CUTOFF,CURRENT (YYYY-MM-DD)"
        )
    days = []
    for role, part in zip(("init", "cutoff", "current"), parts, strict=True):
        try:
            days.append(date.fromisoformat(part))
        except ValueError as exc:
            raise UsageError(
                f"--classification: the {role} date {part!r} is not a date; write YYYY-MM-DD"
            ) from exc
    return days[0], days[1], days[2]


def _check_format(request: RdfRequest) -> None:
    fmt = request.format
    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r} is not one of {', '.join(FORMATS)}")
    if request.classification and fmt not in QUADS:
        raise UsageError(
            f"--classification is written in named graphs, which {fmt} cannot hold: "
            "use --format nq or --format trig"
        )
    if len(request.snapshots) > 1 and fmt not in QUADS:
        raise UsageError(f"several snapshots need named graphs: use --format nq or trig, not {fmt}")
    if fmt in SUBSET_FORMATS and is_gzip_name(request.out):
        raise UsageError(
            f"--out {request.out}: Turtle and TriG are written uncompressed, for a few entities;"
            f" name it {request.out.with_suffix('').name} (or write nt or nq, which can be .gz)"
        )
    if fmt in SUBSET_FORMATS and not request.entities:
        name = "Turtle" if fmt == "ttl" else "TriG"
        raise UsageError(
            f"{name} is written for a few entities: give --entities, or use --format "
            f"{'nt' if fmt == 'ttl' else 'nq'}"
        )


def check_request(layout: StoreLayout, request: RdfRequest) -> None:
    """Refuse what cannot be done, before any work."""
    _check_format(request)
    if request.classification:
        classification_days(request.classification)
        if request.mode not in CLASSIFICATION_MODES:
            raise UsageError(f"--mode {request.mode!r} is not one of record, valid")
    elif not request.snapshots:
        raise UsageError("give --snapshot (or --classification, to export what it reads)")
    if not request.out.parent.is_dir():
        raise UsageError(f"--out {request.out}: folder {request.out.parent} does not exist")


def check_snapshots(layout: StoreLayout, names: list[str]) -> list[Path]:
    """The folders of the snapshots ``names`` (a usage error for one the store lacks)."""
    folders = []
    for name in names:
        folder = layout.snapshot_dir(name)
        if not (folder / "manifest.json").is_file():
            raise UsageError(
                f"no snapshot {name!r} in {layout.root}; `kgdiff snapshots` lists them"
            )
        folders.append(folder)
    return folders
