"""The demo: ingest the bundled sample snapshots and show what was built."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import duckdb
import msgspec

from kgdiff.ingest.pipeline import IngestRequest, IngestResult, ingest_wikidata
from kgdiff.ingest.progress import Progress
from kgdiff.sqlfiles import load_sql
from kgdiff.store.layout import StoreLayout

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "snapshots"


class Sample(msgspec.Struct, frozen=True):
    """One bundled sample dump (``snapshots/samples.json``)."""

    name: str
    file: str
    date: str
    note: str = ""


@dataclass(frozen=True)
class DemoReport:
    """What the demo built and a few rows to show."""

    results: list[IngestResult]
    catalog: Path
    per_snapshot: list[tuple[str, int, int]]
    intervals: list[tuple[object, ...]]


def load_samples(directory: Path = SAMPLES_DIR) -> list[Sample]:
    """The bundled samples, oldest first."""
    data = (directory / "samples.json").read_bytes()
    return msgspec.json.decode(data, type=list[Sample])


def run_demo(
    store: str | Path | None, progress_for: Callable[[Sample], Progress] | None = None
) -> DemoReport:
    """Ingest every bundled sample (a no-op for those already there) and query the catalog."""
    results = []
    for sample in load_samples():
        request = IngestRequest(
            path=SAMPLES_DIR / sample.file, snapshot=sample.name, date=sample.date, store=store
        )
        progress = progress_for(sample) if progress_for else None
        results.append(ingest_wikidata(request, progress))
    layout = StoreLayout.resolve(store)
    connection = duckdb.connect(str(layout.catalog), read_only=True)
    try:
        per_snapshot = connection.execute(load_sql("demo/per_snapshot")).fetchall()
        intervals = connection.execute(load_sql("demo/qualified_statements")).fetchall()
    finally:
        connection.close()
    return DemoReport(results, layout.catalog, per_snapshot, intervals)
