"""The REST service's background jobs (a classification too large to make within a
request), ``POST /v1/sql`` when enabled, and supporting revisions from a store with a page
history; each on a real ``kgdiff serve`` process."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from threading import Barrier

import httpx
import pytest

import kgdiff
from tests.rest_server import copy_store, serving
from tests.test_rest_api import problem_of, same_rows
from tests.test_supporting_revisions import history_store_in

FACTS = "/v1/facts?cutoff=2014-11-01&limit=5"
FACTS_LINK = "/v1/facts?cutoff=2014-11-01&init=2013-12-21&current=2014-12-31&mode=record&lang=en"


@pytest.fixture(scope="module")
def store(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(demo_store, tmp_path_factory.mktemp("rest-jobs"))


@pytest.fixture(scope="module")
def api(store: Path) -> Iterator[httpx.Client]:
    """The service told that any classification reading more than 25,000 statements is too
    large to make within a request (the demo's snapshots hold 11,000 to 15,000 each: two
    fit, three do not)."""
    with serving(store, "--enable-sql", env={"KGDIFF_API_SYNC_STATEMENTS": "25000"}) as client:
        yield client


def poll(api: httpx.Client, location: str) -> dict[str, object]:
    """The job's state once it has finished."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        response = api.get(location)
        assert response.status_code == 200 and response.headers["cache-control"] == "no-store"
        state = response.json()
        if state["status"] in ("done", "failed"):
            return dict(state)
        time.sleep(0.05)
    raise AssertionError(f"{location} did not finish")


def test_identical_requests_share_one_job_then_the_result_is_served(
    api: httpx.Client, store: Path
) -> None:
    builds = store / "builds" / "classify"
    before = set(builds.iterdir()) if builds.is_dir() else set()
    barrier = Barrier(4)

    def ask(_: int) -> httpx.Response:
        barrier.wait()
        return api.get(FACTS)

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(ask, range(4)))
    assert {a.status_code for a in answers} == {202}
    locations = {a.headers["location"] for a in answers}
    assert len(locations) == 1 and {a.json()["id"] for a in answers} == {
        locations.pop().rpartition("/")[2]
    }
    state = poll(api, answers[0].headers["location"])
    # the result is the classification's first page, a link of the job's own
    assert state["status"] == "done" and state["result"] == FACTS_LINK
    assert len(set(builds.iterdir()) - before) == 1  # one build, made once
    assert api.get(str(state["result"])).status_code == 200
    result = api.get(FACTS)
    assert result.status_code == 200 and len(result.json()["items"]) == 5
    expected = kgdiff.open(store).classify("2014-11-01").head(5)
    same_rows(result.json()["items"], expected)
    # made: every question on it is answered at once now, another page, another filter
    assert api.get(FACTS + "&level=stable").status_code == 200


def test_a_small_classification_is_made_within_the_request(api: httpx.Client) -> None:
    """Cutoff and init read the same snapshot: 2 snapshots, under the threshold."""
    response = api.get("/v1/facts?cutoff=2014-01-15&limit=2")
    assert response.status_code == 200 and len(response.json()["items"]) == 2


def test_a_failing_job_and_unknown_jobs(api: httpx.Client) -> None:
    problem_of(api.get("/v1/jobs/0123456789abcdef0123"), 404)
    problem_of(api.get("/v1/jobs/not-a-job"), 422)
    # a date beyond the data is refused before any job is made
    problem_of(api.get("/v1/facts?cutoff=2015-03-01&current=2015-06-01"), 422)


def test_sql_when_enabled(api: httpx.Client) -> None:
    response = api.post("/v1/sql", json={"query": "SELECT count(*) AS n FROM snapshots"})
    assert response.status_code == 200, response.text
    assert response.json()["columns"] == ["n"] and response.json()["rows"] == [[3]]
    problem_of(api.post("/v1/sql", json={"query": "DROP VIEW snapshots"}), 400)
    assert "/v1/sql" in api.get("/openapi.json").json()["paths"]


def test_sql_body_must_hold_a_query(api: httpx.Client) -> None:
    body = problem_of(api.post("/v1/sql", json={"sql": "SELECT 1"}), 422)
    assert {p["name"] for p in body["invalid_params"]} == {"query"}


@pytest.fixture(scope="module")
def history_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The synthetic store of tests/test_supporting_revisions.py: a head of state replaced
    in 2020, and the article's history."""
    return history_store_in(tmp_path_factory.mktemp("rest-history"))


def test_revisions_are_the_librarys(history_store: Path) -> None:
    with serving(history_store) as api:
        url = "/v1/revisions?subject=Q1001&cutoff=2020-01-01&current=2021-01-01"
        answer = api.get(url).json()
        library = kgdiff.open(history_store).supporting_revisions("2020-01-01", "2021-01-01")
        same_rows(answer["items"], library)
        (row,) = answer["items"]
        assert (row["revision_id"], row["new_object"], row["reason"]) == (15, "Q1003", None)
        none = api.get("/v1/revisions?subject=Q1002&cutoff=2020-01-01&current=2021-01-01")
        assert none.json()["items"] == [] and none.json()["notes"]
