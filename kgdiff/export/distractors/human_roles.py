"""The kind keys of people: a human's distractors share a role with it, not merely the class
human (docs/benchmark-export.md#option-kind-agreement).

Every item of class human (Q5) that the store gives a sex (P21), an occupation (P106) or a
position held (P39) gains, besides its classes, the keys ``role <id>`` for each occupation and
position, ``sex <id>`` for its sex and ``sex <id> role <id>`` for both together: the tiers a
head of government's distractors are drawn from hold politicians and heads of government, a
mother's women, never any person (:mod:`kgdiff.export.distractors.human_keys` plans them). The keys
are worked out once per export by DuckDB from the store, in any snapshot
(``sql/export/role_keys.sql``), and written to disk sorted by person
(:func:`write_role_keys`): a batch of words reads the row groups of its own range of values
(held in memory, the keys of every person grow with the store: ~1 M people at 3 × 25 M
statements)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from kgdiff.sqlfiles import render

HUMAN = "Q5"
SEX_PID = "P21"
ROLE_PIDS = ("P21", "P106", "P39")
"""Sex or gender, occupation, position held."""
ROLE_PREFIX = "role "
SEX_PREFIX = "sex "
TYPICAL_FLOOR = 3
TYPICAL_SCHEMA = pl.Schema({"pid": pl.String(), "role": pl.String(), "share": pl.Float64()})
"""``pid``, ``role`` (an item id) and ``share``: the roles typical of a relation's people."""


def role_key(role: pl.Expr) -> pl.Expr:
    """The kind key of a role (an occupation or a position held): ``role Q82955``."""
    return pl.concat_str(pl.lit(ROLE_PREFIX), role)


def sex_key(sex: pl.Expr) -> pl.Expr:
    """The kind key of a sex: ``sex Q6581072``."""
    return pl.concat_str(pl.lit(SEX_PREFIX), sex)


def sexed_role_key(sex: pl.Expr, role: pl.Expr) -> pl.Expr:
    """The kind key of a sex and a role together: ``sex Q6581072 role Q82955`` (as
    ``sql/export/role_keys.sql`` writes them)."""
    return pl.concat_str(sex_key(sex), pl.lit(" "), role_key(role))


KEYS_SCHEMA = pl.Schema({"value": pl.String(), "keys": pl.List(pl.String())})
"""``value`` (a person), ``keys``: its role keys, then its sex keys, then each role with each
sex (``role Q82955``, ``sex Q6581072``, ``sex Q6581072 role Q82955``), each kind sorted."""


def write_role_keys(connection: duckdb.DuckDBPyConnection, folder: Path) -> pl.LazyFrame:
    """The role keys of every person of the store (:data:`KEYS_SCHEMA`), written by DuckDB
    into ``folder`` sorted by value (``sql/export/role_keys.sql``), read as collected."""
    path = folder / "role-keys.parquet"
    connection.execute(render("export/role_keys", out=str(path)))
    return pl.scan_parquet(path, schema=KEYS_SCHEMA)


def people_keys(people: pl.Series, keys: pl.LazyFrame) -> pl.DataFrame:
    """The rows of ``keys`` (:data:`KEYS_SCHEMA`, sorted by value, read as collected: the
    file of :func:`write_role_keys`) of the values of ``people``, sorted by value: only the row
    groups between the least and greatest of ``people`` are read, and the rows asked are kept
    as each is read (a semi join read every row first)."""
    people = people.drop_nulls().unique().sort()
    if people.is_empty():
        return pl.DataFrame(schema=KEYS_SCHEMA)
    inside = pl.col("value").is_between(pl.lit(people[0]), pl.lit(people[-1]))
    found = keys.filter(inside & pl.col("value").is_in(people.implode()))
    return found.collect().sort("value")


def with_roles(words: pl.DataFrame, keys: pl.LazyFrame) -> pl.DataFrame:
    """``words`` whose humans' ``classes`` and ``wanted`` end with their role keys (``keys``:
    :data:`KEYS_SCHEMA`, sorted by value: :func:`people_keys`); the other values as they
    are."""
    if not words.height:
        return words
    humans = words.filter(pl.col("classes").list.contains(HUMAN)).get_column("value")
    held = people_keys(humans, keys)
    if not held.height:
        return words
    found = words.join(held, on="value", how="left", maintain_order="left")
    human = pl.col("classes").list.contains(HUMAN) & pl.col("keys").is_not_null()
    return found.with_columns(
        pl.when(human).then(pl.concat_list(name, "keys")).otherwise(pl.col(name)).alias(name)
        for name in ("classes", "wanted")
    ).drop("keys")
