"""The order a record's distractor tiers are drawn from
(:mod:`kgdiff.export.distractors.noise_frames`): the same relation's candidates of each of the
answer's own kind keys, then other relations' candidates of the same object type sharing such a key,
then the same two for the class the catalogue expects of the relation's objects when the answer does
not have it. A person's keys (:mod:`kgdiff.export.distractors.human_keys`) end with keys drawn in
the same relation only; the class human alone is never drawn from outside the relation (any person
is no distractor)."""

from __future__ import annotations

import polars as pl

from kgdiff.export.distractors.human_roles import HUMAN, ROLE_PREFIX, SEX_PREFIX

_SEP = "\x1f"
DECLARED_SCHEMA = pl.Schema({"pid": pl.String(), "declared": pl.String()})
"""``pid``, ``declared``: the class the catalogue expects of a relation's objects."""


def tier_key(kind: str, *columns: str) -> pl.Expr:
    """A tier's key: ``kind`` and the ``columns``' values (``pc``: a relation and a kind key;
    ``tc``: an object type and a kind key; ``p``: a relation)."""
    parts: list[pl.Expr | str] = [pl.lit(kind)]
    for column in columns:
        parts += [pl.lit(_SEP), pl.col(column)]
    return pl.concat_str(parts).alias("tier")


def candidate_tiers(candidates: pl.DataFrame) -> pl.DataFrame:
    """``tier`` (a key), ``cand``: every tier of every candidate (``cand``, ``pid``, ``kind``,
    ``classes``: its kind keys), sorted: the same relation's candidates of each kind key, its
    relation's, and any relation's of the same object type sharing a key (the class human alone,
    or a sex alone, only in the same relation)."""
    by_class = candidates.explode("classes").drop_nulls("classes")
    anywhere = by_class.filter(
        (pl.col("classes") != HUMAN)
        & ~(
            pl.col("classes").str.starts_with(SEX_PREFIX)
            & ~pl.col("classes").str.contains(ROLE_PREFIX)
        )
    )
    keyed = pl.concat(
        [
            by_class.select(tier_key("pc", "pid", "classes"), "cand"),
            candidates.select(tier_key("p", "pid"), "cand"),
            anywhere.select(tier_key("tc", "kind", "classes"), "cand"),
        ]
    )
    return keyed.drop_nulls("tier").sort("tier", "cand")


def tier_plan(requests: pl.DataFrame, sizes: pl.DataFrame, declared: pl.DataFrame) -> pl.DataFrame:
    """Each request's tiers in the order they are drawn from (``rank``), with their size:
    the same relation's candidates of each of its own kind keys, then other relations' of the
    same object type; then the same for the relation's ``declared`` object class when the
    answer does not have it (the last of its keys); then, in the same relation only, the keys
    of the optional list ``within``; a request without kind keys (and ``within`` null), the
    same relation's candidates. Other relations' candidates of the class human are never
    drawn."""
    classes = requests.select(
        "_id", "pid", "kind", pl.col("classes").list.unique(maintain_order=True)
    ).explode("classes")
    classes = classes.drop_nulls("classes").with_columns(
        pl.int_range(pl.len(), dtype=pl.UInt32()).over("_id").alias("_c"),
        pl.col("classes").len().over("_id").cast(pl.UInt32()).alias("_n"),
    )
    classes = classes.join(declared, on="pid", how="left", maintain_order="left")
    # the declared class, appended to the answer's own keys, comes after all of them
    late = (pl.col("classes") == pl.col("declared")).fill_null(False) & (
        pl.col("_c") == pl.col("_n") - 1
    )
    own = pl.col("_n") - late.any().over("_id").cast(pl.UInt32())
    classes = classes.with_columns(
        pl.when(late).then(2 * own).otherwise(pl.col("_c")).alias("_pc"),
        pl.when(late).then(2 * own + 1).otherwise(own + pl.col("_c")).alias("_tc"),
    )
    unplanned = pl.col("within").is_null() if "within" in requests.columns else pl.lit(True)
    classless = requests.filter((pl.col("classes").list.drop_nulls().list.len() == 0) & unplanned)
    tiers = pl.concat(
        [
            classes.select("_id", tier_key("pc", "pid", "classes"), pl.col("_pc").alias("rank")),
            classes.filter(pl.col("classes") != HUMAN).select(
                "_id", tier_key("tc", "kind", "classes"), pl.col("_tc").alias("rank")
            ),
            classless.select("_id", tier_key("p", "pid"), pl.lit(0, pl.UInt32()).alias("rank")),
            _within(requests),
        ]
    )
    digests = requests.select("_id", "digest")
    numbered = tiers.join(sizes, left_on="tier", right_on="key").drop("tier")
    return numbered.rename({"tier_right": "tier"}).join(digests, on="_id")


_LAST = 1 << 20
"""The rank of a request's first ``within`` key: after every other of its tiers."""


def _within(requests: pl.DataFrame) -> pl.DataFrame:
    """``_id``, ``tier``, ``rank`` of the same relation's tiers of the ``within`` keys."""
    if "within" not in requests.columns:
        return pl.DataFrame(schema={"_id": pl.String(), "tier": pl.String(), "rank": pl.UInt32()})
    keys = requests.select("_id", "pid", pl.col("within").alias("classes")).explode("classes")
    keys = keys.drop_nulls("classes").with_columns(
        (pl.int_range(pl.len(), dtype=pl.UInt32()).over("_id") + _LAST).alias("rank")
    )
    return keys.select("_id", tier_key("pc", "pid", "classes"), "rank")
