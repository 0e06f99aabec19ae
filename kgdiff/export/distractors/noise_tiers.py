"""The distractor tiers of an export (:class:`NoiseTiers`): every answer of the classified
groups that has words, numbered once, keyed by the kinds it may stand in for
(:func:`~kgdiff.export.distractors.noise_plan.candidate_tiers`), each tier cut to the export's cap
(:mod:`kgdiff.export.distractors.tier_caps`), with what rules a draw out (the subjects' own
values, the people's lifespans). :mod:`kgdiff.export.distractors.noise_frames` draws from them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import polars as pl

from kgdiff.export.distractors.class_members import relation_kinds
from kgdiff.export.distractors.human_roles import HUMAN, TYPICAL_SCHEMA
from kgdiff.export.distractors.lifespans import Lifespans
from kgdiff.export.distractors.noise_plan import DECLARED_SCHEMA
from kgdiff.export.distractors.subject_truths import SubjectTruths
from kgdiff.export.distractors.tier_build import (
    KINDS_SCHEMA,
    kept_candidates,
    placed_candidates,
)
from kgdiff.export.distractors.tier_places import (
    alias_clashes,
    drawn_candidates,
    sorted_aliases,
    tier_starts,
)
from kgdiff.export.relations.model import ObjectType, RelationCatalogue

_PEOPLE = pl.Schema({"cand": pl.UInt32(), "value": pl.String()})


@dataclass(frozen=True)
class NoiseTiers:
    """The distractor candidates (``cand``, ``value``, ``text``, ``form``, ``phrase``; sorted
    by ``cand``), the forms of their other texts (``cand``, ``form``: aliases, sorted by form),
    each tier's members in order (``tier``, ``index``, ``cand``: each tier's indexes from 0) and
    each tier's key and size (``key``, ``tier``, ``n``; tiers numbered from 0);
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
    (:func:`~kgdiff.export.distractors.store_facts.read_typical_roles`)."""
    truths: SubjectTruths | None = None
    """The values the subjects hold under a relation of the same kind, in any snapshot."""
    people: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=_PEOPLE))
    """``cand``, ``value``: the candidates of class human (Q5)."""
    lifespans: Lifespans | None = None
    """The people's years of birth and death, read as records asked about a year need them."""
    starts: pl.Series = field(init=False)
    """Where each tier's places begin among the ``members`` (:func:`tier_starts`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "starts", tier_starts(self.sizes))

    def drawn(self, places: pl.DataFrame) -> pl.DataFrame:
        """``places`` (``tier``, ``index``) with the candidate at each and its words
        (:func:`~kgdiff.export.distractors.tier_places.drawn_candidates`)."""
        return drawn_candidates(places, self.starts, self.members, self.candidates)

    def clashes(self, taken: pl.DataFrame) -> pl.DataFrame:
        """(``_id``, ``cand``): the candidates one of whose aliases reads as a form taken
        (:func:`~kgdiff.export.distractors.tier_places.alias_clashes`)."""
        return alias_clashes(taken, self.aliases)

    def summary(self) -> str:
        """How many tiers and candidates, and the memory their frames take."""
        frames = (self.candidates, self.aliases, self.members, self.sizes, self.people)
        held = sum(frame.estimated_size() for frame in frames) / 2**20
        return (
            f"{self.sizes.height:,} distractor tiers of {self.candidates.height:,} candidates"
            f" ({self.members.height:,} places, {self.aliases.height:,} aliases: {held:,.0f} MB)"
        )

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
        kinds = words.drop_nulls("main").select(KINDS_SCHEMA.names())

        def words_of(values: pl.Series) -> pl.DataFrame:
            return words.join(values.to_frame("value"), on="value", how="semi")

        return cls.built(
            pairs, [kinds], words_of, catalogue, items, truths, typical, cap, lifespans
        )

    @classmethod
    def built(
        cls,
        pairs: pl.DataFrame,
        kinds: Iterable[pl.DataFrame],
        words_of: Callable[[pl.Series], pl.DataFrame],
        catalogue: RelationCatalogue,
        items: list[str] | None = None,
        truths: SubjectTruths | None = None,
        typical: pl.DataFrame | None = None,
        cap: int | None = None,
        lifespans: Lifespans | None = None,
    ) -> NoiseTiers:
        """:meth:`of`, the values' kind keys given in batches (``kinds``:
        :data:`~kgdiff.export.distractors.tier_build.KINDS_SCHEMA`, the values with words
        alone, each in one batch) and the words of the candidates kept read by ``words_of``
        (the values' ``value``, ``main``, ``main_form``, ``phrase``, ``forms`` and
        ``classes``, of which only the class human is read: role keys need not be there): what an
        export holds while it builds them is the tiers and one batch
        (:mod:`kgdiff.export.distractors.tier_build`)."""
        found = pairs.select("pid", "value").unique().join(relation_kinds(catalogue), on="pid")
        extra = pl.DataFrame(
            {"pid": None, "value": sorted(set(items or ())), "kind": ObjectType.ITEM.value},
            schema={"pid": pl.String(), "value": pl.String(), "kind": pl.String()},
        )
        placed = placed_candidates(pl.concat([found, extra.join(found, on="value", how="anti")]))
        del found
        base, keyed, keys = kept_candidates(placed, kinds, cap)
        del placed
        words = words_of(base.get_column("value").unique())
        base = base.select("cand", "value").join(
            words.select(
                "value", pl.col("main").alias("text"), pl.col("main_form").alias("form"),
                "phrase", "forms", "classes",
            ),
            on="value", maintain_order="left",
        )  # fmt: skip
        people = base.filter(pl.col("classes").list.contains(HUMAN)).select("cand", "value")
        # the tiers of some candidate, numbered anew in their keys' order
        sizes = keyed.group_by("tier").agg(pl.len().cast(pl.UInt32()).alias("n")).sort("tier")
        sizes = sizes.with_row_index("id").join(keys, on="tier", maintain_order="left")
        members = keyed.join(sizes.select("tier", "id"), on="tier", maintain_order="left")
        members = members.select(
            pl.col("id").alias("tier"),
            pl.int_range(pl.len(), dtype=pl.UInt32()).over("id").alias("index"),
            "cand",
        )
        sizes = sizes.select(pl.col("id").alias("tier"), "key", "n")
        # a candidate is one row of ``base``: its forms made distinct in their list are its
        # aliases distinct (a unique over every alias row was the tiers' last peak)
        spelled = pl.element().is_not_null() & (pl.element() != "")
        forms = pl.col("forms").list.filter(spelled).list.unique(maintain_order=True)
        aliases = base.select("cand", forms.alias("form")).explode("form").drop_nulls("form")
        aliases = sorted_aliases(aliases)
        candidates = base.select("cand", "value", "text", "form", "phrase")
        declared = pl.DataFrame(
            [(r.pid, r.object_class) for r in catalogue if r.object_class],
            schema=DECLARED_SCHEMA,
            orient="row",
        )
        typical = typical if typical is not None else pl.DataFrame(schema=TYPICAL_SCHEMA)
        return cls(
            candidates, aliases, members, sizes, declared, typical,
            truths, people, lifespans,
        )  # fmt: skip
