"""``GET /v1/search`` and ``GET /v1/staleness`` on a real ``kgdiff serve`` process: the
library's answers, problems for bad parameters, and a background job on a large store."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import httpx
import polars as pl
import pytest

import kgdiff
from kgdiff.temporal.levels import LEVELS
from kgdiff.temporal.seed_cutoffs import seed_cutoffs
from tests.rest_server import copy_store, serving
from tests.test_rest_api import problem_of


@pytest.fixture(scope="module")
def store(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(demo_store, tmp_path_factory.mktemp("rest-overview"))


@pytest.fixture(scope="module")
def api(store: Path) -> Iterator[httpx.Client]:
    with serving(store) as client:
        yield client


def ready(api: httpx.Client, path: str) -> httpx.Response:
    """The answer to ``path`` once made: a busy machine may take longer than the service
    waits within a request (202 and a job), then the curve is read."""
    response = api.get(path)
    deadline = time.monotonic() + 180
    while response.status_code == 202:
        assert time.monotonic() < deadline, f"{path} not made in time"
        time.sleep(0.2)
        response = api.get(path)
    assert response.status_code == 200, response.text
    return response


def test_search_is_the_librarys(api: httpx.Client, store: Path) -> None:
    kg = kgdiff.open(store)
    for text in ("Q42", "douglas", "ber", "dna"):
        body = api.get("/v1/search", params={"q": text, "limit": 20}).json()
        assert body["query"] == text
        assert body["items"] == kg.search(text, limit=20).to_dicts()
    de = api.get("/v1/search", params={"q": "deutschl", "lang": "de"}).json()
    assert "Q183" in [item["qid"] for item in de["items"]]
    empty = api.get("/v1/search", params={"q": "zzqx"}).json()
    assert empty["items"] == [] and empty["notes"]


def test_bad_searches_are_problems(api: httpx.Client) -> None:
    cases: list[tuple[dict[str, str | int], str]] = [
        ({"q": ""}, "q"),
        ({"q": "a", "limit": 0}, "limit"),
        ({}, "q"),
    ]
    for params, name in cases:
        body = problem_of(api.get("/v1/search", params=params), 422)
        assert [p["name"] for p in body["invalid_params"]] == [name]
    body = problem_of(api.get("/v1/search", params={"q": "   "}), 422)
    assert "search text is empty" in body["detail"]


@pytest.mark.parametrize("mode", ["record", "valid"])
def test_staleness_is_the_librarys_and_the_classifications(
    api: httpx.Client, store: Path, mode: str
) -> None:
    body = ready(api, f"/v1/staleness?mode={mode}").json()
    assert (body["init"], body["current"], body["mode"]) == ("2013-12-21", "2014-12-31", mode)
    assert [m["cutoff"] for m in body["months"]] == [f"2014-{m:02d}-01" for m in range(1, 13)]
    kg = kgdiff.open(store)
    curve = kg.staleness(mode)
    for month in body["months"]:
        assert list(month["counts"]) == list(LEVELS)
        rows = curve.filter(pl.col("cutoff") == date.fromisoformat(month["cutoff"]))
        assert month["counts"] == dict(rows.select("level", "groups").rows())
        assert month["covered"] == month["total"] - month["counts"]["not_covered"]
    for cutoff in ("2014-03-01", "2014-06-01", "2014-11-01"):
        (month,) = [m for m in body["months"] if m["cutoff"] == cutoff]
        levels = dict(kg.classify(cutoff, mode=mode)["level"].value_counts().rows())
        assert {k: v for k, v in month["counts"].items() if v} == levels
    assert [s["name"] for s in body["seed_cutoffs"]] == [s.name for s in seed_cutoffs()]
    assert any("not_covered, not deleted" in note for note in body["notes"])


def test_a_large_stores_curve_is_a_job(demo_store: Path, tmp_path: Path) -> None:
    """Told that any store over 1,000 statements is large, the service answers 202 with a
    job, then serves the curve the job made."""
    store = copy_store(demo_store, tmp_path)
    with serving(store, env={"KGDIFF_API_SYNC_STATEMENTS": "1000"}) as client:
        first = client.get("/v1/staleness")
        assert first.status_code == 202
        location = first.headers["location"]
        deadline = time.monotonic() + 120
        while client.get(location).json()["status"] not in ("done", "failed"):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert client.get(location).json()["status"] == "done"
        assert client.get(first.json()["result"]).status_code == 200
