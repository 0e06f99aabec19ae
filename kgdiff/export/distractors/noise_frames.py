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
(:mod:`kgdiff.export.distractors.lifespans`): such a draw is skipped as a repeat is, so its other
draws are those it had.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from kgdiff.export.core.column_draws import mixed
from kgdiff.export.distractors.class_members import relation_kinds
from kgdiff.export.distractors.human_keys import plausible_keys
from kgdiff.export.distractors.human_roles import HUMAN, TYPICAL_SCHEMA
from kgdiff.export.distractors.lifespans import Lifespans, alive_in_year, request_spans
from kgdiff.export.distractors.noise_plan import DECLARED_SCHEMA, candidate_tiers, tier_plan
from kgdiff.export.distractors.subject_truths import SubjectTruths, blocked_values
from kgdiff.export.distractors.tier_caps import capped_tiers
from kgdiff.export.relations.model import ObjectType, RelationCatalogue

FIRST_DRAWS = 4
DRAWS = 64
_PEOPLE = pl.Schema({"cand": pl.UInt32(), "value": pl.String()})
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


@dataclass(frozen=True)
class NoiseTiers:
    """The distractor candidates (``cand``, ``value``, ``text``, ``form``, ``phrase``), the
    forms of their other texts (``cand``, ``form``: aliases), each tier's members in order
    (``tier``, ``index``, ``cand``) and each tier's key and size (``key``, ``tier``, ``n``);
    tiers and candidates are numbered, so that a candidate's words are held once however many
    tiers it is in."""

    candidates: pl.DataFrame
    aliases: pl.DataFrame
    members: pl.DataFrame
    sizes: pl.DataFrame
    declared: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=DECLARED_SCHEMA))
    """``pid``, ``declared``: the class the catalogue expects of each relation's objects."""
    typical: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=TYPICAL_SCHEMA))
    """``pid``, ``role``, ``share``: the roles most of a relation's people hold
    (:func:`~kgdiff.export.distractors.human_roles.typical_roles`)."""
    truths: SubjectTruths | None = None
    """The values the subjects hold under a relation of the same kind, in any snapshot."""
    people: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=_PEOPLE))
    """``cand``, ``value``: the candidates of class human (Q5)."""
    lifespans: Lifespans | None = None
    """The people's years of birth and death, read as records asked about a year need them."""

    @classmethod
    def of(
        cls,
        pairs: pl.DataFrame,
        words: pl.DataFrame,
        catalogue: RelationCatalogue,
        items: list[str] | None = None,
        truths: SubjectTruths | None = None,
        typical: pl.DataFrame | None = None,
        cap: int | None = None,
        lifespans: Lifespans | None = None,
    ) -> NoiseTiers:
        """The tiers of the distinct (``pid``, ``value``) rows of ``pairs`` whose value has
        words and whose relation is in the ``catalogue``, and of the ``items`` of
        small classes (:func:`~kgdiff.export.distractors.class_members.small_classes`), which no
        relation names: they share their
        classes' tiers across relations only; ``truths``, what the records' subjects hold,
        which no distractor may be; ``typical``, the roles most of a relation's people hold;
        ``cap``: the most candidates a tier keeps (:mod:`kgdiff.export.distractors.tier_caps`; None,
        all), the candidates of no tier left out; ``lifespans``, the reader of the people's
        lifespans (None: no person is ruled out by the year a record asks about)."""
        found = pairs.select("pid", "value").unique().join(relation_kinds(catalogue), on="pid")
        extra = pl.DataFrame(
            {"pid": None, "value": sorted(set(items or ())), "kind": ObjectType.ITEM.value},
            schema={"pid": pl.String(), "value": pl.String(), "kind": pl.String()},
        )
        found = pl.concat([found, extra.join(found, on="value", how="anti")])
        # the tiers are keyed and cut on the candidates' kind keys alone; the other words
        # are joined to the candidates kept (at 3 × 25 M statements, 3 M answers)
        found = found.join(words.drop_nulls("main").select("value", "classes"), on="value")
        found = found.sort("pid", "value", nulls_last=True)
        base = found.with_row_index("cand").select(
            pl.col("cand").cast(pl.UInt32()), "pid", "value", "kind", "classes"
        )
        keyed = candidate_tiers(base)
        if cap is not None:
            keyed = capped_tiers(keyed, base, cap)
            base = base.filter(pl.col("cand").is_in(keyed.get_column("cand").implode()))
        people = base.filter(pl.col("classes").list.contains(HUMAN)).select("cand", "value")
        base = base.select("cand", "value").join(
            words.select(
                "value", pl.col("main").alias("text"), pl.col("main_form").alias("form"),
                "phrase", "forms",
            ),
            on="value", maintain_order="left",
        )  # fmt: skip
        sizes = keyed.group_by("tier").agg(pl.len().cast(pl.UInt32()).alias("n")).sort("tier")
        sizes = sizes.with_row_index("id").rename({"tier": "key", "id": "tier"})
        members = keyed.join(sizes.select("key", "tier"), left_on="tier", right_on="key")
        members = members.select(
            pl.col("tier_right").alias("tier"),
            pl.int_range(pl.len(), dtype=pl.UInt32()).over("tier_right").alias("index"),
            "cand",
        )
        aliases = base.select("cand", "forms").explode("forms").rename({"forms": "form"})
        aliases = aliases.filter(pl.col("form").is_not_null() & (pl.col("form") != ""))
        candidates = base.select("cand", "value", "text", "form", "phrase")
        declared = pl.DataFrame(
            [(r.pid, r.object_class) for r in catalogue if r.object_class],
            schema=DECLARED_SCHEMA,
            orient="row",
        )
        typical = typical if typical is not None else pl.DataFrame(schema=TYPICAL_SCHEMA)
        return cls(
            candidates, aliases.unique(maintain_order=True), members, sizes, declared, typical,
            truths, people, lifespans,
        )  # fmt: skip


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

    def round(self, phase: int, rank: int) -> None:
        """Offer the ``rank``-th tier's draws of ``phase`` to the requests still short, and
        set aside those the round completes."""
        step = self.plan.filter(pl.col("rank") == rank).join(self.needs, on="_id", how="semi")
        if not step.height:
            return
        drawn = _draws(step, phase).join(self.tiers.members, on=["tier", "index"])
        drawn = alive_in_year(drawn.join(self.tiers.candidates, on="cand"), self.years, self.spans)
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
        kept = _kept(self.offered, self.blocked, self.taken, self.clashes)
        kept = kept.join(self.needs, on="_id")
        return kept.filter(pl.int_range(pl.len()).over("_id") < pl.col("need")).drop("need")


def _clashes(taken: pl.DataFrame, tiers: NoiseTiers) -> pl.DataFrame:
    """(``_id``, ``cand``): the candidates one of whose aliases reads as a text the request
    has taken (a distractor that is another name of the gold, or of an outdated object)."""
    found = taken.join(tiers.aliases, on="form").select("_id", "cand")
    return found.unique()


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
        clashes=_clashes(taken, tiers),
        needs=wanting.select("_id", "need"),
        years=years,
        spans=spans,
    )
    ranks = drawing.plan.get_column("rank").unique().sort().to_list()
    for rank in ranks:
        for phase in (0, 1, 2):
            drawing.round(phase, rank)
    chosen = pl.concat([*drawing.done, drawing.kept()]).sort("_id", "rank", "phase", "order")
    return chosen.group_by("_id", maintain_order=True).agg(
        pl.col("text").alias("noise"), pl.col("phrase").alias("noise_phrases")
    )
