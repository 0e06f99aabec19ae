"""The demo: ingest the bundled sample snapshots and show what was built."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

import msgspec

from kgdiff.evidence.build import EvidenceBuild, build_evidence
from kgdiff.evidence.supported import SupportedSummary
from kgdiff.ingest.pipeline import IngestRequest, IngestResult, ingest_wikidata
from kgdiff.ingest.progress import Progress
from kgdiff.query.classified import GroupChoice, export_source, supported_counts
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.resources import sample_bytes, sample_path
from kgdiff.sqlfiles import load_sql, render
from kgdiff.store.layout import StoreLayout, duckdb_glob
from kgdiff.store.manifest import read_manifest
from kgdiff.store.snapshots import remove_snapshot
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.builds import Build, classification
from kgdiff.temporal.dates import GapPolicy
from kgdiff.wikipedia.ingest import WikipediaRequest, WikipediaResult, ingest_wikipedia


class Sample(msgspec.Struct, frozen=True):
    """One bundled sample dump (``snapshots/samples.json``)."""

    name: str
    file: str
    date: str
    note: str = ""
    coverage: str = "full"
    """``subset`` for a sample that holds only some entities (see kgdiff.store.coverage)."""


@dataclass(frozen=True)
class Verdicts:
    """The ``supported`` column of the demo's classification (unknown throughout: its dates
    precede the Wikipedia sample), and of a classification at the Wikipedia sample's date
    (:func:`evidence_dates`) with a few groups it supports."""

    demo: SupportedSummary | None
    judged: Build
    judged_summary: SupportedSummary | None
    examples: list[tuple[object, ...]] = field(default_factory=list)
    """Groups of ``judged`` that Wikipedia supported, with the sentence that states them."""


@dataclass(frozen=True)
class DemoReport:
    """What the demo built and a few rows to show."""

    results: list[IngestResult]
    catalog: Path
    per_snapshot: list[tuple[str, int, int]]
    intervals: list[tuple[object, ...]]
    classification: Build
    examples: list[tuple[object, ...]]
    wikipedia: list[WikipediaResult]
    evidence: list[EvidenceBuild]
    evidence_examples: list[tuple[object, ...]]
    verdicts: Verdicts | None = None
    """What the Wikipedia evidence says of the classifications (``supported``)."""
    updates: list[dict[str, object]] = field(default_factory=list)
    """The knowledge updates since :data:`UPDATES_SINCE` as of the latest sample (its build
    made, as the README's ``kgdiff updates`` example then reads it)."""


UPDATES_SINCE = date(2005, 6, 1)
"""The cutoff of the demo's knowledge updates (Schröder → Merkel among them)."""


def load_samples(kind: str = "wikidata") -> list[Sample]:
    """The bundled samples of Wikidata (or, ``kind="wikipedia"``, Wikipedia), oldest first."""
    file = "samples.json" if kind == "wikidata" else "wikipedia_samples.json"
    return msgspec.json.decode(sample_bytes(file), type=list[Sample])


def _ingest_wikipedia(
    store: str | Path | None, progress_for: Callable[[Sample], Progress] | None
) -> list[WikipediaResult]:
    results = []
    for sample in load_samples(kind="wikipedia"):
        request = WikipediaRequest(
            path=sample_path(sample.file), snapshot=sample.name, date=sample.date, store=store
        )
        progress = progress_for(sample) if progress_for else None
        results.append(ingest_wikipedia(request, progress))
    return results


def _drop_if_other_coverage(layout: StoreLayout, sample: Sample) -> None:
    """Remove the demo's own snapshot of ``sample`` when an earlier kgdiff recorded it with
    another coverage (as a full dump), so that it is ingested again as what it is."""
    folder = layout.snapshot_dir(sample.name)
    if not (folder / "manifest.json").is_file():
        return
    manifest = read_manifest(folder / "manifest.json")
    if manifest.coverage != sample.coverage and Path(manifest.source.path).name == sample.file:
        remove_snapshot(layout, sample.name)


def evidence_dates() -> tuple[date, date, date]:
    """The dates at which the demo's Wikipedia evidence can judge a classification: the
    Wikipedia sample's date and the two days after it. ``supported`` compares the Wikipedia
    snapshots at or before each of init, cutoff and current, and the only sample is of
    2016-05-01, after every Wikidata sample: these dates read the latest Wikidata sample
    (2014-12-31) across a gap the demo allows, so every group is stable there, and
    ``supported`` when the article of 2016 states its answer."""
    day = date.fromisoformat(load_samples(kind="wikipedia")[0].date)
    return day, day + timedelta(days=1), day + timedelta(days=2)


def _verdicts(layout: StoreLayout, build: Build) -> Verdicts:
    """The evidence's verdicts: on ``build`` (unknown: its dates precede the Wikipedia sample)
    and on a classification at :func:`evidence_dates`, with examples of supported groups."""
    judged = classification(layout, *evidence_dates(), "record", gap=GapPolicy(allow=True))
    with export_source(layout, judged) as connection:
        examples = connection.execute(load_sql("demo/supported_examples")).fetchall()
    choice = GroupChoice()
    demo, verdicts = (
        supported_counts(layout, build, choice),
        supported_counts(layout, judged, choice),
    )
    return Verdicts(demo, judged, verdicts, examples)


def run_demo(
    store: str | Path | None, progress_for: Callable[[Sample], Progress] | None = None
) -> DemoReport:
    """Ingest every bundled sample (a no-op for those already there) and query the catalog."""
    results = []
    for sample in load_samples():
        _drop_if_other_coverage(StoreLayout.resolve(store), sample)
        request = IngestRequest(
            path=sample_path(sample.file),
            snapshot=sample.name,
            date=sample.date,
            store=store,
            coverage=sample.coverage,
        )
        progress = progress_for(sample) if progress_for else None
        results.append(ingest_wikidata(request, progress))
    wikipedia = _ingest_wikipedia(store, progress_for)
    layout = StoreLayout.resolve(store)
    evidence = [build_evidence(layout, result.manifest.name) for result in wikipedia]
    dates = [date.fromisoformat(s.date) for s in load_samples()]
    build = classification(layout, dates[0], dates[1], dates[2], "record")
    with open_catalog(layout) as connection:
        per_snapshot = connection.execute(load_sql("demo/per_snapshot")).fetchall()
        intervals = connection.execute(load_sql("demo/qualified_statements")).fetchall()
        examples = connection.execute(render("demo/level_examples", build=duckdb_glob(build.path)))
        rows = examples.fetchall()
        mentions = connection.execute(load_sql("demo/evidence_examples")).fetchall()
    updates = KnowledgeGraph(layout).updates(UPDATES_SINCE, dates[2]).to_dicts()
    return DemoReport(
        results,
        layout.catalog,
        per_snapshot,
        intervals,
        build,
        rows,
        wikipedia,
        evidence,
        mentions,
        _verdicts(layout, build),
        updates,
    )
