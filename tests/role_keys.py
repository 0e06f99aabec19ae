"""People's role keys made as an export makes them (``sql/export/role_keys.sql``) from a few
rows, for tests that set up choices by hand."""

from __future__ import annotations

import tempfile
from pathlib import Path

import duckdb
import polars as pl

from kgdiff.export.distractors.human_roles import KEYS_SCHEMA, write_role_keys


def keys_by_row(rows: list[tuple[str, str, str, str]]) -> pl.DataFrame:
    """Each person's keys worked out from its statements (``value``, ``pid``, ``role``,
    ``rank``) one by one: its roles, its sexes, each role with each sex, each kind sorted;
    deprecated statements left out."""
    jobs: dict[str, set[str]] = {}
    sexes: dict[str, set[str]] = {}
    for value, pid, role, rank in rows:
        if rank != "deprecated":
            (sexes if pid == "P21" else jobs).setdefault(value, set()).add(role)
    people = sorted({*jobs, *sexes})
    keys = []
    for person in people:
        held, sexed = sorted(jobs.get(person, ())), sorted(sexes.get(person, ()))
        pairs = sorted(f"sex {sex} role {role}" for sex in sexed for role in held)
        keys.append([f"role {r}" for r in held] + [f"sex {s}" for s in sexed] + pairs)
    return pl.DataFrame({"value": people, "keys": keys}, schema=KEYS_SCHEMA)


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


def role_keys_lazy(roles: pl.DataFrame) -> pl.LazyFrame:
    """:func:`role_keys` as :func:`~kgdiff.export.distractors.human_roles.with_roles` reads
    them (lazily)."""
    return role_keys(roles).lazy()
