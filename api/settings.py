"""The service's settings, read from the environment (``kgdiff serve`` sets them; a
process manager or a test may set them itself)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from api.limits import RequestLimits
from kgdiff.errors import UsageError
from kgdiff.query.build_limits import BuildLimits
from kgdiff.query.jobs import DEFAULT_QUEUE, DEFAULT_WORKERS
from kgdiff.query.safe_sql import SqlLimits
from kgdiff.query.work_limits import MEMORY_ENV, WorkLimits

STORE = "KGDIFF_STORE"
ENABLE_SQL = "KGDIFF_API_ENABLE_SQL"
SYNC_STATEMENTS = "KGDIFF_API_SYNC_STATEMENTS"
BUILD_WAIT = "KGDIFF_API_BUILD_WAIT"
SQL_TIMEOUT = "KGDIFF_API_SQL_TIMEOUT"
SQL_MAX_ROWS = "KGDIFF_API_SQL_MAX_ROWS"
SQL_CONCURRENCY = "KGDIFF_API_SQL_CONCURRENCY"
MAX_BODY = "KGDIFF_API_MAX_BODY"
MAX_URL = "KGDIFF_API_MAX_URL"
MAX_BUILDS = "KGDIFF_API_MAX_BUILDS"
HEAVY_WORKERS = "KGDIFF_API_HEAVY_WORKERS"
HEAVY_QUEUE = "KGDIFF_API_HEAVY_QUEUE"
HEAVY_NICE = "KGDIFF_API_HEAVY_NICE"
HEAVY_MEMORY = MEMORY_ENV
DEFAULT_SQL_CONCURRENCY = 2
"""``POST /v1/sql`` queries a worker runs at once (each is a process with up to 1 GB)."""


@dataclass(frozen=True)
class Settings:
    """The store served, whether ``POST /v1/sql`` is on, its limits and how many of its
    queries a worker runs at once, when a classification is made within a request and how
    many made for requests the store keeps (:class:`~kgdiff.query.build_limits.BuildLimits`),
    the largest request body and URL taken, and how many heavy requests a worker runs at
    once (``heavy_workers``, each in a process of its own, within ``work_limits``) and keeps
    waiting (``heavy_queue``; more are answered 429: :mod:`api.heavy`)."""

    store: Path | None = None
    enable_sql: bool = False
    limits: BuildLimits = field(default_factory=BuildLimits)
    sql_limits: SqlLimits = field(default_factory=SqlLimits)
    sql_concurrency: int = DEFAULT_SQL_CONCURRENCY
    requests: RequestLimits = field(default_factory=RequestLimits)
    heavy_workers: int = DEFAULT_WORKERS
    heavy_queue: int = DEFAULT_QUEUE
    work_limits: WorkLimits = field(default_factory=WorkLimits)

    @classmethod
    def from_env(cls) -> Settings:
        """The settings the environment gives (defaults for what it leaves out)."""
        store = os.environ.get(STORE)
        defaults = BuildLimits()
        limits = BuildLimits(
            int(_number(SYNC_STATEMENTS, defaults.sync_statements)),
            _number(BUILD_WAIT, defaults.wait_seconds),
            max(1, int(_number(MAX_BUILDS, defaults.max_builds))),
        )
        enabled = os.environ.get(ENABLE_SQL, "").lower() in ("1", "true", "yes")
        sql = SqlLimits()
        sql_limits = SqlLimits(
            timeout_seconds=_number(SQL_TIMEOUT, sql.timeout_seconds),
            max_rows=int(_number(SQL_MAX_ROWS, sql.max_rows)),
        )
        concurrency = max(1, int(_number(SQL_CONCURRENCY, DEFAULT_SQL_CONCURRENCY)))
        store_path = Path(store) if store else None
        taken = RequestLimits()
        requests = RequestLimits(
            int(_number(MAX_BODY, taken.max_body)), int(_number(MAX_URL, taken.max_url))
        )
        heavy_workers = max(1, int(_number(HEAVY_WORKERS, DEFAULT_WORKERS)))
        heavy_queue = int(_number(HEAVY_QUEUE, DEFAULT_QUEUE))
        work = WorkLimits()
        work_limits = WorkLimits(
            memory_limit=os.environ.get(HEAVY_MEMORY) or work.memory_limit,
            nice=min(19, int(_number(HEAVY_NICE, work.nice))),
        )
        return cls(
            store_path,
            enabled,
            limits,
            sql_limits,
            concurrency,
            requests,
            heavy_workers,
            heavy_queue,
            work_limits,
        )


def _number(name: str, default: float) -> float:
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"${name}={text!r} is not a number") from None
    if value < 0:
        raise UsageError(f"${name}={text!r} must not be negative")
    return value
