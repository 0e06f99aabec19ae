"""Distractors, drawn for every record of a frame at once from tiers of candidates (every
answer of the classified groups that has words): objects of the same relation that share a
class with the answer (its P31 classes, then the relation's ``object_class``; a time's
precision stands for its class), any object of the relation, objects of other relations of
the same object type sharing such a class, and, for dates, quantities and strings, any value of
that type.

A record's draws are fixed by its id alone (its digest, ``fixed`` purpose ``noise``): first
:data:`FIRST_DRAWS` draws from each of its tiers in turn, then up to :data:`DRAWS` from each,
then every candidate of its small tiers (at most :data:`DRAWS` candidates) in an order of its
own; draws from a large tier are with replacement (repeats are skipped). A candidate is kept
when it is none of the record's own values, reads differently (normalised) from every text the
record has taken, and from every distractor kept before it. Records short of distractors after
one round go on to the next; most need one or two and are served by the first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from kgdiff.export.column_draws import mixed
from kgdiff.export.relation_model import ObjectType, RelationCatalogue

FIRST_DRAWS = 4
DRAWS = 64
_SEP = "\x1f"
_OFFERED = pl.Schema(
    {
        "_id": pl.String(),
        "phase": pl.UInt8(),
        "rank": pl.UInt32(),
        "order": pl.UInt64(),
        "value": pl.String(),
        "text": pl.String(),
        "form": pl.String(),
    }
)


@dataclass(frozen=True)
class NoiseTiers:
    """The distractor candidates (``cand``, ``value``, ``text``, ``form``), each tier's
    members in order (``tier``, ``index``, ``cand``) and each tier's key and size (``key``,
    ``tier``, ``n``); tiers and candidates are numbered, so that a candidate's words are held
    once however many tiers it is in."""

    candidates: pl.DataFrame
    members: pl.DataFrame
    sizes: pl.DataFrame

    @classmethod
    def of(
        cls, pairs: pl.DataFrame, words: pl.DataFrame, catalogue: RelationCatalogue
    ) -> NoiseTiers:
        """The tiers of the distinct (``pid``, ``value``) rows of ``pairs`` whose value has
        words and whose relation is in the ``catalogue``."""
        kinds = pl.DataFrame(
            {
                "pid": [relation.pid for relation in catalogue],
                "kind": [relation.object_type.value for relation in catalogue],
            },
            schema={"pid": pl.String(), "kind": pl.String()},
        )
        found = pairs.select("pid", "value").unique().join(kinds, on="pid")
        found = found.join(words.drop_nulls("main"), on="value").sort("pid", "value")
        base = found.with_row_index("cand").select(
            "cand", "pid", "value", pl.col("main").alias("text"),
            pl.col("main_form").alias("form"), "kind", "classes",
        )  # fmt: skip
        by_class = base.explode("classes").drop_nulls("classes")
        not_items = base.filter(pl.col("kind") != ObjectType.ITEM.value)
        keyed = pl.concat(
            [
                by_class.select(_key("pc", "pid", "classes"), "cand"),
                base.select(_key("p", "pid"), "cand"),
                by_class.select(_key("tc", "kind", "classes"), "cand"),
                not_items.select(_key("t", "kind"), "cand"),
            ]
        ).sort("tier", "cand")  # fmt: skip
        sizes = keyed.group_by("tier").agg(pl.len().cast(pl.UInt32()).alias("n")).sort("tier")
        sizes = sizes.with_row_index("id").rename({"tier": "key", "id": "tier"})
        members = keyed.join(sizes.select("key", "tier"), left_on="tier", right_on="key")
        members = members.select(
            pl.col("tier_right").alias("tier"),
            pl.int_range(pl.len(), dtype=pl.UInt32()).over("tier_right").alias("index"),
            "cand",
        )
        return cls(base.select("cand", "value", "text", "form"), members, sizes)


def _key(kind: str, *columns: str) -> pl.Expr:
    parts: list[pl.Expr | str] = [pl.lit(kind)]
    for column in columns:
        parts += [pl.lit(_SEP), pl.col(column)]
    return pl.concat_str(parts).alias("tier")


def _plan(requests: pl.DataFrame, sizes: pl.DataFrame) -> pl.DataFrame:
    """Each request's tiers in the order they are drawn from (``rank``), with their size."""
    classes = requests.select("_id", "pid", "kind", "classes").explode("classes")
    classes = classes.drop_nulls("classes").with_columns(
        pl.int_range(pl.len(), dtype=pl.UInt32()).over("_id").alias("_c"),
        pl.col("classes").len().over("_id").cast(pl.UInt32()).alias("_n"),
    )
    counts = requests.select(
        "_id", "pid", "kind", pl.col("classes").list.len().cast(pl.UInt32()).alias("_n")
    )
    tiers = pl.concat(
        [
            classes.select("_id", _key("pc", "pid", "classes"), pl.col("_c").alias("rank")),
            counts.select("_id", _key("p", "pid"), pl.col("_n").alias("rank")),
            classes.select(
                "_id",
                _key("tc", "kind", "classes"),
                (pl.col("_n") + 1 + pl.col("_c")).alias("rank"),
            ),
            counts.filter(pl.col("kind") != ObjectType.ITEM.value).select(
                "_id", _key("t", "kind"), (2 * pl.col("_n") + 1).alias("rank")
            ),
        ]
    )
    digests = requests.select("_id", "digest")
    numbered = tiers.join(sizes, left_on="tier", right_on="key").drop("tier")
    return numbered.rename({"tier_right": "tier"}).join(digests, on="_id")


def _draws(plan: pl.DataFrame, phase: int) -> pl.DataFrame:
    """The candidates (``tier``, ``index``) a phase offers each planned (request, tier)."""
    if phase == 2:  # every candidate of a small tier, in an order of the record's own
        small = plan.filter(pl.col("n") <= DRAWS)
        rows = small.with_columns(pl.int_ranges(0, pl.col("n"), dtype=pl.UInt32()).alias("index"))
        rows = rows.explode("index")
        salt = rows.select(
            (1 << 40) + pl.col("rank").cast(pl.UInt64()) * 4096 + pl.col("index").cast(pl.UInt64())
        ).to_series()
        return rows.with_columns(mixed(rows.get_column("digest"), salt).alias("order"))
    first, last = (0, FIRST_DRAWS) if phase == 0 else (FIRST_DRAWS, DRAWS)
    rows = plan.with_columns(pl.int_ranges(first, last, dtype=pl.UInt64()).alias("order")).explode(
        "order"
    )
    salt = rows.select(pl.col("rank").cast(pl.UInt64()) * 4096 + pl.col("order")).to_series()
    drawn = mixed(rows.get_column("digest"), salt)
    return rows.with_columns(
        (drawn % rows.get_column("n").cast(pl.UInt64())).cast(pl.UInt32()).alias("index")
    )


def _kept(offered: pl.DataFrame, blocked: pl.DataFrame, taken: pl.DataFrame) -> pl.DataFrame:
    """The offered candidates a request keeps, in order: none of its own values, none that
    reads as a text it has taken, each value and each form once."""
    ordered = offered.filter(pl.col("form").is_not_null() & (pl.col("form") != ""))
    ordered = ordered.sort("_id", "phase", "rank", "order")
    ordered = ordered.join(blocked, on=["_id", "value"], how="anti", maintain_order="left")
    ordered = ordered.join(taken, on=["_id", "form"], how="anti", maintain_order="left")
    ordered = ordered.unique(["_id", "value"], keep="first", maintain_order=True)
    return ordered.unique(["_id", "form"], keep="first", maintain_order=True)


@dataclass
class _Drawing:
    """The distractors of the requests still short of them, round after round."""

    plan: pl.DataFrame
    tiers: NoiseTiers
    blocked: pl.DataFrame
    taken: pl.DataFrame
    needs: pl.DataFrame
    offered: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=_OFFERED))
    done: list[pl.DataFrame] = field(default_factory=list)

    def round(self, phase: int, rank: int) -> None:
        """Offer the ``rank``-th tier's draws of ``phase`` to the requests still short, and
        set aside those the round completes."""
        step = self.plan.filter(pl.col("rank") == rank).join(self.needs, on="_id", how="semi")
        if not step.height:
            return
        drawn = _draws(step, phase).join(self.tiers.members, on=["tier", "index"])
        drawn = drawn.join(self.tiers.candidates, on="cand")
        drawn = drawn.with_columns(pl.lit(phase, pl.UInt8()).alias("phase"))
        self.offered = pl.concat([self.offered, drawn.select(_OFFERED.names()).cast(_OFFERED)])
        kept = self.kept()
        counts = kept.group_by("_id").agg(pl.len().alias("got")).join(self.needs, on="_id")
        full = counts.filter(pl.col("got") >= pl.col("need")).select("_id")
        self.done.append(kept.join(full, on="_id", how="semi"))
        self.needs = self.needs.join(full, on="_id", how="anti")
        self.offered = self.offered.join(full, on="_id", how="anti")

    def kept(self) -> pl.DataFrame:
        """What the offers so far give the requests still short (at most their need)."""
        kept = _kept(self.offered, self.blocked, self.taken).join(self.needs, on="_id")
        return kept.filter(pl.int_range(pl.len()).over("_id") < pl.col("need")).drop("need")


def draw_noise(requests: pl.DataFrame, tiers: NoiseTiers) -> pl.DataFrame:
    """``_id`` and ``noise``, the distractor texts each request gets (at most its ``need``).

    ``requests``: ``_id``, ``digest`` (:func:`kgdiff.export.seeded.record_digests` with no
    seed, purpose ``noise``), ``pid``, ``kind`` (the relation's object type), ``classes`` (the
    answer's, preferred first), ``exclude`` (the record's own values), ``taken`` (forms no
    distractor may have) and ``need``."""
    wanting = requests.filter(pl.col("need") > 0)
    drawing = _Drawing(
        plan=_plan(wanting, tiers.sizes),
        tiers=tiers,
        blocked=wanting.select("_id", pl.col("exclude").alias("value")).explode("value"),
        taken=wanting.select("_id", pl.col("taken").alias("form")).explode("form"),
        needs=wanting.select("_id", "need"),
    )
    ranks = drawing.plan.get_column("rank").unique().sort().to_list()
    for phase in (0, 1, 2):
        for rank in ranks:
            drawing.round(phase, rank)
    chosen = pl.concat([*drawing.done, drawing.kept()]).sort("_id", "phase", "rank", "order")
    return chosen.group_by("_id", maintain_order=True).agg(pl.col("text").alias("noise"))
