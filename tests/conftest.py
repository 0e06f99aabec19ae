"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgdiff.demo import load_samples
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from tests.mediawiki.fixtures import history, mediawiki, metas  # noqa: F401
from tests.paths import SAMPLES


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
