"""Distractors of a person, and distractors true of their subject, judged with the store
(docs/benchmark-export.md#the-quality-audit): the audit's own reading of the standard the
export draws by, written apart from the export's code.

- When a gold item is a person (an instance of human, Q5, in the store), or the store gives no
  gold item a class and the catalogue expects the property's objects to be people, a
  distractor is of the gold's kind only when it names a person who holds a role (an
  occupation, P106, or a position, P39) some gold item holds, or who is an object of the
  record's property somewhere in the store, or who holds a role *typical* of the property
  (held by at least half of its objects that hold any role, when at least
  :data:`TYPICAL_FLOOR` of them do); for a father (P22) a man, for a mother (P25) a woman, for
  a spouse or partner (P26, P451) a person of a gold item's sex. Sharing the class human alone
  is not enough: a footballer is no mother of Jesus, nor a chemist a head of government.
- A distractor (not the outdated option) naming an item the record's subject holds, in any
  snapshot, under the record's property or another the catalogue expects objects of the same
  class of, is no distractor: it is true of the subject (Chile's head of state of 2013 offered
  as a wrong one for 2019).
"""

from __future__ import annotations

import polars as pl

PERSON = "Q5"
MAN, WOMAN = "Q6581097", "Q6581072"
SEX_OF = {"P22": MAN, "P25": WOMAN}
"""Properties whose object's sex their question names."""
GOLDS_SEX = ("P26", "P451")
"""Properties whose distractors must have a gold item's sex."""
TYPICAL_FLOOR = 3
JUDGED_SCHEMA = {"pair": pl.UInt32, "person": pl.Boolean, "true_of_subject": pl.Boolean}


def typical(people: pl.DataFrame) -> pl.DataFrame:
    """``pid``, ``role``: the roles typical of each property, from (``pid``, ``person``,
    ``role``) rows of its objects' roles."""
    counted = people.unique().with_columns(pl.col("person").n_unique().over("pid").alias("n"))
    held = counted.group_by("pid", "role").agg(pl.len().alias("k"), pl.col("n").first())
    keep = (pl.col("k") * 2 >= pl.col("n")) & (pl.col("n") >= TYPICAL_FLOOR)
    return held.filter(keep).select("pid", "role")


def _golds(pairs: pl.DataFrame, classes: pl.DataFrame, roles: pl.DataFrame) -> pl.DataFrame:
    """Per ``pair``: ``gold_person`` (a gold item is a person), ``gold_known`` (a gold item has
    a class), ``gold_sexes`` and ``gold_roles``."""
    golds = pairs.select("pair", pl.col("gold_items").alias("item")).explode("item")
    golds = golds.drop_nulls("item")
    kinds = (
        golds.join(classes, on="item")
        .group_by("pair")
        .agg((pl.col("class") == PERSON).any().alias("gold_person"), pl.len().alias("_classes"))
    )
    held = golds.join(roles, on="item")
    sexes = (
        held.filter(pl.col("pid") == "P21")
        .group_by("pair")
        .agg(pl.col("role").unique().alias("gold_sexes"))
    )
    jobs = (
        held.filter(pl.col("pid") != "P21")
        .group_by("pair")
        .agg(pl.col("role").unique().alias("gold_roles"))
    )
    found = pairs.select("pair").join(kinds, on="pair", how="left")
    found = found.join(sexes, on="pair", how="left").join(jobs, on="pair", how="left")
    return found.with_columns(
        pl.col("gold_person").fill_null(False),
        (pl.col("_classes").fill_null(0) > 0).alias("gold_known"),
    ).drop("_classes")


def _candidates(
    pairs: pl.DataFrame, labelled: pl.DataFrame, classes: pl.DataFrame, roles: pl.DataFrame
) -> pl.DataFrame:
    """Per (``pair``, ``item``) the distractor's words name: ``is_person``, ``sexes``,
    ``roles``."""
    named = pairs.select("pair", "option").join(labelled, left_on="option", right_on="text")
    named = named.select("pair", "item")
    people = classes.filter(pl.col("class") == PERSON).select("item").unique()
    named = named.with_columns(pl.col("item").is_in(people.get_column("item").implode()).alias(
        "is_person"
    ))  # fmt: skip
    sexes = roles.filter(pl.col("pid") == "P21").group_by("item").agg(pl.col("role").alias("sexes"))
    jobs = roles.filter(pl.col("pid") != "P21").group_by("item").agg(pl.col("role").alias("roles"))
    return named.join(sexes, on="item", how="left").join(jobs, on="item", how="left")


def _wanted_sex() -> pl.Expr:
    """The sexes a distractor of the pair's property may have (null: any)."""
    named = pl.col("pid").replace_strict(SEX_OF, default=None, return_dtype=pl.String)
    return (
        pl.when(named.is_not_null())
        .then(pl.concat_list(named))
        .when(pl.col("pid").is_in(GOLDS_SEX))
        .then(pl.col("gold_sexes").fill_null(pl.lit([], pl.List(pl.String))))
    )


def person_agreement(
    pairs: pl.DataFrame,
    labelled: pl.DataFrame,
    classes: pl.DataFrame,
    roles: pl.DataFrame,
    owners: pl.DataFrame,
    people: pl.DataFrame,
    expected: pl.DataFrame,
) -> pl.DataFrame:
    """``pair``, ``person``: for the pairs (``pair``, ``option``, ``gold_items``, ``pid``)
    whose gold is a person, whether the distractor is one of its kind (null for the others).

    ``labelled`` (``text``, ``item``), ``classes`` (``item``, ``class``), ``roles`` (``item``,
    ``pid``, ``role``: P21, P106, P39), ``owners`` (``item``, ``pid``: the properties it is an
    object of), ``people`` (``pid``, ``person``, ``role``: the roles of each property's
    objects) and ``expected`` (``pid``, ``expected``: the catalogue's object class, a number)
    are what the store says."""
    golds = _golds(pairs, classes, roles)
    judged = pairs.select("pair", "pid").join(golds, on="pair")
    judged = judged.join(expected, on="pid", how="left")
    applies = pl.col("gold_person") | (~pl.col("gold_known") & (pl.col("expected") == 5))
    judged = judged.filter(applies.fill_null(False))
    candidates = _candidates(pairs, labelled, classes, roles).join(judged, on="pair")
    candidates = candidates.with_columns(_wanted_sex().alias("_sexes"))
    usual = typical(people).group_by("pid").agg(pl.col("role").alias("_usual"))
    candidates = candidates.join(usual, on="pid", how="left")
    owned = owners.with_columns(pl.lit(True).alias("_owns"))
    candidates = candidates.join(owned, on=["item", "pid"], how="left")
    empty = pl.lit([], pl.List(pl.String))
    held = pl.col("roles").fill_null(empty)
    shares = held.list.set_intersection(pl.col("gold_roles").fill_null(empty)).list.len() > 0
    usual_role = held.list.set_intersection(pl.col("_usual").fill_null(empty)).list.len() > 0
    sexed = pl.col("_sexes").is_null() | (
        pl.col("sexes").fill_null(empty).list.set_intersection(pl.col("_sexes")).list.len() > 0
    )
    fits = pl.col("is_person") & sexed & (shares | usual_role | pl.col("_owns").fill_null(False))
    verdicts = candidates.group_by("pair").agg(fits.any().alias("person"))
    found = judged.select("pair").join(verdicts, on="pair", how="left")
    return found.select("pair", pl.col("person").fill_null(False))


def kin_of(expected: pl.DataFrame) -> pl.DataFrame:
    """``pid``, ``kin``: the class the catalogue expects of each property's objects (as an id),
    from ``expected`` (``pid``, ``expected``, a number)."""
    return expected.select("pid", pl.format("Q{}", pl.col("expected")).alias("kin"))


def true_of_subject(
    pairs: pl.DataFrame, labelled: pl.DataFrame, held: pl.DataFrame, kin: pl.DataFrame
) -> pl.DataFrame:
    """``pair``: the pairs (``pair``, ``option``, ``choice_type``, ``subject``, ``pid``) whose
    distractor (not the outdated option) names an item its subject holds (``held``:
    ``subject``, ``pid``, ``item``) under a property of the kind of the pair's (``kin``:
    ``pid``, ``kin``)."""
    noise = pairs.filter(pl.col("choice_type") == "noise").drop_nulls("subject")
    named = noise.select("pair", "option", "subject", "pid").join(
        labelled, left_on="option", right_on="text"
    )
    named = named.join(kin, on="pid", how="left").with_columns(
        pl.coalesce("kin", "pid").alias("kin")
    )
    owned = held.join(kin, on="pid", how="left").with_columns(
        pl.coalesce("kin", "pid").alias("kin")
    )
    found = named.join(owned.select("subject", "kin", "item"), on=["subject", "kin", "item"])
    return found.select("pair").unique()
