"""The object sets of every (subject, pid) group at one date (sql/facts/facts_at.sql).

The SQL calls the ``classify`` table macro (the catalog defines it; on another
connection :func:`kgdiff.temporal.classify.define_classify_macro` does), so a fact at a
date means exactly what the classification compares.
"""

from __future__ import annotations

from datetime import date

import duckdb

from kgdiff.sqlfiles import as_table_macro, load_sql
from kgdiff.temporal.classify import check_mode


def catalog_macro() -> str:
    """``facts_at(day, mode := 'record')`` for the catalog (after ``classify``)."""
    return as_table_macro("facts/facts_at", "facts_at", ["day", "mode"], {"mode": "'record'"})


def facts_at(
    connection: duckdb.DuckDBPyConnection, day: date, mode: str = "record"
) -> duckdb.DuckDBPyRelation:
    """The groups with facts at ``day``, as a relation.

    Columns: subject, pid, objects, best, unknown, unknown_reason, snapshot.
    """
    check_mode(mode)
    return connection.sql(load_sql("facts/facts_at"), params={"day": day, "mode": mode})
