"""The REST service (issue 23) as a client sees it: a real ``kgdiff serve`` process on the
demo store, every route's answer checked against the library (``kgdiff.open``), and the
classified facts against the independent reference implementation."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import polars as pl
import pytest

import kgdiff
from kgdiff.cli.demo import SERVE_EXAMPLES
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.lookup import LOOK_AGAIN_SECONDS
from tests.rest_server import copy_store, serving
from tests.temporal_reference import Snapshot, ViewMemo
from tests.temporal_reference import classify as reference
from tests.test_classify import REAL_DATES, real_snapshots  # noqa: F401 (a fixture)

INIT, CUTOFF, CURRENT = (day.isoformat() for day in REAL_DATES[1])
PROBLEM = "application/problem+json"
FACT_FIELDS = (
    "level", "change_kind", "change_nature", "changed_after_cutoff", "latest", "outdated",
    "all_answers",
    "ambiguous_reason", "record_level", "valid_level", "backfilled", "not_covered_in",
)  # fmt: skip


@pytest.fixture(scope="module")
def store(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the demo store (the server adds builds and pages to it)."""
    return copy_store(demo_store, tmp_path_factory.mktemp("rest"))


@pytest.fixture(scope="module")
def api(store: Path) -> Iterator[httpx.Client]:
    """A client of ``kgdiff serve`` on the store, which waits for a classification it makes
    however busy the machine (the 202 of a slow build is tested in tests/test_rest_heavy.py)."""
    with serving(store, env={"KGDIFF_API_BUILD_WAIT": "600"}) as client:
        yield client


@pytest.fixture(scope="module")
def kg(store: Path) -> Iterator[KnowledgeGraph]:
    graph = kgdiff.open(store)
    yield graph
    graph.close()


def rows(frame: pl.DataFrame, fields: list[str] | None = None) -> list[dict[str, Any]]:
    """A frame's rows as JSON gives them back (dates as ISO text, moments in UTC as the
    service sends them), with ``fields`` only."""
    found = orjson.loads(
        orjson.dumps(frame.to_dicts(), option=orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z)
    )
    return [{k: row[k] for k in fields} for row in found] if fields else found


def same_rows(items: list[dict[str, Any]], frame: pl.DataFrame, ordered: bool = True) -> None:
    """The service's items are the library's rows (on the fields the service sends; in
    any order unless ``ordered``)."""
    assert len(items) == frame.height
    if items:
        fields = [name for name in items[0] if name in frame.columns]
        got, want = [{k: item[k] for k in fields} for item in items], rows(frame, fields)
        if not ordered:
            got, want = sorted(got, key=orjson.dumps), sorted(want, key=orjson.dumps)
        assert got == want


def all_pages(api: httpx.Client, query: str, limit: int) -> tuple[list[dict[str, Any]], int]:
    """Every item of ``/v1/facts?QUERY``, page after page, and how many pages."""
    items, cursor, pages = [], None, 0
    while True:
        params = f"{query}&limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        response = api.get(f"/v1/facts?{params}")
        assert response.status_code == 200, response.text
        body = response.json()
        assert len(body["items"]) <= limit
        items += body["items"]
        pages += 1
        cursor = body["next_cursor"]
        if cursor is None:
            return items, pages


def test_health_and_snapshots_are_the_librarys(api: httpx.Client, kg: KnowledgeGraph) -> None:
    health = api.get("/health").json()
    assert health == {
        "status": "ok",
        "snapshots": 3,
        "version": kgdiff.__version__,
        "problems": [],
    }
    listed = api.get("/v1/snapshots").json()["snapshots"]
    same_rows(listed, kg.snapshots())
    assert [s["name"] for s in listed] == ["wd-2013-12", "wd-2014-10", "wd-2014-12"]
    assert "source_path" not in listed[0]  # the server's own paths stay on the server


@pytest.fixture(scope="module")
def reference_views() -> ViewMemo:
    """The reference's views of the real samples, each classified once for the three modes
    (mode both is record and valid: seconds each)."""
    return {}


@pytest.mark.parametrize("mode", ["record", "valid", "both"])
def test_facts_pages_add_up_to_the_library_and_the_reference(
    api: httpx.Client,
    kg: KnowledgeGraph,
    real_snapshots: list[Snapshot],  # noqa: F811 (the fixture imported above)
    reference_views: ViewMemo,
    mode: str,
) -> None:
    items, pages = all_pages(api, f"cutoff={CUTOFF}&mode={mode}", 1000)
    whole = kg.classify(CUTOFF, INIT, CURRENT, mode)
    assert pages == whole.height // 1000 + 1
    same_rows(items, whole)  # in (subject, pid) order, with the labels
    expected = reference(real_snapshots, *REAL_DATES[1], mode, reference_views)
    got = {(item["subject"], item["pid"]): item for item in items}
    assert set(got) == set(expected)
    for key, result in expected.items():
        want = {name: getattr(result, name) for name in FACT_FIELDS}
        want = json.loads(json.dumps(want))  # tuples as lists
        assert {name: got[key][name] for name in FACT_FIELDS} == want, key


def test_filtered_pages_equal_the_filtered_whole(api: httpx.Client, kg: KnowledgeGraph) -> None:
    query = f"cutoff={CUTOFF}&level=evolved&level=retracted&pid=p31&pid=P17"
    items, pages = all_pages(api, query, 7)
    whole = kg.classify(CUTOFF, level=["evolved", "retracted"], pid=["P31", "P17"])
    assert pages > 3 and whole.height > 20
    same_rows(items, whole)
    one, _ = all_pages(api, f"cutoff={CUTOFF}&subject=q42", 5)
    same_rows(one, kg.classify(CUTOFF, subject="Q42"))


def test_ndjson_is_the_json_pages_whole(api: httpx.Client) -> None:
    for query in (f"cutoff={CUTOFF}", f"cutoff={CUTOFF}&level=evolved&pid=P31"):
        paged, _ = all_pages(api, query, 1000)
        streamed = api.get(f"/v1/facts?{query}", headers={"Accept": "application/x-ndjson"})
        assert streamed.status_code == 200
        assert streamed.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in streamed.text.splitlines()]
        assert lines == paged


def test_etags_come_from_the_store_and_answer_304(api: httpx.Client) -> None:
    for url in ("/v1/snapshots", f"/v1/facts?cutoff={CUTOFF}&limit=3", "/v1/entities/Q42"):
        first = api.get(url)
        tag = first.headers["etag"]
        again = api.get(url, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.headers["etag"] == tag and not again.content
        assert api.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
    json_tag = api.get(f"/v1/facts?cutoff={CUTOFF}").headers["etag"]
    ndjson = api.get(f"/v1/facts?cutoff={CUTOFF}", headers={"Accept": "application/x-ndjson"})
    assert ndjson.headers["etag"] != json_tag
    assert (
        api.get(f"/v1/facts?limit=3&cutoff={CUTOFF}").headers["etag"]
        == api.get(f"/v1/facts?cutoff={CUTOFF}&limit=3").headers["etag"]
    )  # the same question in another order of parameters
    assert "etag" not in api.get("/v1/entities/Q999999999").headers  # no tag on a problem


def problem_of(response: httpx.Response, status: int) -> dict[str, Any]:
    """The problem details of an error response, checked for their RFC 9457 members."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["title"] and body["detail"] and body["type"]
    return body


def named(body: dict[str, Any]) -> set[str]:
    return {param["name"] for param in body["invalid_params"]}


def test_bad_parameters_are_problems_naming_them(api: httpx.Client) -> None:
    cases = {
        "/v1/facts?cutoff=yesterday": "cutoff",
        f"/v1/facts?cutoff={CUTOFF}&limit=0": "limit",
        f"/v1/facts?cutoff={CUTOFF}&level=wobbly": "level",
        f"/v1/facts?cutoff={CUTOFF}&mode=both-ways": "mode",
        f"/v1/facts?cutoff={CUTOFF}&pid=Q5": "pid",
        "/v1/entities/Q42/timeline?pid=P0": "pid",
        "/v1/pools?subject=Q42&from=2015&to=2010": "from",
        "/v1/chains?date=2014-11-01&subject=Q21&max_hops=1": "max_hops",
        "/v1/entities/banana": "qid",
    }
    for url, param in cases.items():
        assert param in named(problem_of(api.get(url), 422)), url
    order = problem_of(api.get(f"/v1/facts?cutoff={CUTOFF}&init=2014-11-01"), 422)
    assert {"cutoff", "init"} <= named(order) and "init < cutoff < current" in order["detail"]
    cursor = problem_of(api.get(f"/v1/facts?cutoff={CUTOFF}&cursor=not-a-cursor"), 400)
    assert named(cursor) == {"cursor"}
    page = api.get(f"/v1/facts?cutoff={CUTOFF}&limit=2").json()
    other = api.get(f"/v1/facts?cutoff={CUTOFF}&level=stable&cursor={page['next_cursor']}")
    assert "another question" in problem_of(other, 400)["detail"]


def test_unknown_ids_are_404(api: httpx.Client) -> None:
    for url, param in {
        "/v1/entities/Q999999999": "qid",
        "/v1/entities/q999999999/timeline": "qid",
        f"/v1/facts?cutoff={CUTOFF}&subject=Q999999999": "subject",
        f"/v1/facts?cutoff={CUTOFF}&pid=P999999": "pid",
        "/v1/pools?subject=Q999999999": "subject",
    }.items():
        body = problem_of(api.get(url), 404)
        assert "is in no snapshot of the store" in body["detail"] and named(body) == {param}, url
    assert problem_of(api.get("/v1/nowhere"), 404)["type"].endswith("/not-found")


def test_dates_beyond_the_data_are_422_naming_the_snapshots(api: httpx.Client) -> None:
    listing = "wd-2013-12 (2013-12-21), wd-2014-10 (2014-10-11), wd-2014-12 (2014-12-31)"
    for url, param in {
        "/v1/facts?cutoff=2015-03-01&current=2015-06-01": "current",
        "/v1/entities/Q42?date=2012-01-01": "date",
        "/v1/entities/Q42/facts?date=2016-01-01": "date",
        "/v1/chains?date=2016-01-01&subject=Q21": "date",
        "/v1/updates?cutoff=2014-10-11&current=2016-01-01": "current",
    }.items():
        body = problem_of(api.get(url), 422)
        assert f"Snapshots: {listing}" in body["detail"] and "allow_gap=true" in body["detail"]
        assert param in named(body), url
    allowed = api.get("/v1/facts?cutoff=2015-03-01&current=2015-06-01&allow_gap=true&limit=1")
    assert allowed.status_code == 200
    current = [read for read in allowed.json()["reads"] if read["role"] == "current"]
    assert current[0]["snapshot"] == "wd-2014-12" and current[0]["gap_days"] == 152


def test_entity_routes_are_the_librarys(api: httpx.Client, kg: KnowledgeGraph) -> None:
    answer = api.get("/v1/entities/q42?date=2014-10-20&lang=en").json()
    library = kg.answers.entity("Q42", "2014-10-20", "en")
    assert answer["entity"]["label"] == "Douglas Adams" and answer["qid"] == "Q42"
    same_rows([answer["entity"]], library.frame)
    assert answer["reads"][0]["snapshot"] == "wd-2014-10"
    timeline = api.get("/v1/entities/Q42/timeline?pid=P69").json()
    same_rows(timeline["items"], kg.timeline("Q42", "P69"))
    assert timeline["notes"] == kg.answers.timeline("Q42", "P69").notes
    facts = api.get("/v1/entities/Q42/facts?date=2014-11-01&mode=valid").json()
    same_rows(facts["items"], kg.facts_at("2014-11-01", "valid", "Q42"), ordered=False)
    assert facts["items"] and {item["subject"] for item in facts["items"]} == {"Q42"}


def test_the_service_makes_the_lookup_copy_then_answers_the_same(
    api: httpx.Client, store: Path
) -> None:
    """``kgdiff serve`` makes the copy in the background; its workers read it once there."""
    deadline = time.monotonic() + 60
    while kgdiff.open(store).lookup_copy() is None and time.monotonic() < deadline:
        time.sleep(0.5)
    assert kgdiff.open(store).lookup_copy() is not None
    time.sleep(LOOK_AGAIN_SECONDS + 1)  # the worker looks again
    views = kgdiff.open(store, lookup=False)
    timeline = api.get("/v1/entities/Q64/timeline").json()
    expected = views.answers.timeline("Q64")
    same_rows(timeline["items"], expected.frame)
    facts = api.get("/v1/entities/Q183/facts?date=2014-06-01").json()
    same_rows(facts["items"], views.facts_at("2014-06-01", "record", "Q183"), ordered=False)


def test_window_routes_are_the_librarys(api: httpx.Client, kg: KnowledgeGraph) -> None:
    pools = api.get("/v1/pools?subject=Q42&pid=P106&from=2010&to=2014&granularity=month").json()
    same_rows(pools["items"], kg.pools("Q42", "P106", 2010, 2014, "month"))
    assert len(pools["items"][0]["periods"]) == 60
    chains = api.get("/v1/chains?date=2014-11-01&subject=Q21").json()
    same_rows(chains["items"], kg.chains("2014-11-01", "Q21"))
    assert chains["items"] and chains["reads"][0]["snapshot"] == "wd-2014-10"
    through = api.get("/v1/chains?date=2014-11-01&subject=Q21&relations=P131,P6,P17").json()
    relations = {"P131": ["P6", "P17"], "P17": ["P6"]}
    same_rows(through["items"], kg.chains("2014-11-01", "Q21", relations))
    assert {hop["pid"] for c in through["items"] for hop in c["hops"]} <= {"P131", "P6", "P17"}
    updates = api.get("/v1/updates?cutoff=2014-01-01").json()
    same_rows(updates["items"], kg.updates("2014-01-01"))
    assert updates["notes"] == kg.answers.updates("2014-01-01").notes


def test_evidence_is_the_librarys_and_revisions_need_a_history(
    api: httpx.Client, kg: KnowledgeGraph
) -> None:
    evidence = api.get("/v1/evidence?subject=Q937&pid=P27").json()
    assert evidence["items"]
    same_rows(evidence["items"], kg.evidence("Q937", "P27"))
    none = api.get("/v1/revisions?subject=Q42&cutoff=2014-10-11")
    assert "no history snapshot of enwiki" in problem_of(none, 409)["detail"]


def test_sql_is_not_served_unless_enabled(api: httpx.Client) -> None:
    problem_of(api.post("/v1/sql", json={"query": "SELECT 1"}), 404)
    assert "/v1/sql" not in api.get("/openapi.json").json()["paths"]


def test_the_demos_curl_lines_answer(api: httpx.Client) -> None:
    """The three requests ``kgdiff demo`` prints answer with rows on the demo's store."""
    for path in SERVE_EXAMPLES:
        response = api.get(path)
        while response.status_code == 202:  # a classification being made: wait for its job
            time.sleep(0.5)
            response = api.get(path)
        assert response.status_code == 200, (path, response.text)
        body = response.json()
        assert body["items"], path


def test_an_entity_past_the_data_needs_allow_gap(api: httpx.Client) -> None:
    """A date 152 days after the latest snapshot is refused as every route refuses it, and
    answered with its gap when allowed."""
    refused = api.get("/v1/entities/Q183?date=2015-06-01")
    assert refused.status_code == 422, refused.text
    assert "after the latest snapshot" in refused.json()["detail"]
    allowed = api.get("/v1/entities/Q183?date=2015-06-01&allow_gap=true").json()
    assert allowed["entity"]["label"] == "Germany" and allowed["reads"][0]["gap_days"] == 152
