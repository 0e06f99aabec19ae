"""kgdiff/query/safe_sql.py called from several threads at once, as the service will: every
query ends as it would alone (answers right, time limits kept, refusals refused), and no
query process outlives its call."""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ThreadPoolExecutor

from kgdiff.query.safe_sql import PROCESS_NAME, SqlLimits, run_safe_sql
from kgdiff.query.sql_errors import SqlError, SqlRefusedError, SqlTimeoutError
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog

TIMEOUT = 1.5  # the slow queries'
ROOMY = 120.0
"""The others' limit, a safety net only: ten query processes starting at once on 2 busy cores
took over 20 s (the former limit) in 3 of 20 runs under a CPU burner."""
QUICK = [
    "SELECT snapshot, count(*) FROM statements GROUP BY 1 ORDER BY 1",
    "SELECT count(*) FROM labels WHERE kind = 'label'",
    "SELECT pid, count(*) FROM timeline('Q183') GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5",
    "SELECT name FROM snapshots ORDER BY date",
]
SLOW = "SELECT count(*) FROM range(1000000000) a, range(1000000) b"
REFUSED = "SELECT 1; SET VARIABLE kgdiff_store = '/'"


def outcome(layout: StoreLayout, query: str) -> object:
    """The rows of the answer, or the error's class."""
    limits = SqlLimits(timeout_seconds=TIMEOUT if query == SLOW else ROOMY)
    try:
        return run_safe_sql(layout, query, limits).rows
    except SqlError as error:
        return type(error)


def expected_rows(layout: StoreLayout, query: str) -> list[list[object]]:
    with open_catalog(layout) as catalog:
        return [list(row) for row in catalog.execute(query).fetchall()]


def our_processes() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.name == PROCESS_NAME]


def most_at_once(done: threading.Event, counts: list[int]) -> None:
    """Count the query processes alive, every few milliseconds until ``done``."""
    while not done.wait(0.005):
        counts.append(len(our_processes()))


def test_queries_at_once_some_timing_out(sql_store: StoreLayout) -> None:
    """Every query ends as it would alone: the slow ones at their time limit (a timeout,
    never an answer), side by side with the others rather than one after another (several
    query processes alive at once). How long the batch takes is the machine's business:
    ten processes starting at once on 2 busy cores took 10 to 18 s under a CPU burner."""
    queries = [*QUICK, SLOW, REFUSED, SLOW, *QUICK]
    expected: list[object] = [expected_rows(sql_store, q) for q in QUICK]
    expected = [*expected, SqlTimeoutError, SqlRefusedError, SqlTimeoutError, *expected]
    done, counts = threading.Event(), [0]
    watcher = threading.Thread(target=most_at_once, args=(done, counts))
    watcher.start()
    try:
        with ThreadPoolExecutor(max_workers=len(queries)) as pool:
            outcomes = list(pool.map(lambda query: outcome(sql_store, query), queries))
    finally:
        done.set()
        watcher.join()
    assert outcomes == expected
    assert max(counts) >= 2, "the queries ran one after another"
    assert our_processes() == []


def test_many_quick_queries_from_few_threads(sql_store: StoreLayout) -> None:
    queries = QUICK * 4
    expected = [expected_rows(sql_store, q) for q in queries]
    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(lambda query: outcome(sql_store, query), queries))
    assert outcomes == expected
    assert our_processes() == []
