"""Schemathesis against the live REST service's OpenAPI document: generated requests to every
operation, a bounded number each, must get no server error and only answers the document
declares (status codes, content types, bodies, problem+json for errors)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.rest_server import PATIENCE, copy_store, serving
from tests.test_rest_jobs import poll

EXAMPLES = {GenerationMode.POSITIVE: 30, GenerationMode.NEGATIVE: 15}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def live(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    store = copy_store(demo_store, tmp_path_factory.mktemp("rest-schema"))
    # work not done in 3 s (a staleness curve of 12 classifications on a busy machine) is
    # answered 202 with its job, well within the generated requests' 10 s timeout
    with serving(store, env={"KGDIFF_API_BUILD_WAIT": "3"}) as client:
        yield client


def operations(base_url: str) -> list[Any]:
    """Every operation of the live service's OpenAPI document (an invalid one fails)."""
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json")
    return [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]


def fuzz(operation: Any, base_url: str, mode: GenerationMode) -> int:
    """Send up to EXAMPLES[mode] requests generated in ``mode`` (valid per the document, or
    not) to ``operation``, each answer checked; how many."""
    sent = 0

    @given(operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES[mode],
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def check(case: Any) -> None:
        nonlocal sent
        sent += 1
        case.call_and_validate(base_url=base_url, checks=CHECKS, timeout=PATIENCE)

    try:
        check()
    except Unsatisfiable:  # no parameter to get wrong (GET /health in negative mode)
        assert mode is GenerationMode.NEGATIVE and sent == 0
    return sent


def test_generated_requests_get_declared_answers(live: httpx.Client) -> None:
    """Up to EXAMPLES generated requests per operation (schemathesis' pytest plugin runs its
    operations as subtests, which this pytest does not support: hypothesis drives each)."""
    found = operations(str(live.base_url))
    assert len(found) >= 12
    for mode in EXAMPLES:
        sent = {f"{op.method} {op.path}": fuzz(op, str(live.base_url), mode) for op in found}
        print(f"schemathesis, {mode.value} requests per operation:", sent)
        assert sum(sent.values()) >= 5 * len(found), sent


# Requests the demo store answers with rows (generated ones mostly name unknown ids), each
# answer validated by the same checks against the document.
KNOWN: list[tuple[str, dict[str, str], dict[str, Any]]] = [
    ("/v1/facts", {}, {"cutoff": "2014-10-11", "limit": 50}),
    ("/v1/facts", {}, {"cutoff": "2014-10-11", "mode": "valid", "level": ["evolved"]}),
    ("/v1/facts", {}, {"cutoff": "2015-02-01", "current": "2015-03-01", "allow_gap": "true"}),
    ("/v1/entities/{qid}", {"qid": "Q42"}, {"date": "2014-10-11", "lang": "de"}),
    ("/v1/entities/{qid}", {"qid": "P1056"}, {"date": "2013-12-21"}),  # not in that one
    ("/v1/entities/{qid}/timeline", {"qid": "Q42"}, {}),
    ("/v1/entities/{qid}/facts", {"qid": "Q42"}, {"date": "2014-11-01"}),
    ("/v1/pools", {}, {"subject": "Q42", "from": "2012", "granularity": "month"}),
    ("/v1/chains", {}, {"date": "2014-11-01", "subject": "Q21"}),
    ("/v1/updates", {}, {"cutoff": "2014-01-01"}),
    ("/v1/evidence", {}, {"subject": "Q937"}),
    ("/v1/revisions", {}, {"subject": "Q42", "cutoff": "2014-10-11"}),
]


def test_known_answers_match_the_document(live: httpx.Client) -> None:
    """Each answer, and the 202 of a heavy request not done within the wait (its job then
    waited for and the request asked again), is what the document declares."""
    schema = schemathesis.openapi.from_url(f"{live.base_url}/openapi.json")
    statuses = []
    for path, where, query in KNOWN:
        case = schema[path]["GET"].Case(path_parameters=where, query=query)
        response = case.call_and_validate(
            base_url=str(live.base_url), checks=CHECKS, timeout=PATIENCE
        )
        if response.status_code == 202:  # a build slower than the wait (a busy machine)
            assert poll(live, response.headers["location"][0])["status"] == "done"
            response = case.call_and_validate(
                base_url=str(live.base_url), checks=CHECKS, timeout=PATIENCE
            )
        statuses.append(response.status_code)
    assert statuses == [200] * (len(KNOWN) - 1) + [409]  # the demo has no page history
