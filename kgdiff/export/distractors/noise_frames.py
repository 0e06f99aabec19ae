"""Distractors, drawn for every record of a frame at once from tiers of candidates (every
answer of the classified groups that has words), all of the gold's kind
(:mod:`kgdiff.export.words.option_kinds`): objects of the same relation that share one of the
answer's own kind keys (its classes; a time's written form, a quantity's unit and magnitude,
a text's language), then objects of other relations of the same object type sharing such a
key, then, last, the same relation's and then other relations' objects of the class the
catalogue expects of the relation's objects (its ``object_class``), which the answer need not
have: Greenland, the answer of "Which country is Nuuk in?", is a constituent country like
Scotland before it is a country like Belgium. An answer without any kind key (a string, an
item the store gives no class) is offered any object of the same relation. A person is offered
people of its role and, for a mother, a father or a spouse, of its sex, never any person
(:mod:`kgdiff.export.distractors.human_keys`); no candidate is a value the record's subject holds
under a relation of the same kind (:mod:`kgdiff.export.distractors.subject_truths`).

A record's draws are fixed by its id alone (its digest, ``fixed`` purpose ``noise``), tier
after tier in that order, each tier drawn from until it has nothing more to give before the
next is: first :data:`FIRST_DRAWS` draws, then up to :data:`DRAWS`, then, for a small tier (at
most :data:`DRAWS` candidates), every candidate in an order of the record's own; draws from a
large tier are with replacement (repeats are skipped). A candidate is kept when it is none of
the record's own values (nor its subject), when none of its texts (label or alias) reads as a
text the record has taken (normalised), and when it reads differently from every distractor
kept before it. Records short of distractors after one round go on to the next; most need one
or two and are served by the first. (A small first tier is thus used up before a larger, less
fitting one is drawn from: the heads of government a store holds before any human.) A record
asked about a year is offered no person who was not alive in it
(:mod:`kgdiff.export.distractors.lifespans`), and no record a quantity within 2 % of one of
its own (:mod:`kgdiff.export.distractors.near_numbers`): such a draw is skipped as a repeat
is, so its other draws are those it had.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from kgdiff.export.core.column_draws import mixed
from kgdiff.export.distractors.human_keys import plausible_keys
from kgdiff.export.distractors.lifespans import alive_in_year, request_spans
from kgdiff.export.distractors.near_numbers import near_own, own_quantities
from kgdiff.export.distractors.noise_plan import tier_plan
from kgdiff.export.distractors.noise_tiers import NoiseTiers
from kgdiff.export.distractors.subject_truths import blocked_values

FIRST_DRAWS = 4
DRAWS = 64
ROUND_ROWS = 250_000
"""The most draws a round offers, unless its first step alone offers more (at 3 × 5 M
statements a round of 1 M offers held ~280 MB more at its peak than one step a round)."""
_DRAWN_TYPES = pl.Schema(
    {"_id": pl.String(), "phase": pl.UInt8(), "rank": pl.UInt32(), "tier": pl.UInt32(),
     "index": pl.UInt32(), "order": pl.UInt64()}
)  # fmt: skip
_DRAWN = list(_DRAWN_TYPES)
_OFFERED = pl.Schema(
    {
        "_id": pl.String(),
        "phase": pl.UInt8(),
        "rank": pl.UInt32(),
        "order": pl.UInt64(),
        "cand": pl.UInt32(),
        "value": pl.String(),
        "text": pl.String(),
        "form": pl.String(),
        "phrase": pl.String(),
    }
)


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


def _kept(
    offered: pl.DataFrame, blocked: pl.DataFrame, taken: pl.DataFrame, clashes: pl.DataFrame
) -> pl.DataFrame:
    """The offered candidates a request keeps, in order: none of its own values, none whose
    label or alias reads as a text it has taken, each value and each form once."""
    ordered = offered.filter(pl.col("form").is_not_null() & (pl.col("form") != ""))
    ordered = ordered.sort("_id", "rank", "phase", "order")
    ordered = ordered.join(blocked, on=["_id", "value"], how="anti", maintain_order="left")
    ordered = ordered.join(taken, on=["_id", "form"], how="anti", maintain_order="left")
    ordered = ordered.join(clashes, on=["_id", "cand"], how="anti", maintain_order="left")
    ordered = ordered.unique(["_id", "value"], keep="first", maintain_order=True)
    return ordered.unique(["_id", "form"], keep="first", maintain_order=True)


@dataclass
class _Drawing:
    """The distractors of the requests still short of them, round after round."""

    plan: pl.DataFrame
    tiers: NoiseTiers
    blocked: pl.DataFrame
    taken: pl.DataFrame
    clashes: pl.DataFrame
    needs: pl.DataFrame
    years: pl.DataFrame
    """``_id``, ``_year``: the requests asked about a year."""
    spans: pl.DataFrame
    """The lifespans of the people their tiers hold (:mod:`kgdiff.export.distractors.lifespans`)."""
    offered: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=_OFFERED))
    done: list[pl.DataFrame] = field(default_factory=list)
    own: pl.DataFrame = field(init=False)
    """``_id``, ``_amount``, ``_unit``: the requests' own quantities (of ``blocked``), which
    no distractor may come near (:mod:`kgdiff.export.distractors.near_numbers`)."""

    def __post_init__(self) -> None:
        self.own = own_quantities(self.blocked)

    def live(self) -> pl.DataFrame:
        """The plan's rows of the requests still short."""
        return self.plan.join(self.needs, on="_id", how="semi")

    def round(self, steps: list[tuple[int, int]], live: pl.DataFrame) -> None:
        """Offer the draws of consecutive ``steps`` (``rank``, ``phase``) to the requests
        still short, and set aside those the round completes. (Offers of later steps sort
        after those of earlier ones and a request keeps the first it can, so any grouping of
        the steps into rounds keeps the same distractors.)"""
        drawn = [
            _draws(live.filter(pl.col("rank").is_in(ranks)), phase).with_columns(
                pl.lit(phase, pl.UInt8()).alias("phase")
            )
            for phase in (0, 1, 2)
            if (ranks := [rank for rank, step_phase in steps if step_phase == phase])
        ]
        offered = pl.concat([frame.select(*_DRAWN).cast(_DRAWN_TYPES) for frame in drawn])
        if not offered.height:
            return
        offered = alive_in_year(self.tiers.drawn(offered), self.years, self.spans)
        near = near_own(offered, self.own)
        offered = offered.join(near, on=["_id", "cand"], how="anti", maintain_order="left")
        self.offered = pl.concat([self.offered, offered.select(_OFFERED.names()).cast(_OFFERED)])
        kept = self.kept()
        counts = kept.group_by("_id").agg(pl.len().alias("got")).join(self.needs, on="_id")
        full = counts.filter(pl.col("got") >= pl.col("need")).select("_id")
        self.done.append(kept.join(full, on="_id", how="semi"))
        self.needs = self.needs.join(full, on="_id", how="anti")
        self.offered = self.offered.join(full, on="_id", how="anti")

    @staticmethod
    def next_steps(steps: list[tuple[int, int]], live: pl.DataFrame) -> list[tuple[int, int]]:
        """The first of ``steps`` and as many after it as keep a round's offers to the
        requests still short under :data:`ROUND_ROWS` (one step a round would cost a
        round's fixed price for every tier rank, for a handful of requests); ``live``, the
        plan's rows of those requests."""
        per_phase = (
            live.select(
                "rank",
                pl.lit(FIRST_DRAWS).alias("p0"),
                pl.lit(DRAWS - FIRST_DRAWS).alias("p1"),
                pl.when(pl.col("n") <= DRAWS).then(pl.col("n")).otherwise(0).alias("p2"),
            )
            .group_by("rank")
            .agg(pl.col("p0", "p1", "p2").sum())
        )
        rows = {rank: (p0, p1, p2) for rank, p0, p1, p2 in per_phase.iter_rows()}
        chosen = [steps[0]]
        total = rows.get(steps[0][0], (0, 0, 0))[steps[0][1]]
        for rank, phase in steps[1:]:
            total += rows.get(rank, (0, 0, 0))[phase]
            if total > ROUND_ROWS:
                break
            chosen.append((rank, phase))
        return chosen

    def kept(self) -> pl.DataFrame:
        """What the offers so far give the requests still short (at most their need)."""
        kept = _kept(self.offered, self.blocked, self.taken, self.clashes)
        kept = kept.join(self.needs, on="_id")
        return kept.filter(pl.int_range(pl.len()).over("_id") < pl.col("need")).drop("need")


def draw_noise(requests: pl.DataFrame, tiers: NoiseTiers) -> pl.DataFrame:
    """``_id``, ``noise`` and ``noise_phrases``: the distractor texts each request gets (at
    most its ``need``) and how each reads in a sentence.

    ``requests``: ``_id``, ``digest`` (:func:`kgdiff.export.core.seeded.record_digests` with no
    seed, purpose ``noise``), ``pid``, ``kind`` (the relation's object type), ``classes`` (the
    kind keys a distractor may have, preferred first: a person's are rewritten by
    :func:`~kgdiff.export.distractors.human_keys.plausible_keys`), ``exclude`` (the record's own
    values and its subject), ``taken`` (forms no distractor's text may have), ``need`` and,
    optionally, ``subject`` (whose other values :attr:`NoiseTiers.truths` rules out) and
    ``year`` (the year asked about, or null: no person not alive in it is drawn)."""
    wanting = requests.filter(pl.col("need") > 0)
    taken = wanting.select("_id", pl.col("taken").alias("form")).explode("form")
    keyed = plausible_keys(wanting, tiers.typical, tiers.declared)
    plan = tier_plan(keyed, tiers.sizes, tiers.declared)
    years, spans = request_spans(wanting, plan, tiers.members, tiers.people, tiers.lifespans)
    drawing = _Drawing(
        plan=plan,
        tiers=tiers,
        blocked=blocked_values(wanting, tiers.truths),
        taken=taken,
        # a candidate another name of the gold's, or of an outdated object's, is none
        clashes=tiers.clashes(taken),
        needs=wanting.select("_id", "need"),
        years=years,
        spans=spans,
    )
    ranks = drawing.plan.get_column("rank").unique().sort().to_list()
    steps = [(rank, phase) for rank in ranks for phase in (0, 1, 2)]
    while steps and drawing.needs.height:
        live = drawing.live()
        batch = drawing.next_steps(steps, live)
        drawing.round(batch, live)
        steps = steps[len(batch) :]
    chosen = pl.concat([*drawing.done, drawing.kept()]).sort("_id", "rank", "phase", "order")
    return chosen.group_by("_id", maintain_order=True).agg(
        pl.col("text").alias("noise"), pl.col("phrase").alias("noise_phrases")
    )
