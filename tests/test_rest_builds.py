"""The service's state stays bounded whatever clients ask (issue 34, finding 3): the
classification builds made for requests are a cache of ``--max-builds`` (least recently used
out; the command line's builds stay), job files are pruned, a job's result is a link made
from its key (finding 10: never another client's URL), the jobs of a killed server are
failed at the next start and run again when asked, and a failed job always says why
(finding 1: ``error: null``). Each on a real ``kgdiff serve`` process over a copy of the
demo's store."""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from datetime import date
from pathlib import Path

import duckdb
import httpx
import msgspec
import pytest

import kgdiff
from kgdiff.query.jobs import Jobs, JobState
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.builds import planned_build_dir
from tests.rest_server import copy_store_without_builds, server_process, serving
from tests.test_rest_api import problem_of, same_rows
from tests.test_rest_jobs import poll

MARK = "served"
"""The file that marks a build the service made for a request."""
MADE_LATER = {"KGDIFF_API_SYNC_STATEMENTS": "0"}
"""Every classification is too large to make within the request: 202 and its job."""
MADE_WITHIN = {"KGDIFF_API_BUILD_WAIT": "600"}
"""Every classification is waited for, however busy the machine (its request answers 200)."""


@pytest.fixture
def store(demo_store: Path, tmp_path: Path) -> Path:
    return copy_store_without_builds(demo_store, tmp_path)


def builds(store: Path) -> dict[str, bool]:
    """The store's classification builds: their folder name, and whether the service made
    them for a request (marked)."""
    folder = store / "builds" / "classify"
    found = folder.iterdir() if folder.is_dir() else []
    return {b.name: (b / MARK).is_file() for b in found if not b.name.startswith(".")}


def build_of(store: Path, cutoff: str) -> str:
    """The folder name of the demo's classification for ``cutoff`` (nothing is made)."""
    days = (date(2013, 12, 21), date.fromisoformat(cutoff), date(2014, 12, 31))
    return planned_build_dir(StoreLayout.resolve(store), days, "record").name


def catalog_views(store: Path, scratch: Path) -> set[str]:
    """The classification views of the catalog as it is on disk now (read from a copy: this
    process may hold an older catalog open, and DuckDB would hand that back for the path)."""
    copy = scratch / f"catalog-{time.monotonic_ns()}.duckdb"
    shutil.copyfile(store / "kg.duckdb", copy)
    with duckdb.connect(str(copy), read_only=True) as connection:
        rows = connection.execute(
            "SELECT view_name FROM duckdb_views() WHERE view_name LIKE 'classified_%'"
        ).fetchall()
    return {row[0] for row in rows}


def facts(api: httpx.Client, cutoff: str, query: str = "limit=1") -> httpx.Response:
    response = api.get(f"/v1/facts?cutoff={cutoff}&{query}")
    assert response.status_code == 200, response.text
    return response


def test_builds_made_for_requests_are_a_least_recently_used_cache(
    store: Path, tmp_path: Path
) -> None:
    kgdiff.open(store).classify("2014-10-11")  # a build of the Python API, as the CLI's
    by_cli = builds(store)
    assert len(by_cli) == 1 and not any(by_cli.values())
    # two builds fit: the first, used again, outlives the second (first in, first out would
    # evict it); three builds and five cutoffs told the same with two more classifications
    with serving(store, "--no-lookup", "--max-builds", "2", env=MADE_WITHIN) as api:
        for cutoff in ("2014-03-01", "2014-03-02"):
            facts(api, cutoff)
        made = {name for name, served in builds(store).items() if served}
        assert len(made) == 2
        facts(api, "2014-03-01")  # used again: the most recent now
        facts(api, "2014-03-03")
        now = builds(store)
        assert sum(now.values()) == 2 and len(now) == len(by_cli) + 2
        assert set(by_cli) <= set(now)  # the command line's build stays
        assert build_of(store, "2014-03-01") in now  # the least recently used went: not it
        assert build_of(store, "2014-03-03") in now
        assert build_of(store, "2014-03-02") not in now
        assert len(catalog_views(store, tmp_path)) == len(now)  # the catalog shows what is
        # an evicted question is asked again: made again, the same rows
        again = facts(api, "2014-03-02", "limit=1000").json()["items"]
        same_rows(again, kgdiff.open(store).classify("2014-03-02").head(1000))
    assert len(builds(store)) == len(by_cli) + 2


def test_a_build_the_command_line_asks_for_is_never_evicted(store: Path) -> None:
    with serving(store, "--no-lookup", "--max-builds", "1", env=MADE_WITHIN) as api:
        facts(api, "2014-04-01")
        (made,) = [name for name, served in builds(store).items() if served]
        kgdiff.open(store).classify("2014-04-01")  # the Python API asks for it: now its own
        assert builds(store)[made] is False
        facts(api, "2014-04-02")
        facts(api, "2014-04-03")
        assert made in builds(store) and sum(builds(store).values()) == 1


def test_the_updates_classifications_are_builds_made_for_requests(store: Path) -> None:
    """``/v1/updates`` keeps the valid-time classification it rests on as a build (the next
    request for the same dates reads it), counted among ``--max-builds`` like a facts
    page's: a client asking for many cutoffs never fills the disk."""
    with serving(store, "--no-lookup", "--max-builds", "1", env=MADE_WITHIN) as api:
        for cutoff in ("2007-06-01", "2006-06-01", "2005-06-01"):
            answer = api.get(f"/v1/updates?cutoff={cutoff}&current=2014-12-31")
            assert answer.status_code == 200, answer.text
            (made,) = builds(store).items()
            params = json.loads(
                (store / "builds" / "classify" / made[0] / "params.json").read_text()
            )
            assert made[1] and (params["mode"], params["cutoff"]) == ("valid", cutoff)
        assert answer.json()["items"]  # Schröder → Merkel among them


def test_paging_on_after_the_build_was_evicted_makes_it_again(store: Path) -> None:
    from kgdiff.temporal.served_builds import evict_served_builds

    with serving(store, "--no-lookup", env=MADE_WITHIN) as api:
        first = facts(api, "2014-05-01", "limit=50").json()
        evicted = evict_served_builds(StoreLayout.resolve(store), 0)
        assert len(evicted) == 1 and not evicted[0].exists()
        cursor = first["next_cursor"]
        second = facts(api, "2014-05-01", f"limit=50&cursor={cursor}").json()
        whole = facts(api, "2014-05-01", "limit=100").json()["items"]
        assert first["items"] + second["items"] == whole
        assert sum(builds(store).values()) == 1  # made again


def test_a_jobs_result_is_a_link_of_its_own_never_the_clients_url(store: Path) -> None:
    with serving(store, "--no-lookup", env=MADE_LATER) as api:
        asked = "/v1/facts?limit=3&cutoff=2014-06-01&lang=de&subject=Q31&token=secret"
        answer = api.get(asked)
        assert answer.status_code == 202
        state = poll(api, answer.headers["location"])
        link = "/v1/facts?cutoff=2014-06-01&init=2013-12-21&current=2014-12-31&mode=record&lang=de"
        assert state["status"] == "done" and state["result"] == link
        for path in (store / "builds" / "jobs").glob("*.json"):
            assert b"secret" not in path.read_bytes() and b"limit" not in path.read_bytes()
        page = api.get(str(state["result"]))
        assert page.status_code == 200 and page.json()["lang"] == "de"


def test_jobs_past_the_bound_are_refused_with_retry_after(store: Path) -> None:
    options = ("--no-lookup", "--heavy-workers", "1", "--heavy-queue", "0")
    with serving(store, *options, env=MADE_LATER) as api:
        assert api.get("/v1/facts?cutoff=2014-07-01").status_code == 202
        busy = api.get("/v1/facts?cutoff=2014-07-02")
        problem = problem_of(busy, 429)
        assert problem["type"].endswith("/jobs-busy") and busy.headers["retry-after"]


def test_a_job_of_a_killed_server_is_failed_at_start_and_run_again_when_asked(
    store: Path,
) -> None:
    url = "/v1/facts?cutoff=2014-08-01&limit=2"
    with server_process(store, "--no-lookup", env=MADE_LATER) as (api, process):
        answer = api.get(url)
        assert answer.status_code == 202
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    ident = answer.json()["id"]
    left = json.loads((store / "builds" / "jobs" / f"{ident}.json").read_bytes())
    assert left["status"] in ("queued", "running")
    with serving(store, "--no-lookup", env=MADE_LATER) as api:
        state = api.get(f"/v1/jobs/{ident}").json()
        assert state["status"] == "failed" and state["error_kind"] == "ServerStopped"
        assert "ask again" in state["error"]
        again = api.get(url)
        assert again.status_code == 202 and again.json()["status"] in ("queued", "running")
        assert poll(api, again.headers["location"])["status"] == "done"
        assert len(api.get(url).json()["items"]) == 2


def test_a_failed_job_always_says_why(store: Path) -> None:
    """Builds cannot be written (a file where their folder goes): the classification's job
    fails with an internal error. The request answers a problem that says so, and the job
    its error; before, a 202 with ``status: failed`` and ``error: null``."""
    folder = store / "builds" / "classify"
    shutil.rmtree(folder, ignore_errors=True)
    folder.parent.mkdir(exist_ok=True)
    folder.write_text("not a folder")
    with serving(store, "--no-lookup") as api:
        problem = problem_of(api.get("/v1/facts?cutoff=2014-09-01"), 500)
        assert problem["type"].endswith("/job-failed") and "server's log" in problem["detail"]
        (job,) = (store / "builds" / "jobs").glob("*.json")
        state = api.get(f"/v1/jobs/{job.stem}").json()
        assert state["status"] == "failed" and state["error"] and state["error_kind"]


def test_job_files_are_pruned_but_never_an_unfinished_ones(tmp_path: Path) -> None:
    from kgdiff.query.jobs import prune_job_files
    from kgdiff.store.liveness import ProcessMark

    folder = tmp_path / "jobs"
    jobs = Jobs(folder)
    for n in range(5):
        jobs.submit(f"work {n}", f"/v1/x?n={n}", lambda: None).finished.wait(10)
    jobs.close()
    files = sorted(folder.glob("*.json"), key=lambda path: path.stat().st_mtime_ns)
    waiting = JobState("f" * 20, "running", "/v1/x", time.time(), owner=ProcessMark(os.getpid()))
    unfinished = folder / f"{waiting.id}.json"
    unfinished.write_bytes(msgspec.json.encode(waiting))
    leftover = folder / ".0123.json.99999.1"  # a killed writer's temporary file
    leftover.write_text("{")
    two_hours_ago = time.time() - 7200
    for path in [*files[:2], unfinished, leftover]:
        os.utime(path, (two_hours_ago, two_hours_ago))
    # the two old finished ones, and the oldest of the three recent past the newest two
    assert prune_job_files(folder, keep_files=2) == 3
    assert {path.name for path in folder.iterdir()} == {
        files[3].name,
        files[4].name,
        unfinished.name,
    }
