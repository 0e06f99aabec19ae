"""An entity's timeline: its statements across snapshots (sql/timeline/timeline.sql)."""

from __future__ import annotations

import duckdb

from kgdiff.sqlfiles import as_table_macro, load_sql


def catalog_macro() -> str:
    """``timeline(qid, pids := [])`` for the catalog."""
    return as_table_macro("timeline/timeline", "timeline", ["qid", "pids"], {"pids": "[]"})


def timeline(
    connection: duckdb.DuckDBPyConnection, qid: str, pids: list[str] | None = None
) -> duckdb.DuckDBPyRelation:
    """One row per (property, value, statement) of ``qid`` (a normalised id), in time order,
    with record and valid intervals; only the properties ``pids`` when given."""
    return connection.sql(load_sql("timeline/timeline"), params={"qid": qid, "pids": pids or []})
