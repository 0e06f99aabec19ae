"""The kind keys of people: a human's distractors share a role with it, not merely the class
human (docs/benchmark-export.md#option-kind-agreement).

Every item of class human (Q5) that the store gives a sex (P21), an occupation (P106) or a
position held (P39) gains, besides its classes, the keys ``role <id>`` for each occupation and
position, ``sex <id>`` for its sex and ``sex <id> role <id>`` for both together: the tiers a
head of government's distractors are drawn from hold politicians and heads of government, a
mother's women, never any person (:mod:`kgdiff.export.distractors.human_keys` plans them). The roles
are read once per export from the store, in any snapshot
(:func:`~kgdiff.export.distractors.subject_truths.read_subject_values`)."""

from __future__ import annotations

import polars as pl

HUMAN = "Q5"
SEX_PID = "P21"
ROLE_PIDS = ("P21", "P106", "P39")
"""Sex or gender, occupation, position held."""
ROLE_PREFIX = "role "
SEX_PREFIX = "sex "
TYPICAL_FLOOR = 3
TYPICAL_SCHEMA = pl.Schema({"pid": pl.String(), "role": pl.String(), "share": pl.Float64()})
"""``pid``, ``role`` (an item id) and ``share``: the roles typical of a relation's people."""
ROLES_SCHEMA = pl.Schema({"value": pl.String(), "pid": pl.String(), "role": pl.String()})
"""``value`` (a human), ``pid`` (P21, P106 or P39), ``role`` (the item it names)."""


def role_key(role: pl.Expr) -> pl.Expr:
    """The kind key of a role (an occupation or a position held): ``role Q82955``."""
    return pl.concat_str(pl.lit(ROLE_PREFIX), role)


def sex_key(sex: pl.Expr) -> pl.Expr:
    """The kind key of a sex: ``sex Q6581072``."""
    return pl.concat_str(pl.lit(SEX_PREFIX), sex)


def sexed_role_key(sex: pl.Expr, role: pl.Expr) -> pl.Expr:
    """The kind key of a sex and a role together: ``sex Q6581072 role Q82955``."""
    return pl.concat_str(sex_key(sex), pl.lit(" "), role_key(role))


def person_roles(values: pl.DataFrame) -> pl.DataFrame:
    """The sex, occupations and positions among the ``values`` (``subject``, ``pid``,
    ``value``: :func:`~kgdiff.export.distractors.subject_truths.read_subject_values`), as
    :data:`ROLES_SCHEMA`."""
    held = values.filter(pl.col("pid").is_in(ROLE_PIDS))
    return held.select(pl.col("subject").alias("value"), "pid", pl.col("value").alias("role"))


def role_keys(roles: pl.DataFrame) -> pl.DataFrame:
    """``value``, ``keys``: the kind keys each human of ``roles`` gains (its roles, its sex,
    and each role with each sex), in that order."""
    sexes = roles.filter(pl.col("pid") == SEX_PID).select("value", pl.col("role").alias("sex"))
    held = roles.filter(pl.col("pid") != SEX_PID).select("value", "role").unique()
    both = held.join(sexes, on="value")
    keys = pl.concat(
        [
            held.select("value", role_key(pl.col("role")).alias("key"), pl.lit(0).alias("_o")),
            sexes.select("value", sex_key(pl.col("sex")).alias("key"), pl.lit(1).alias("_o")),
            both.select(
                "value", sexed_role_key(pl.col("sex"), pl.col("role")).alias("key"),
                pl.lit(2).alias("_o"),
            ),
        ]
    )  # fmt: skip
    keys = keys.unique(["value", "key"]).sort("value", "_o", "key")
    return keys.group_by("value", maintain_order=True).agg(pl.col("key").alias("keys"))


def people_keys(people: pl.Series, keys: pl.DataFrame) -> pl.DataFrame:
    """The rows of ``keys`` (``value``, ``keys``, sorted by value: :func:`role_keys`) of the
    values of ``people``: found by binary search, so that looking up a batch of values costs
    the batch, not the 1 M people of 3 × 25 M statements a join would hash each time."""
    people = people.drop_nulls().unique().sort()
    at = keys.get_column("value").search_sorted(people, side="left")
    inside = at < keys.height
    found = keys[at.filter(inside)]
    return found.filter(found.get_column("value") == people.filter(inside))


def with_roles(words: pl.DataFrame, keys: pl.DataFrame) -> pl.DataFrame:
    """``words`` whose humans' ``classes`` and ``wanted`` end with their role keys (``keys``:
    ``value``, ``keys``, sorted by value: :func:`role_keys`); the other values as they are."""
    if not keys.height or not words.height:
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
