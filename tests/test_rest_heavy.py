"""Heavy routes run in the service's bounded pool, and point lookups keep answering while it
is full (issue 36, item 4); each on a real ``kgdiff serve`` over a copy of the demo's store.

The heavy work is held in flight without any timing: the test holds the store's lock, which
a first classification takes to publish its build, so its job stays ``running`` (and says
so) until the test lets go. Then the pool is provably full, and what the service answers
meanwhile is what a crowd of heavy requests would get."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psutil
import pytest

import kgdiff
from kgdiff.store.catalog import store_lock
from kgdiff.store.layout import StoreLayout
from tests.rest_server import copy_store_without_builds, server_process, serving
from tests.test_rest_api import problem_of, same_rows
from tests.test_rest_jobs import poll

POOLS = "/v1/pools?subject=Q183&pid=P6&from=2003&to=2007"
UPDATES = "/v1/updates?cutoff=2014-10-11&pid=P6"
UNKNOWN = (
    "/v1/pools?subject=Q999999999",
    "/v1/chains?date=2014-06-01&subject=Q183&pid=P999999",
    "/v1/updates?cutoff=2014-10-11&pid=P999999",
    "/v1/revisions?subject=Q999999999&cutoff=2014-10-11",
)
"""Heavy requests about ids no snapshot knows."""
LOOKUPS = (
    "/v1/entities/Q183",
    "/v1/entities/Q183/timeline?pid=P6",
    "/v1/entities/Q183/facts?date=2014-06-01",
    "/v1/search?q=Germ",
    "/v1/snapshots",
    "/v1/facts?cutoff=2014-10-11&limit=3",  # a page of a build made before
)


def pool(workers: int, queue: int) -> tuple[str, ...]:
    """The options of ``kgdiff serve`` for a pool of ``workers`` and ``queue``."""
    return ("--no-lookup", "--heavy-workers", str(workers), "--heavy-queue", str(queue))


def made_later(wait: float = 20.0) -> dict[str, str]:
    """Every classification too large to wait for (its request answers 202 at once); other
    heavy requests wait ``wait`` seconds for their answer."""
    return {"KGDIFF_API_SYNC_STATEMENTS": "0", "KGDIFF_API_BUILD_WAIT": str(wait)}


@pytest.fixture
def store(demo_store: Path, tmp_path: Path) -> Path:
    return copy_store_without_builds(demo_store, tmp_path)


@contextmanager
def store_held(store: Path) -> Iterator[None]:
    """The store's lock, held by the test: no classification is published meanwhile."""
    with store_lock(StoreLayout.resolve(store)):
        yield


def first_build(api: httpx.Client, cutoff: str) -> str:
    """Ask for a classification not made yet; the location of its job (202)."""
    answer = api.get(f"/v1/facts?cutoff={cutoff}&limit=3")
    assert answer.status_code == 202, answer.text
    return str(answer.headers["location"])


def status(api: httpx.Client, location: str) -> str:
    return str(api.get(location).json()["status"])


def until_running(api: httpx.Client, location: str) -> None:
    """Wait until the job says it runs (it cannot finish while the test holds the lock)."""
    deadline = time.monotonic() + 120
    while status(api, location) != "running":
        assert time.monotonic() < deadline, f"{location} never ran"
        time.sleep(0.05)


def made_before(api: httpx.Client, cutoff: str) -> None:
    """The classification of ``cutoff`` made (its job waited for), so its pages are reads."""
    assert poll(api, first_build(api, cutoff))["status"] == "done"


def test_a_full_pool_refuses_heavy_requests_and_lookups_answer_meanwhile(store: Path) -> None:
    with serving(store, *pool(workers=2, queue=1), env=made_later()) as api:
        made_before(api, "2014-10-11")
        with store_held(store):
            running = [first_build(api, "2014-03-01"), first_build(api, "2014-03-02")]
            for job in running:
                until_running(api, job)
            queued = first_build(api, "2014-03-03")
            assert status(api, queued) == "queued"
            for heavy in (POOLS, UPDATES, "/v1/facts?cutoff=2014-03-04"):
                busy = api.get(heavy)
                assert problem_of(busy, 429)["type"].endswith("/jobs-busy"), heavy
                assert int(busy.headers["retry-after"]) > 0
            for lookup in LOOKUPS:
                assert api.get(lookup).status_code == 200, lookup
            for unknown in UNKNOWN:  # looked up first: no job, no wait
                assert problem_of(api.get(unknown), 404)["type"].endswith("/unknown-id"), unknown
            # the heavy work was in flight the whole time
            assert [status(api, job) for job in running] == ["running", "running"]
        for job in [*running, queued]:
            assert poll(api, job)["status"] == "done"
        assert api.get(POOLS).status_code == 200


def test_a_queued_heavy_request_answers_202_then_its_answer_from_the_job(store: Path) -> None:
    with serving(store, *pool(workers=1, queue=2), env=made_later(wait=0.2)) as api:
        with store_held(store):
            until_running(api, first_build(api, "2014-03-01"))
            waiting = api.get(POOLS)
            assert waiting.status_code == 202, waiting.text
            job = waiting.json()
            assert job["status"] == "queued"
            assert waiting.headers["location"] == f"/v1/jobs/{job['id']}"
            again = api.get(POOLS)  # an identical request joins the job
            assert again.status_code == 202 and again.json()["id"] == job["id"]
        state = poll(api, waiting.headers["location"])
        assert state["status"] == "done"
        answer = api.get(str(state["result"]))
        assert answer.status_code == 200 and answer.json() == api.get(POOLS).json()
    same_rows(answer.json()["items"], kgdiff.open(store).pools("Q183", "P6", 2003, 2007))


def work_processes(server: psutil.Process) -> list[psutil.Process]:
    """The service's heavy work processes: the children of its forkserver (no SQL query
    runs in these tests)."""
    servers = [p for p in server.children(recursive=True) if "forkserver" in _command(p)]
    return [child for forkserver in servers for child in forkserver.children()]


def _command(process: psutil.Process) -> str:
    try:
        return " ".join(process.cmdline())
    except psutil.Error:
        return ""


def test_the_work_processes_server_starts_with_the_service(store: Path) -> None:
    """The server the heavy work processes are forked from starts with the service (with
    ``POST /v1/sql`` off, before any request), preloading the work processes' modules, so
    the first heavy request does not wait for them to be imported; then a heavy request
    forks its process from it."""
    with server_process(store, *pool(1, 1), env=made_later(wait=600)) as (api, process):
        service = psutil.Process(process.pid)
        deadline = time.monotonic() + 60
        while not (servers := [p for p in service.children(True) if "forkserver" in _command(p)]):
            assert time.monotonic() < deadline, "no forkserver started"
            time.sleep(0.05)
        (server,) = servers
        assert "kgdiff.query.work_child" in _command(server)
        assert api.get(POOLS).status_code == 200
        assert work_processes(service), "the heavy request ran in no process of the server"


def test_a_work_process_killed_fails_its_job_and_the_next_one_runs(store: Path) -> None:
    """The work process runs at the CPU priority it was given (lower than the service's),
    and its death fails its job, not the service."""
    env = made_later() | {"KGDIFF_API_HEAVY_NICE": "3"}
    with server_process(store, *pool(1, 1), env=env) as (api, process):
        with store_held(store):
            job = first_build(api, "2014-03-01")
            until_running(api, job)
            deadline = time.monotonic() + 120
            while not (children := work_processes(psutil.Process(process.pid))):
                assert time.monotonic() < deadline, "no work process started"
                time.sleep(0.05)
            (child,) = children
            lower = psutil.Process(process.pid).nice() + 3
            while child.nice() != lower:  # it lowers its priority once it has started
                assert time.monotonic() < deadline, f"nice {child.nice()}, not {lower}"
                time.sleep(0.05)
            child.kill()
            state = poll(api, job)
            assert state["status"] == "failed" and state["error_kind"] == "WorkerDiedError"
            assert "ask again" in str(state["error"])
        again = first_build(api, "2014-03-01")  # a failed job is run anew
        assert poll(api, again)["status"] == "done"
        assert api.get("/v1/facts?cutoff=2014-03-01&limit=3").status_code == 200


def test_a_work_out_of_memory_fails_its_job_saying_what_to_give_it(store: Path) -> None:
    """A heavy work whose DuckDB runs out of the memory the service gives it: its job fails
    with that said, and what to raise (not as a bug to look up in the server's log)."""
    env = made_later() | {"KGDIFF_API_HEAVY_MEMORY": "4MB"}
    with server_process(store, *pool(1, 1), env=env) as (api, _):
        state = poll(api, first_build(api, "2014-03-01"))
    assert state["status"] == "failed", state
    assert state["error_kind"] == "JobOutOfMemoryError", state
    error = str(state["error"])
    assert "ran out of its 4MB of memory" in error and "KGDIFF_API_HEAVY_MEMORY" in error
