"""``kill -9`` of a kgdiff command's main process leaves none of its processes running
(issue 34, finding 5: the resource tracker, the forkserver and two parse workers of a killed
ingest, ~310 MB, lived on for minutes).

Each test starts a real command in a session of its own, waits until its children are all
there (walking ``/proc``), sends ``SIGKILL`` to the main process only, and then looks for any
process of the session: an orphan changes parent but keeps its session. Commands that start
processes: ``kgdiff ingest wikidata`` (lbzip2, the forkserver, the parse workers, the
resource tracker) and ``kgdiff serve --enable-sql`` (with ``--workers N``: uvicorn's worker
processes, a forkserver per worker, the query processes). The other commands run threads
only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.paths import SAMPLES
from tests.process_tree import Process, children_of, in_session, left_after, wait_for_tree
from tests.rest_server import copy_store, free_port

pytestmark = pytest.mark.timeout(300)

GRACE = 5.0
"""Seconds the processes of a killed command may take to end (the issue's requirement)."""
START = 120.0
"""Seconds a command may take to have all its children (a loaded machine)."""
SAMPLE = SAMPLES / "testDump_json_2014-12.json.bz2"
SLOW_QUERY = "SELECT count(*) FROM range(1000000000) a, range(1000000) b"
FORKSERVER = "multiprocessing.forkserver"
TRACKER = "multiprocessing.resource_tracker"
SPAWNED = "multiprocessing.spawn"


@contextlib.contextmanager
def session(args: list[str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``args`` running as the leader of a new session; whatever is left of the session is
    killed when the block ends, so that a failing test leaves nothing behind either."""
    with log.open("wb") as out:
        main = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True, cwd=log.parent,
        )  # fmt: skip
    try:
        yield main
    finally:
        for process in in_session(main.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGKILL)
        main.kill()
        main.wait()


def kill_main(main: subprocess.Popen[bytes]) -> list[Process]:
    """SIGKILL the main process alone; what is left of its session after :data:`GRACE` s."""
    os.kill(main.pid, signal.SIGKILL)
    main.wait()
    return left_after(main.pid, GRACE)


def described(processes: list[Process]) -> str:
    return "\n".join(f"{p.pid} (parent {p.parent}): {p.command[:150]}" for p in processes)


def test_a_killed_ingest_leaves_no_process(tmp_path: Path) -> None:
    """Killed while parsing: lbzip2, the forkserver, both parse workers and the resource
    tracker end within seconds."""
    args = [
        sys.executable, "-m", "kgdiff", "ingest", "wikidata", str(SAMPLE), "--snapshot", "killed",
        "--date", "2014-12-01", "--store", str(tmp_path / "store"), "--workers", "2",
        "--chunk-mb", "1", "--quiet",
    ]  # fmt: skip
    lbzip2 = shutil.which("lbzip2") is not None

    def parsing(processes: list[Process]) -> bool:
        return (
            len(children_of(processes, FORKSERVER)) >= 2
            and any(process.runs(TRACKER) for process in processes)
            and (not lbzip2 or any(process.runs("lbzip2") for process in processes))
        )

    with session(args, tmp_path / "ingest.log") as main:
        seen = wait_for_tree(main.pid, parsing, START)
        left = kill_main(main)
    assert left == [], f"left running:\n{described(left)}\nof:\n{described(seen)}"


def _query(port: int, answers: list[int]) -> None:
    """Post the slow query; the status, or nothing when the server dies under it."""
    with contextlib.suppress(httpx.HTTPError):
        response = httpx.post(
            f"http://127.0.0.1:{port}/v1/sql", json={"query": SLOW_QUERY}, timeout=START,
            trust_env=False,
        )  # fmt: skip
        answers.append(response.status_code)


def _wait_until_up(port: int, main: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START
    while time.monotonic() < deadline and main.poll() is None:
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"http://127.0.0.1:{port}/health", trust_env=False).status_code == 200:
                return
        time.sleep(0.1)
    raise AssertionError(f"kgdiff serve did not start:\n{log.read_text()}")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_killed_server_leaves_no_process(
    sample_store: Path, tmp_path: Path, workers: int
) -> None:
    """Killed while a query runs: uvicorn's workers, their forkservers, the query's process
    and the resource tracker end within seconds."""
    store = copy_store(sample_store, tmp_path)
    port = free_port()
    args = [
        sys.executable, "-m", "kgdiff", "serve", "--store", str(store), "--port", str(port),
        "--workers", str(workers), "--enable-sql", "--sql-timeout", str(START), "--no-lookup",
    ]  # fmt: skip

    def querying(processes: list[Process]) -> bool:
        spawned = [process for process in processes if process.runs(SPAWNED)]
        return (workers == 1 or len(spawned) == workers) and bool(
            children_of(processes, FORKSERVER)
        )

    log = tmp_path / "serve.log"
    answers: list[int] = []
    with session(args, log) as main:
        _wait_until_up(port, main, log)
        client = threading.Thread(target=_query, args=(port, answers), daemon=True)
        client.start()
        seen = wait_for_tree(main.pid, querying, START)
        left = kill_main(main)
        client.join(START)
    assert answers == [], "the query was answered before the server was killed"
    assert left == [], f"left running:\n{described(left)}\nof:\n{described(seen)}"
