"""An entity's timeline: its statements across snapshots (sql/timeline/timeline.sql)."""

from __future__ import annotations

import re

import duckdb

from kgdiff.errors import UsageError
from kgdiff.sqlfiles import load_sql

ENTITY_ID = re.compile(r"[QPL][1-9][0-9]*")


def timeline(connection: duckdb.DuckDBPyConnection, qid: str) -> duckdb.DuckDBPyConnection:
    """One row per (property, value, statement) of ``qid``, with record and valid intervals."""
    if not ENTITY_ID.fullmatch(qid):
        raise UsageError(f"{qid!r} is not an entity id like Q42, P31 or L1")
    return connection.execute(load_sql("timeline/timeline"), {"qid": qid})
