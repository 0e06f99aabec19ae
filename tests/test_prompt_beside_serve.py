"""The DuckDB prompt and ``kgdiff serve`` on one store at once (issue 34, finding 12).

The README starts the service, then tells the reader to open ``duckdb kgdiff-data/kg.duckdb``:
the DuckDB CLI opens it read-write, and DuckDB gives a read-write opener the file to itself.
Before kgdiff's connections read private copies of the catalog, every README query then
failed with "Could not set lock on file ... Conflicting lock is held". Here the README's SQL
runs in the real DuckDB CLI (no flags) while the service answers; and with a CLI session
holding the catalog, the service, a classification and an ingest all go on.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.paths import run_kgdiff
from tests.rest_server import copy_store, serving
from tests.test_readme_examples import queries, query_id

DUCKDB_CLI = str(Path(sys.executable).parent / "duckdb")
LOCK_CONFLICT = "Conflicting lock"


@pytest.fixture(scope="module")
def served(
    demo_store: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Path, httpx.Client]]:
    store = copy_store(demo_store, tmp_path_factory.mktemp("prompt-beside-serve"))
    with serving(store, "--enable-sql") as client:
        _use_every_connection(client)
        yield store, client


def _use_every_connection(client: httpx.Client) -> None:
    """Requests that open each kind of connection the service has: the catalog's, the lookup
    copy's (made in the background at start), a classification's and a SQL query's."""
    for _ in range(100):  # the lookup copy is made in the background after the start
        if client.get("/v1/entities/Q183", params={"date": "2014-06-01"}).status_code == 200:
            break
        time.sleep(0.1)
    facts = client.get("/v1/facts", params={"cutoff": "2014-10-11", "limit": 1})
    assert facts.status_code in (200, 202), facts.text
    sql = client.post("/v1/sql", json={"query": "select count(*) from statements"})
    assert sql.status_code == 200, sql.text


def _cli(store: Path, query: str) -> subprocess.CompletedProcess[str]:
    """The README's command: ``duckdb STORE/kg.duckdb``, read-write, no flags."""
    return subprocess.run(
        [DUCKDB_CLI, str(store / "kg.duckdb"), "-c", query],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("query", queries(), ids=query_id)
def test_each_readme_query_runs_in_the_cli_while_serving(
    served: tuple[Path, httpx.Client], query: str
) -> None:
    store, client = served
    answer = _cli(store, query)
    assert answer.returncode == 0 and LOCK_CONFLICT not in answer.stderr, answer.stderr
    assert client.get("/v1/entities/Q183/timeline", params={"pid": "P6"}).status_code == 200


@contextmanager
def cli_session(store: Path) -> Iterator[subprocess.Popen[str]]:
    """A DuckDB CLI session on the catalog, open (and holding it) until the block ends."""
    session = subprocess.Popen(
        [DUCKDB_CLI, str(store / "kg.duckdb")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert session.stdin is not None and session.stdout is not None
    session.stdin.write(".mode line\nselect 'session' || ' open' as state;\n")
    session.stdin.flush()
    assert "session open" in session.stdout.readline()  # it has the catalog open now
    try:
        yield session
    finally:
        session.stdin.close()
        session.wait(30)


def test_a_cli_session_locks_out_nothing(served: tuple[Path, httpx.Client], tmp_path: Path) -> None:
    store, client = served
    with cli_session(store) as session:
        assert client.get("/health").json()["status"] == "ok"
        assert client.get("/v1/entities/Q31", params={"date": "2014-06-01"}).status_code == 200
        sql = client.post("/v1/sql", json={"query": "select count(*) from entities"})
        assert sql.status_code == 200, sql.text
        classified = run_kgdiff(
            "classify", "--store", str(store), "--init", "2013-12-21", "--cutoff",
            "2014-07-01", "--current", "2014-12-31", "--pid", "P6",
        )  # fmt: skip
        assert classified.returncode == 0, classified.stderr
        dump = Path(__file__).parent / "data" / "wd_Q42.json"
        ingested = run_kgdiff(
            "ingest", "wikidata", str(dump), "--snapshot", "q42", "--date", "2015-01-01",
            "--coverage", "subset", "--store", str(store),
        )  # fmt: skip
        assert ingested.returncode == 0, ingested.stderr
        assert client.get("/v1/snapshots").status_code == 200
        assert session.poll() is None  # the session still runs, on the catalog it opened
    assert client.get("/health").json()["snapshots"] == 4
    reopened = _cli(store, "select count(*) from snapshots")
    assert reopened.returncode == 0 and "4" in reopened.stdout, reopened.stderr
