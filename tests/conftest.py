"""Shared fixtures."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from kgdiff.demo import load_samples
from kgdiff.evidence.build import build_evidence
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.store.layout import StoreLayout
from kgdiff.wikipedia.ingest import WikipediaRequest, ingest_wikipedia
from tests.mediawiki.fixtures import history, mediawiki, metas  # noqa: F401
from tests.paths import SAMPLES
from tests.safe_sql_store import sql_store  # noqa: F401

# The suite's one Hypothesis profile: no wall-clock limit on an example (a first example pays
# for lazy imports, and a loaded machine or one of four parallel pytest processes is slow
# for reasons the code under test has nothing to do with), nor on generating data. A test
# sets only how many examples it needs (max_examples) and which non-timing health checks it
# knowingly fails (function-scoped fixtures).
settings.register_profile(
    "kgdiff", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("kgdiff")


@pytest.fixture(scope="session")
def sample_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding the three bundled real snapshots (ingested once per test session), as
    the demo records them: subset snapshots (each holds a different sample of entities)."""
    store = tmp_path_factory.mktemp("sample-store")
    for sample in load_samples():
        request = IngestRequest(
            path=SAMPLES / sample.file,
            snapshot=sample.name,
            date=sample.date,
            store=store,
            coverage=sample.coverage,
        )
        ingest_wikidata(request)
    return store


@pytest.fixture(scope="session")
def demo_store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's store: the three real Wikidata snapshots, the bundled Wikipedia articles
    (enwiki-2016-05, dated 2016-05-01) and their evidence."""
    store = tmp_path_factory.mktemp("demo-store") / "store"
    shutil.copytree(sample_store, store)
    for sample in load_samples(kind="wikipedia"):
        request = WikipediaRequest(
            SAMPLES / sample.file, snapshot=sample.name, date=sample.date, store=store
        )
        ingest_wikipedia(request)
        build_evidence(StoreLayout.resolve(store), sample.name)
    return store


@pytest.fixture(scope="session")
def export_sample_store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of ``sample_store`` for the benchmark export's tests, whose classifications
    would otherwise be found already built by the tests of ``kgdiff classify``."""
    store = tmp_path_factory.mktemp("export-sample-store") / "store"
    shutil.copytree(sample_store, store)
    return store


@pytest.fixture(scope="session")
def export_demo_store(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of ``demo_store`` for the benchmark export's tests (as ``export_sample_store``)."""
    store = tmp_path_factory.mktemp("export-demo-store") / "store"
    shutil.copytree(demo_store, store)
    return store
