"""Every value a ``pools`` group holds, in any snapshot and any year, so that none is offered
as a distractor (docs/benchmark-export.md#the-pools-config): the pools read only the export's
years, and a value of another year of the group (Zürich's population of 1953, Google's
employees of 2012) is no wrong answer but an outdated one. Items are also kept from what the
subject holds under relations of their kind (:mod:`kgdiff.export.distractors.subject_truths`);
dates, quantities and strings only here."""

from __future__ import annotations

import duckdb
import polars as pl

from kgdiff.sqlfiles import load_sql

HELD_SCHEMA = pl.Schema({"group_id": pl.String(), "held": pl.List(pl.String())})
"""A group's pools id (``pools/<subject>/<pid>``) and every value key it holds."""


def read_held_values(connection: duckdb.DuckDBPyConnection, groups: pl.DataFrame) -> pl.DataFrame:
    """The values (:data:`HELD_SCHEMA`) each group of ``groups`` (``subject``, ``pid``) holds
    in any snapshot (sql/export/group_values.sql)."""
    wanted = groups.select("subject", "pid").unique()
    if not wanted.height:
        return pl.DataFrame(schema=HELD_SCHEMA)
    connection.register("pool_groups", wanted.to_arrow())
    try:
        found: pl.DataFrame = connection.sql(load_sql("export/group_values")).pl()
    finally:
        connection.unregister("pool_groups")
    return found.select(
        pl.concat_str(pl.lit("pools/"), "subject", pl.lit("/"), "pid").alias("group_id"), "held"
    ).cast(HELD_SCHEMA)


def with_held(rows: pl.DataFrame, held: pl.DataFrame) -> pl.DataFrame:
    """``rows`` (records with ``group_id`` and ``all_answers``) whose ``all_answers``, what
    no distractor may be, also hold every value their group holds (``held``)."""
    joined = rows.join(held, on="group_id", how="left", maintain_order="left")
    every = pl.concat_list("all_answers", pl.col("held").fill_null(pl.lit([], HELD_SCHEMA["held"])))
    return joined.with_columns(every.list.unique(maintain_order=True).alias("all_answers")).drop(
        "held"
    )
