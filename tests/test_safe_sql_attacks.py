"""Attacks on kgdiff/query/safe_sql.py (issue 23): each is refused with one clear line, or
cut off within its limit; the next ordinary query still answers; and no file of the store
changes, nor does one appear in it or in the current folder, whatever was tried.

``{store}`` in a query stands for the store's folder (no trailing ``/``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kgdiff.query.json_values import Json
from kgdiff.query.safe_sql import KILL_GRACE_SECONDS, SqlLimits, run_safe_sql
from kgdiff.query.sql_errors import (
    SqlError,
    SqlInvalidError,
    SqlOutOfMemoryError,
    SqlRefusedError,
    SqlTimeoutError,
    SqlTooLargeError,
)
from kgdiff.store.layout import StoreLayout
from tests.safe_sql_store import file_digests

LIMITS = SqlLimits(timeout_seconds=2.0, max_rows=100)
# A time limit no machine reaches, for the attacks that only memory or the answer's size may
# stop: their outcome must not depend on the machine's speed or load (issue 34).
ROOMY_TIME = SqlLimits(timeout_seconds=600.0, max_rows=100)
MARGIN_SECONDS = 2.0  # process start and teardown on a busy 2-core machine
NORMAL = "SELECT count(*) FROM statements"
ANSWERED = "answered, capped"
TYPE = "statement); only one read-only SELECT or WITH statement is answered"
DUCKDB = "refused by DuckDB: Permission Error: Cannot access file"
LIMIT = "ran past its time limit of 2 s"
STOPPED = (SqlTimeoutError, SqlTooLargeError)


@dataclass(frozen=True)
class Attack:
    name: str
    query: str
    outcome: type[SqlError] | tuple[type[SqlError], ...] | str
    says: str = ""
    limits: SqlLimits = LIMITS


ATTACKS = [
    # -- statements other than one SELECT: refused by their type, as DuckDB's parser sees it
    Attack("re-point the views", "SET VARIABLE kgdiff_store = '/'", SqlRefusedError, "SET (set"),
    Attack("raise the memory limit", "SET memory_limit = '100GB'", SqlRefusedError, TYPE),
    Attack("external access back", "SET enable_external_access = true", SqlRefusedError, TYPE),
    Attack("unlock", "RESET lock_configuration", SqlRefusedError, "RESET (set"),
    Attack("pragma", "PRAGMA enable_profiling", SqlRefusedError, "PRAGMA (pragma"),
    Attack("attach a new file", "ATTACH '{store}/evil.duckdb' AS evil", SqlRefusedError, "ATTACH"),
    Attack("detach the catalog", "DETACH kg", SqlRefusedError, "DETACH (detach"),
    Attack("use another database", "USE system", SqlRefusedError, "USE (set"),
    Attack("copy out", "COPY (SELECT 1) TO '{store}/evil.csv'", SqlRefusedError, "COPY (copy"),
    Attack("copy in", "COPY statements FROM '/etc/passwd'", SqlRefusedError, "COPY (copy"),
    Attack("export", "EXPORT DATABASE '{store}/export'", SqlRefusedError, "EXPORT (export"),
    Attack("import", "IMPORT DATABASE '/tmp'", SqlRefusedError, "IMPORT (pragma"),
    Attack("load httpfs", "LOAD httpfs", SqlRefusedError, "LOAD (load"),
    Attack("install httpfs", "INSTALL httpfs", SqlRefusedError, "INSTALL (load"),
    Attack("update extensions", "UPDATE EXTENSIONS", SqlRefusedError, "type unknown here"),
    Attack("call", "CALL pragma_version()", SqlRefusedError, "CALL (call"),
    Attack("checkpoint", "CHECKPOINT", SqlRefusedError, "CHECKPOINT (call"),
    Attack("force checkpoint", "FORCE CHECKPOINT", SqlRefusedError, "FORCE (call"),
    Attack("transaction", "BEGIN TRANSACTION", SqlRefusedError, "BEGIN (transaction"),
    Attack("explain analyze", "EXPLAIN ANALYZE " + NORMAL, SqlRefusedError, "EXPLAIN (explain"),
    Attack(
        "replace the root macro",
        "CREATE OR REPLACE MACRO kgdiff_store_root() AS '/'",
        SqlRefusedError,
        "CREATE (create",
    ),
    Attack("shadow a view", "CREATE TEMP VIEW statements AS SELECT 1", SqlRefusedError, TYPE),
    Attack("secret", "CREATE SECRET (TYPE s3, KEY_ID 'k', SECRET 's')", SqlRefusedError, TYPE),
    Attack("drop", "DROP VIEW statements", SqlRefusedError, "DROP (drop"),
    Attack("with insert", "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", SqlRefusedError),
    Attack("prepare", "PREPARE p AS SELECT 1", SqlRefusedError, "PREPARE (prepare"),
    Attack("vacuum", "VACUUM", SqlRefusedError, TYPE),
    Attack("pivot", "PIVOT statements ON rank USING count(*)", SqlRefusedError, "PIVOT (multi"),
    # -- several statements, however glued: DuckDB's parser counts them
    Attack("two", "SELECT 1; SET VARIABLE kgdiff_store = '/'", SqlRefusedError, "2 statements"),
    Attack("quoted ;", "SELECT ';' AS a; ATTACH ':memory:' AS m", SqlRefusedError, "2 statements"),
    Attack(
        "comments", "/* ; */ SELECT 1; -- ;\nDROP VIEW statements", SqlRefusedError, "2 statements"
    ),
    Attack("nul", "SELECT 1\x00; ATTACH ':memory:' AS m", SqlRefusedError, "2 statements"),
    Attack("commented select", "/* SELECT 1 */ SET threads = 8", SqlRefusedError, "SET (set"),
    Attack("line comment", "-- SELECT 1\nATTACH ':memory:' AS m", SqlRefusedError, "ATTACH"),
    Attack("greek ;", "SELECT 1\u037e ATTACH ':memory:' AS m", SqlInvalidError, "cannot parse"),
    Attack("only a comment", "-- SELECT 1", SqlRefusedError, "no statement"),
    Attack("deep", "SELECT " + "abs(" * 900 + "1" + ")" * 900, SqlRefusedError, "too deeply"),
    # -- functions that run SQL from text, write, or leave the store: refused by name
    Attack("query()", "SELECT * FROM query('SELECT 1')", SqlRefusedError, "query() runs SQL"),
    Attack("quoted", "SELECT * FROM \"QUERY\"('SELECT 1')", SqlRefusedError, "query() runs"),
    Attack(
        "query_table()",
        "SELECT * FROM system.main.query_table('statements')",
        SqlRefusedError,
        "query_table()",
    ),
    Attack(
        "in a lambda",
        "SELECT list_transform([1], x -> (SELECT count(*) FROM query_table('statements')))",
        SqlRefusedError,
        "query_table()",
    ),
    Attack(
        "the catalog's pooling macro",
        "SELECT * FROM kgdiff_pooled('statements', 'snapshots')",
        SqlRefusedError,
        "kgdiff_pooled() reads relations named by text",
    ),
    Attack(
        "the pooling macro in a CTE",
        "WITH p AS (SELECT 1 AS idx) SELECT count(*) FROM main.kgdiff_pooled('labels', 'p')",
        SqlRefusedError,
        "kgdiff_pooled()",
    ),
    Attack(
        "serialized",
        "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))",
        SqlRefusedError,
        "json_execute_serialized_sql() runs SQL",
    ),
    Attack("getenv", "SELECT getenv('HOME')", SqlRefusedError, "getenv() reads the server's"),
    Attack("checkpoint()", "SELECT * FROM checkpoint()", SqlRefusedError, "writes the database"),
    Attack(
        "log to a file",
        "SELECT * FROM enable_logging(storage := 'file', storage_path := '{store}/log')",
        SqlRefusedError,
        "enable_logging()",
    ),
    Attack("write_log", "SELECT write_log('x')", SqlRefusedError, "write_log()"),
    Attack(
        "read_duckdb",
        "SELECT * FROM read_duckdb('{store}/kg.duckdb', table_name := 'x')",
        SqlRefusedError,
        "read_duckdb() opens a database file",
    ),
    Attack("secrets", "SELECT * FROM duckdb_secrets()", SqlRefusedError, "duckdb_secrets()"),
    # -- files outside the store and the network: DuckDB's own guard
    Attack("passwd", "SELECT * FROM read_csv('/etc/passwd')", SqlRefusedError, DUCKDB),
    Attack("escape", "SELECT * FROM read_text('{store}/../x.txt')", SqlRefusedError, DUCKDB),
    Attack("sibling", "SELECT * FROM read_text('{store}-evil/a.txt')", SqlRefusedError, DUCKDB),
    Attack("glob", "SELECT * FROM glob('/etc/*')", SqlRefusedError, DUCKDB),
    Attack("home", "SELECT * FROM read_text('~/.bashrc')", SqlRefusedError, DUCKDB),
    Attack(
        "https",
        "SELECT * FROM read_parquet('https://example.com/x.parquet')",
        SqlRefusedError,
        DUCKDB,
    ),
    Attack("s3", "SELECT * FROM read_parquet('s3://bucket/x.parquet')", SqlRefusedError, DUCKDB),
    Attack("file url", "SELECT * FROM read_csv('file:///etc/passwd')", SqlRefusedError, DUCKDB),
    Attack("replacement scan", "SELECT * FROM '/etc/passwd'", SqlInvalidError, "does not exist"),
    # -- limits: time, memory, rows, answer size
    Attack(
        "cross join",
        "SELECT count(*) FROM range(1000000000) a, range(1000000) b",
        SqlTimeoutError,
        LIMIT,
    ),
    Attack(
        "statements cubed",
        "SELECT count(*) FROM statements a, statements b, statements c",
        SqlTimeoutError,
        LIMIT,
    ),
    Attack(
        "endless recursion",
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
        SqlTimeoutError,
        LIMIT,
    ),
    Attack(
        "endless rows",
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r",
        ANSWERED,
    ),
    Attack("ten billion rows", "SELECT * FROM range(10000000000)", ANSWERED),
    Attack("sleep", "SELECT sleep_ms(600000)", SqlTimeoutError, LIMIT),
    Attack("giant string", "SELECT repeat('x', 1000000000)", STOPPED),
    # string_agg doubles its buffer: 512 MiB more is past DuckDB's limit, however fast
    Attack(
        "giant aggregate",
        "SELECT string_agg(repeat('x', 1000000), '') FROM range(2000)",
        SqlOutOfMemoryError,
        "out of memory: the query needs more than its memory limit of 1GB",
        ROOMY_TIME,
    ),
    # which limit stops it first depends on the machine's speed: either is a refusal in bounds
    Attack(
        "giant list",
        "SELECT list(i) FROM range(1000000000) t(i)",
        STOPPED,
        "limit",
    ),
    Attack(
        "giant answer",
        "SELECT repeat('x', 1000000) FROM range(100)",
        SqlTooLargeError,
        "bytes of JSON",
        ROOMY_TIME,
    ),
]


@pytest.fixture(scope="module")
def pristine(sql_store: StoreLayout) -> Iterator[dict[str, str]]:
    """Every file of the store before the first attack, and a file beside the store whose
    folder's name starts with the store's (``store-evil``)."""
    sibling = sql_store.root.with_name(sql_store.root.name + "-evil")
    sibling.mkdir()
    (sibling / "a.txt").write_text("secret\n")
    yield file_digests(sql_store.root)
    (sibling / "a.txt").unlink()
    sibling.rmdir()


@pytest.fixture(scope="module")
def normal_answer(sql_store: StoreLayout) -> list[list[Json]]:
    return run_safe_sql(sql_store, NORMAL).rows


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda attack: attack.name)
def test_attack(
    attack: Attack,
    sql_store: StoreLayout,
    pristine: dict[str, str],
    normal_answer: list[list[Json]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # the query's process starts here: a stray write would show
    query = attack.query.replace("{store}", str(sql_store.root))
    started = time.monotonic()
    limits = attack.limits
    if attack.outcome == ANSWERED:
        answer = run_safe_sql(sql_store, query, limits)
        assert answer.truncated and len(answer.rows) == limits.max_rows
    else:
        assert not isinstance(attack.outcome, str)
        with pytest.raises(attack.outcome) as caught:
            run_safe_sql(sql_store, query, limits)
        message = str(caught.value)
        assert "\n" not in message and attack.says in message, message
        assert caught.value.exit_code == 2
    assert time.monotonic() - started < limits.timeout_seconds + KILL_GRACE_SECONDS + MARGIN_SECONDS
    assert run_safe_sql(sql_store, NORMAL).rows == normal_answer
    assert file_digests(sql_store.root) == pristine
    assert list(tmp_path.iterdir()) == []


def test_the_list_covers_the_issue() -> None:
    assert len(ATTACKS) >= 30
    assert len({attack.name for attack in ATTACKS}) == len(ATTACKS)
