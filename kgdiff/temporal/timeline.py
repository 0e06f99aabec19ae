"""An entity's timeline: its statements across snapshots (sql/timeline/timeline.sql)."""

from __future__ import annotations

import duckdb
import pyarrow as pa

from kgdiff.ids import normalise_id, normalise_ids
from kgdiff.sqlfiles import as_table_macro, run_arrow


def catalog_macro() -> str:
    """``timeline(qid, pids := [])`` for the catalog."""
    return as_table_macro("timeline/timeline", "timeline", ["qid", "pids"], {"pids": "[]"})


def timeline(
    connection: duckdb.DuckDBPyConnection,
    qid: str,
    pids: list[str] | None = None,
    copied: bool = False,
) -> pa.Table:
    """One row per (property, value, statement) of ``qid``, in time order, with record and
    valid intervals; only the properties ``pids`` when given (ids normalised: ``q42`` is
    ``Q42``; a usage error for one that is no id). ``copied``: ``connection`` is on a lookup
    copy, whose ``timelines`` table holds these rows made by the same SQL."""
    params = {"qid": normalise_id(qid, "the entity"), "pids": normalise_ids(pids or [], "--pid")}
    name = "timeline/timeline_copied" if copied else "timeline/timeline"
    return run_arrow(connection, name, params)
