"""Each wall of kgdiff/query/safe_sql.py on its own, without the ones before it: the
connection's DuckDB settings, and the kernel's write barrier (Landlock), hit by statements
the parser checks would have refused."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from kgdiff.query.write_barrier import landlock_abi
from kgdiff.store.layout import StoreLayout
from tests.paths import ROOT
from tests.safe_sql_store import file_digests

# Runs in a fresh interpreter: a locked-down connection (and, with "barrier", the write
# barrier) takes statements straight, and prints what became of each, one JSON per line.
PROBE = """
import json, os, socket, sys
from pathlib import Path
from kgdiff.query.sql_child import scrub_environment
from kgdiff.query.sql_limits import SqlLimits
from kgdiff.query.sql_session import locked_connection
from kgdiff.query.write_barrier import forbid_writes
from kgdiff.store.layout import StoreLayout

store, mode, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
if mode == "barrier":
    assert forbid_writes()
if mode == "scrub":
    scrub_environment()
os.chdir(store)
layout = StoreLayout(Path(store))
connection = locked_connection(layout, layout.catalog, SqlLimits())
for statement in sys.stdin.read().split(";\\n"):
    try:
        rows = connection.execute(statement.replace("{store}", store)).fetchall()
        print(json.dumps([statement, "done"]))
        print(json.dumps([statement + " -> rows", repr(rows)]))
    except Exception as error:
        print(json.dumps([statement, str(error).splitlines()[0]]))
try:
    socket.create_connection(("127.0.0.1", port), timeout=5).close()
    print(json.dumps(["connect", "done"]))
except OSError as error:
    print(json.dumps(["connect", str(error)]))
"""
WRITES = [
    "COPY (SELECT 1) TO '{store}/evil.csv'",
    "COPY (SELECT 1) TO '{store}/snapshots/snapshot=wd-2014-12/manifest.json' (FORMAT csv)",
    "EXPORT DATABASE '{store}/export'",
]
DUCKDB_REFUSES = [
    "SELECT * FROM read_csv('/etc/passwd')",
    "COPY (SELECT 1) TO '/tmp/kgdiff-evil.csv'",
    "SET threads = 8",
    "SET enable_external_access = true",
    "LOAD httpfs",
    "SELECT * FROM read_parquet('https://example.com/x.parquet')",
]


def probe(
    store: Path, mode: str, statements: list[str], env: dict[str, str] | None = None
) -> dict[str, str]:
    """What each statement came to on a locked-down connection (``mode`` "barrier": with
    the write barrier too; "scrub": with the environment emptied as the query's process
    does), and a TCP connection to a port that listens."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = str(listener.getsockname()[1])
        result = subprocess.run(
            [sys.executable, "-c", PROBE, str(store), mode, port],
            input=";\n".join(statements),
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=120,
            check=True,
        )
    return dict(json.loads(line) for line in result.stdout.splitlines())


@pytest.fixture
def throwaway(sql_store: StoreLayout, tmp_path: Path) -> Path:
    """A copy of the store that a test may see written to."""
    return Path(shutil.copytree(sql_store.root, tmp_path / "store"))


def test_the_connection_is_locked_down(sql_store: StoreLayout) -> None:
    # read on the connection itself: the guard refuses current_setting() (issue 34)
    expected = {
        "enable_external_access": "false",
        "lock_configuration": "true",
        "allowed_directories": f"[{sql_store.root}/]",
        "temp_directory": "",
        "max_temp_directory_size": "0 bytes",
        "autoinstall_known_extensions": "false",
        "autoload_known_extensions": "false",
        "allow_community_extensions": "false",
        "allow_persistent_secrets": "false",
        "python_enable_replacements": "false",
        "threads": "1",
        "memory_limit": "953.6 MiB",  # 1GB
        "max_execution_time": "10000",  # ms
    }
    queries = {name: f"SELECT current_setting('{name}')::VARCHAR" for name in expected}
    outcomes = probe(sql_store.root, "none", [*queries.values(), "SELECT kgdiff_store_root()"])
    found = {name: outcomes[query + " -> rows"] for name, query in queries.items()}
    assert found == {name: repr([(value,)]) for name, value in expected.items()}
    assert outcomes["SELECT kgdiff_store_root() -> rows"] == "[('',)]"


def test_the_environment_does_not_show(sql_store: StoreLayout) -> None:
    # DuckDB reads its http_proxy setting from $HTTP_PROXY, password and all; the guard
    # refuses duckdb_settings(), and the emptied environment holds without it
    query = "SELECT name FROM duckdb_settings() WHERE value LIKE '%hunter2%'"
    proxy = "http://user:hunter2@proxy.invalid:3128"
    env = {**os.environ, "HTTP_PROXY": proxy, "http_proxy": proxy}
    assert probe(sql_store.root, "none", [query], env)[query + " -> rows"] != "[]"
    assert probe(sql_store.root, "scrub", [query], env)[query + " -> rows"] == "[]"


def test_duckdb_refuses_without_the_parser_checks(throwaway: Path) -> None:
    httpfs = "SELECT count(*) FROM duckdb_settings() WHERE name LIKE 's3_%'"
    outcomes = probe(throwaway, "none", [*DUCKDB_REFUSES, httpfs])
    assert all(outcomes[statement] != "done" for statement in DUCKDB_REFUSES), outcomes
    assert not Path("/tmp/kgdiff-evil.csv").exists()
    assert outcomes[httpfs + " -> rows"] == "[(0,)]"  # the https read loaded no httpfs


def test_duckdb_alone_would_write_into_the_store(throwaway: Path) -> None:
    # why the write barrier exists: the store's folder is allowed, for reading and writing
    before = file_digests(throwaway)
    outcomes = probe(throwaway, "none", WRITES)
    assert [outcomes[statement] for statement in WRITES] == ["done"] * len(WRITES)
    assert file_digests(throwaway) != before


@pytest.mark.skipif(landlock_abi() < 4, reason="no Landlock with TCP rules in this kernel")
def test_the_kernel_refuses_writes_and_connections(throwaway: Path) -> None:
    before = file_digests(throwaway)
    outcomes = probe(throwaway, "barrier", [*WRITES, "SELECT count(*) FROM statements"])
    assert all("Permission denied" in outcomes[statement] for statement in WRITES), outcomes
    assert outcomes["SELECT count(*) FROM statements"] == "done"
    assert "Permission denied" in outcomes["connect"]
    assert file_digests(throwaway) == before
