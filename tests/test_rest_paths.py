"""No answer of the service names a path of the machine (issue 34, finding 10): every
operation of the OpenAPI document, asked with the demo's known questions (rows, a 409, 404s)
and with requests schemathesis generates (valid and not), and each job, answers without the
store's folder or the folders of the dumps it was ingested from. Before, the 409 of
``/v1/revisions`` said ``no history snapshot of enwiki in /the/store``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from tests.rest_server import PATIENCE, copy_store, serving
from tests.test_rest_schema import KNOWN

GENERATED = 12
"""Requests schemathesis makes per operation and mode."""
MORE_KNOWN: list[tuple[str, dict[str, str], dict[str, Any]]] = [
    ("/health", {}, {}),
    ("/v1/snapshots", {}, {}),
    ("/v1/search", {}, {"q": "Germ"}),
    ("/v1/staleness", {}, {"mode": "record"}),
    ("/v1/entities/{qid}", {"qid": "Q999999999"}, {}),
    ("/v1/facts", {}, {"cutoff": "2015-06-01"}),
    ("/v1/facts", {}, {"cutoff": "2014-10-11", "cursor": "not-a-cursor"}),
    ("/v1/evidence", {}, {"subject": "Q42", "snapshot": "enwiki-1999-01"}),
    ("/v1/revisions", {}, {"subject": "Q42", "cutoff": "2014-10-11", "wiki": "dewiki"}),
    ("/v1/jobs/{job_id}", {"job_id": "0123456789abcdef0123"}, {}),
]


@pytest.fixture(scope="module")
def store(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(demo_store, tmp_path_factory.mktemp("rest-paths"))


@pytest.fixture(scope="module")
def live(store: Path) -> Iterator[httpx.Client]:
    with serving(store, "--no-lookup", env={"KGDIFF_API_BUILD_WAIT": "3"}) as client:
        yield client


def private_paths(store: Path) -> set[str]:
    """The store's folder (as given and resolved) and the folders of the dumps its
    snapshots were ingested from (their manifests say where)."""
    paths = {str(store), str(store.resolve())}
    for manifest in store.glob("*/snapshot=*/manifest.json"):
        source = msgspec.json.decode(manifest.read_bytes()).get("source") or {}
        if source.get("path"):
            paths.add(str(Path(source["path"]).parent))
    return paths


def assert_no_path(response: Any, paths: set[str], asked: str) -> None:
    text = response.text if hasattr(response, "text") else response.content.decode()
    found = [path for path in paths if path in text]
    assert not found, f"{asked} answered {response.status_code} naming {found}: {text[:300]}"


def test_known_questions_name_no_machine_path(live: httpx.Client, store: Path) -> None:
    paths = private_paths(store)
    assert len(paths) >= 2  # the store, and the folder of the dumps
    schema = schemathesis.openapi.from_url(f"{live.base_url}/openapi.json")
    statuses = set()
    for path, where, query in [*KNOWN, *MORE_KNOWN]:
        case = schema[path]["GET"].Case(path_parameters=where, query=query)
        response = case.call(base_url=str(live.base_url), timeout=PATIENCE)
        assert_no_path(response, paths, f"{path} {where} {query}")
        response = _settled(case, str(live.base_url), response)
        statuses.add(response.status_code)
        assert_no_path(response, paths, f"{path} {where} {query}")
    assert {200, 400, 404, 409, 422} <= statuses


def _settled(case: Any, base_url: str, response: Any) -> Any:
    """The answer to ``case`` once its job is done: a heavy question still running after the
    server's short wait answers 202, and asking again joins the same job (on a loaded
    machine the 409 of /v1/revisions came as a 202)."""
    deadline = time.monotonic() + PATIENCE
    while response.status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.5)
        response = case.call(base_url=base_url, timeout=PATIENCE)
    return response


def test_jobs_name_no_machine_path(live: httpx.Client, store: Path) -> None:
    paths = private_paths(store)
    for job in (store / "builds" / "jobs").glob("*.json"):
        assert_no_path(live.get(f"/v1/jobs/{job.stem}"), paths, job.stem)


def test_generated_requests_name_no_machine_path(live: httpx.Client, store: Path) -> None:
    paths = private_paths(store)
    schema = schemathesis.openapi.from_url(f"{live.base_url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
    assert len(operations) >= 12
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            _walk(operation, str(live.base_url), mode, paths)


def _walk(operation: Any, base_url: str, mode: GenerationMode, paths: set[str]) -> None:
    @given(operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=GENERATED,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def check(case: Any) -> None:
        response = case.call(base_url=base_url, timeout=PATIENCE)
        assert_no_path(response, paths, f"{operation.method} {case.formatted_path} {case.query}")

    try:
        check()
    except Unsatisfiable:  # no parameter to get wrong (GET /health in negative mode)
        assert mode is GenerationMode.NEGATIVE
