"""Shared fixtures."""

from __future__ import annotations

import gc
import shutil
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from kgdiff.collector import BULK_THRESHOLDS
from kgdiff.demo import load_samples
from kgdiff.evidence.build import build_evidence
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.store.layout import StoreLayout
from kgdiff.wikipedia.ingest import WikipediaRequest, ingest_wikipedia
from tests import rest_server
from tests.built_once import built_once, private_copy, run_folder
from tests.demo_run import DemoRun, run_demo
from tests.mediawiki.fixtures import history, mediawiki, metas  # noqa: F401
from tests.paths import SAMPLES
from tests.reused_views import LoadedOnce
from tests.safe_sql_store import sql_store  # noqa: F401

pytest_plugins = ["tests.cpu_use", "tests.file_order"]
"""Per-test CPU, when KGDIFF_TEST_CPU names a file (scripts/suite_cpu.py reads it); the
longest test files first (tests/file_costs.tsv)."""

# The suite's one Hypothesis profile: no wall-clock limit on an example (a first example pays
# for lazy imports, and a loaded machine or one of four parallel pytest processes is slow
# for reasons the code under test has nothing to do with), nor on generating data. A test
# sets only how many examples it needs (max_examples) and which non-timing health checks it
# knowingly fails (function-scoped fixtures).
settings.register_profile(
    "kgdiff", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("kgdiff")

# A test process is bulk work, as a command is (kgdiff/collector.py): with Python's default
# thresholds the collector walked every fixture, module and test item dozens of times; four
# property and export test files took 111 s with them, 98 s without.
gc.set_threshold(*BULK_THRESHOLDS)


def _ingest_samples(store: Path) -> None:
    """The three bundled real snapshots, ingested into ``store`` as the demo records them."""
    for sample in load_samples():
        request = IngestRequest(
            path=SAMPLES / sample.file,
            snapshot=sample.name,
            date=sample.date,
            store=store,
            coverage=sample.coverage,
        )
        ingest_wikidata(request)


def _add_demo_wikipedia(sample: Path) -> Callable[[Path], None]:
    """What builds the demo's store in a folder from the ingested samples at ``sample``."""

    def build(store: Path) -> None:
        shutil.copytree(sample, store)
        for article in load_samples(kind="wikipedia"):
            request = WikipediaRequest(
                SAMPLES / article.file, snapshot=article.name, date=article.date, store=store
            )
            ingest_wikipedia(request)
            build_evidence(StoreLayout.resolve(store), article.name)

    return build


@pytest.fixture(scope="session")
def pristine_samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three bundled real snapshots ingested once per run (by the first pytest-xdist
    worker that asks): never written to, every store fixture below is a copy of it."""
    return built_once(tmp_path_factory, "sample-store", _ingest_samples)


@pytest.fixture(scope="session")
def pristine_demo(pristine_samples: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's store built once per run (as ``pristine_samples``)."""
    return built_once(tmp_path_factory, "demo-store", _add_demo_wikipedia(pristine_samples))


@pytest.fixture(scope="session")
def sample_store(pristine_samples: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding the three bundled real snapshots (this test session's own copy), as
    the demo records them: subset snapshots (each holds a different sample of entities)."""
    return private_copy(pristine_samples, tmp_path_factory.mktemp("sample-store"))


@pytest.fixture(scope="session")
def demo_store(pristine_demo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's store: the three real Wikidata snapshots, the bundled Wikipedia articles
    (enwiki-2016-05, dated 2016-05-01) and their evidence (this test session's own copy)."""
    return private_copy(pristine_demo, tmp_path_factory.mktemp("demo-store") / "store")


@pytest.fixture(scope="session")
def export_sample_store(pristine_samples: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the ingested samples for the benchmark export's tests, whose
    classifications would otherwise be found already built by the tests of ``kgdiff classify``."""
    store = tmp_path_factory.mktemp("export-sample-store") / "store"
    return private_copy(pristine_samples, store)


@pytest.fixture(scope="session")
def export_demo_store(pristine_demo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the demo's store for the benchmark export's tests (as ``export_sample_store``)."""
    store = tmp_path_factory.mktemp("export-demo-store") / "store"
    return private_copy(pristine_demo, store)


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    """The demo command's run, made once per run for the tests of what it prints and leaves
    (the command itself, its evidence, the README's examples after it): each ran it anew."""
    return DemoRun.read(built_once(tmp_path_factory, "demo-run", run_demo))


@pytest.fixture(scope="module")
def reused_views() -> Iterator[LoadedOnce]:
    """One DuckDB connection with the classification's views and macros for a module's
    property tests, made on its first load: each example registers its own rows
    (tests/reused_views.py)."""
    with closing(LoadedOnce()) as made:
        yield made


@pytest.fixture(scope="session", autouse=True)
def shared_lookup_copies(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The folder where the REST tests' servers share the lookup copies they make, one per
    store state, for the whole run (tests/rest_server.py)."""
    folder = run_folder(tmp_path_factory) / "lookup-copies"
    folder.mkdir(exist_ok=True)
    rest_server.LOOKUP_COPIES[:] = [folder]
