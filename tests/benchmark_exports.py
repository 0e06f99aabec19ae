"""Exports of the real samples that the benchmark tests share (made once per session)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import orjson

import kgdiff
from kgdiff.export.benchmark import BenchmarkExport, export_benchmark
from kgdiff.export.core.benchmark_model import BenchmarkRequest
from kgdiff.export.relations.catalogue import dump_catalogue, shipped_catalogue
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.temporal.dates import GapPolicy

CUTOFF = date(2014, 10, 11)
SPLITS = ("stable", "evolved", "uncharted")
SAMPLES_WINDOW: dict[str, Any] = {
    "init": date(2013, 12, 21),
    "cutoff": date(2013, 12, 25),
    "current": date(2014, 10, 11),
    "gap": GapPolicy(allow=True),
}
"""The dates of the first two real dumps (the blind reads' `samples` export), whose ``qa``
has records in every split (at the default dates, the one uncharted group, the Black Sea's
countries, is left out: one of them, Abkhazia, has no English label)."""


def websites_asked(folder: Path, sequences: bool = False) -> Path:
    """A relation catalogue file over the shipped one that asks about official websites
    (P856) again: the shipped one keeps their wording but does not ask them (an address gives
    itself away), and the rules on answers that spell their subject are read on them.
    ``sequences``: also what comes before and after a number, weekday or month (P155, P156),
    which the shipped one does not ask of them (counting, not knowledge), so that the wording
    and the distractors of such items are read on the samples, which have no other."""
    shipped = shipped_catalogue().relations
    asked = {"P856": replace(shipped["P856"], asked=True)}
    if sequences:
        asked |= {pid: replace(shipped[pid], not_asked_of=()) for pid in ("P155", "P156")}
    path = folder / "websites.toml"
    path.write_text(dump_catalogue(RelationCatalogue(asked)), encoding="utf-8")
    return path


def export(store: Path, out: Path, **fields: Any) -> BenchmarkExport:
    """Export the store's ``qa`` config to ``out`` (cutoff 2014-10-11 unless given)."""
    request = BenchmarkRequest(**{"cutoff": CUTOFF, **fields})
    return export_benchmark(kgdiff.open(store), request, out)


def records(folder: Path, split: str, config: str = "qa") -> list[dict[str, Any]]:
    """The records of a split, from its JSON lines copy."""
    text = (folder / "data" / config / f"{split}.jsonl").read_bytes()
    return [orjson.loads(line) for line in text.splitlines() if line]


def all_records(folder: Path) -> list[dict[str, Any]]:
    """The records of every ``qa`` split."""
    return [record for split in SPLITS for record in records(folder, split)]


def file_bytes(folder: Path) -> dict[str, bytes]:
    """Every file of a folder by its relative path."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
