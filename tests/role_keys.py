"""People's role keys made as an export makes them (``sql/export/role_keys.sql``) from a few
rows, for tests that set up choices by hand."""

from __future__ import annotations

import tempfile
from pathlib import Path

import duckdb
import polars as pl

from kgdiff.export.distractors.human_roles import write_role_keys


def role_keys(roles: pl.DataFrame, ranks: list[str] | None = None) -> pl.DataFrame:
    """The role keys of the people of ``roles`` (``value``: a person, ``pid``: P21, P106 or
    P39, ``role``: the item it names; each statement of rank ``ranks[i]``, normal when None),
    as DuckDB writes them for a store holding those statements, in memory."""
    statements = roles.select(
        pl.col("value").alias("subject"),
        "pid",
        pl.col("role").alias("object_qid"),
        pl.Series("rank", ranks or ["normal"] * roles.height, dtype=pl.String()),
    )
    with tempfile.TemporaryDirectory() as folder, duckdb.connect() as connection:
        connection.register("held_rows", statements.to_arrow())
        connection.execute("CREATE VIEW statements AS SELECT * FROM held_rows")
        return write_role_keys(connection, Path(folder)).collect()
