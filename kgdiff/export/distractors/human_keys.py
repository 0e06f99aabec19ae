"""Which tiers the distractors of a person come from
(docs/benchmark-export.md#option-kind-agreement).

A gold of class human (Q5), or the gold of a relation whose objects the catalogue expects to be
human when the store gives it no class at all, is offered people of its role, never any
person:

1. the relation's objects that share a role (an occupation or a position held:
   :mod:`kgdiff.export.distractors.human_roles`) with it, then any relation's such objects: the
   gold's own roles first, those most of the relation's people hold before the others (a head of
   state who is a physician is offered politicians before physicians), then the roles most of the
   relation's people hold that the gold lacks or the store does not give it (a head of
   government unknown to the store is offered politicians);
2. then the relation's other people (other heads of government, other mothers).

A relation that names the sex of its object (a mother, a father) or whose gold's sex a
distractor must share (a spouse) draws only people of that sex, in every tier; when that sex is
unknown (a spouse the store does not hold), the record gets no distractor, and is left out.
A role is *typical* of a relation when at least half of its objects that have a role in the
store hold it, and at least :data:`~kgdiff.export.distractors.human_roles.TYPICAL_FLOOR` of them
have one (:func:`~kgdiff.export.distractors.store_facts.read_typical_roles`).
"""

from __future__ import annotations

import polars as pl

from kgdiff.export.distractors.human_roles import (
    HUMAN,
    ROLE_PREFIX,
    SEX_PREFIX,
    sex_key,
    sexed_role_key,
)

MALE, FEMALE = "Q6581097", "Q6581072"
SEXED_RELATIONS = {"P22": MALE, "P25": FEMALE, "P26": None, "P451": None}
"""The relations whose object's sex the question names (father, mother) or implies (a spouse,
a partner: the gold's own sex, None here)."""


def _own_keys(requests: pl.DataFrame, declared: pl.DataFrame) -> pl.DataFrame:
    """``_id``, ``pid``, ``_own`` (the request's keys but the relation's declared class the
    caller appended) and ``_human``: whether the gold is a person."""
    found = requests.select("_id", "pid", "classes").join(
        declared, on="pid", how="left", maintain_order="left"
    )
    classes = pl.col("classes").list.drop_nulls()
    appended = (classes.list.last() == pl.col("declared")).fill_null(False)
    own = pl.when(appended).then(classes.list.head(classes.list.len() - 1)).otherwise(classes)
    found = found.with_columns(own.alias("_own"))
    unknown = (pl.col("_own").list.len() == 0) & (pl.col("declared") == HUMAN).fill_null(False)
    return found.with_columns((pl.col("_own").list.contains(HUMAN) | unknown).alias("_human"))


def _roles(people: pl.DataFrame, typical: pl.DataFrame) -> pl.DataFrame:
    """``_id``, ``role``, ``_rank``: each person request's roles in the order they are drawn."""
    own = people.select("_id", "pid", pl.col("_own").alias("key")).explode("key")
    own = own.filter(pl.col("key").str.starts_with(ROLE_PREFIX))
    own = own.select("_id", "pid", pl.col("key").str.strip_prefix(ROLE_PREFIX).alias("role"))
    own = own.with_columns(pl.int_range(pl.len()).over("_id").alias("_pos"), pl.lit(0).alias("_k"))
    extra = people.select("_id", "pid").join(typical.select("pid", "role"), on="pid")
    extra = extra.join(own, on=["_id", "role"], how="anti")
    extra = extra.with_columns(pl.lit(0).alias("_pos"), pl.lit(1).alias("_k"))
    roles = pl.concat([own, extra.select(own.columns)], how="vertical_relaxed")
    roles = roles.join(typical, on=["pid", "role"], how="left")
    roles = roles.sort("_id", "_k", pl.col("share").fill_null(0.0), "_pos", "role",
                       descending=[False, False, True, False, False])  # fmt: skip
    return roles.select("_id", "role", pl.int_range(pl.len()).over("_id").alias("_rank"))


def _sexes(people: pl.DataFrame) -> pl.DataFrame:
    """``_id``, ``_sex``: the sex every distractor of a sexed relation's request must have
    (null when the relation names none and the gold's is unknown); other requests absent."""
    implied = pl.DataFrame(
        {"pid": list(SEXED_RELATIONS), "_implied": list(SEXED_RELATIONS.values())},
        schema={"pid": pl.String(), "_implied": pl.String()},
    )
    sexed = people.join(implied, on="pid")
    own = sexed.select("_id", pl.col("_own").alias("key")).explode("key")
    own = own.filter(
        pl.col("key").str.starts_with(SEX_PREFIX) & ~pl.col("key").str.contains(ROLE_PREFIX)
    )
    own = own.group_by("_id").agg(pl.col("key").str.strip_prefix(SEX_PREFIX).sort().first())
    sexed = sexed.join(own, on="_id", how="left")
    return sexed.select("_id", pl.coalesce("_implied", "key").alias("_sex"))


def plausible_keys(
    requests: pl.DataFrame, typical: pl.DataFrame, declared: pl.DataFrame
) -> pl.DataFrame:
    """``requests`` (``_id``, ``pid``, ``classes``: the gold's kind keys, then the relation's
    declared class) with the keys of a person gold rewritten as the module says: ``classes``,
    its role keys (drawn in the relation, then in any), and ``within``, the keys drawn in the
    relation only after them; ``within`` is null for other golds."""
    own = _own_keys(requests, declared)
    people = own.filter(pl.col("_human"))
    if not people.height:
        return requests.with_columns(pl.lit(None, pl.List(pl.String())).alias("within"))
    roles = _roles(people, typical)
    sexes = _sexes(people)
    keyed = roles.join(sexes, on="_id", how="left").sort("_id", "_rank")
    sexed_ids = sexes.get_column("_id").implode()
    key = (
        pl.when(pl.col("_id").is_in(sexed_ids))
        .then(sexed_role_key(pl.col("_sex"), pl.col("role")))
        .otherwise(pl.concat_str(pl.lit(ROLE_PREFIX), pl.col("role")))
    )
    keys = keyed.group_by("_id", maintain_order=True).agg(key.drop_nulls().alias("_keys"))
    within = (
        people.select("_id")
        .join(sexes, on="_id", how="left")
        .select(
            "_id",
            pl.when(pl.col("_id").is_in(sexed_ids))
            .then(pl.concat_list(sex_key(pl.col("_sex"))).list.drop_nulls())
            .otherwise(pl.lit([HUMAN], pl.List(pl.String())))
            .alias("_within"),
        )
    )
    plan = within.join(keys, on="_id", how="left")
    found = requests.join(plan, on="_id", how="left", maintain_order="left")
    empty = pl.lit([], pl.List(pl.String()))
    return found.with_columns(
        pl.when(pl.col("_within").is_not_null())
        .then(pl.col("_keys").fill_null(empty))
        .otherwise(pl.col("classes"))
        .alias("classes"),
        pl.col("_within").alias("within"),
    ).drop("_within", "_keys")
