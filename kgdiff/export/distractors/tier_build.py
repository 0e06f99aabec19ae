"""The candidates of the distractor tiers found a batch of named values at a time, each tier
cut to the export's cap as the batches come (:mod:`kgdiff.export.distractors.tier_caps`), so that
building the tiers holds the tiers' own rows and one batch, not every answer's tier keys at once
(at 3 × 25 M statements, 3 M answers: the whole-frame build took ~2 GB at its peak).

The result is the one of the whole frame: a candidate is numbered by its place among every
candidate with words in (relation, value) order, and a tier keeps the ``cap`` whose value has the
smallest digest (ties by that order): a per-tier least-``cap`` that batches merge into exactly.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from kgdiff.export.core.column_draws import digests
from kgdiff.export.distractors.noise_plan import candidate_tiers

TEXTS = pl.List(pl.String())
KINDS_SCHEMA = pl.Schema({"value": pl.String(), "classes": TEXTS})
"""A batch of named values with words: each value's kind keys (its people's role keys too)."""
_TOP = pl.Schema({"tier": pl.UInt32(), "at": pl.UInt32(), "_rank": pl.UInt64()})
_KEYS = pl.Schema({"key": pl.String(), "tier": pl.UInt32()})
DIGEST_SLICE = 500_000
"""Values whose digests are worked out at once when a tier is cut."""
PRUNE_ROWS = 1_000_000
"""Tier rows gathered before they are cut to the cap again (then twice as many as were kept):
each cut sorts what is kept, so cutting after every batch would cost the kept rows' sort
again and again."""


class _Tiers:
    """The tiers found so far: each key numbered once, and each tier's rows (the tier's
    number, the candidate's place ``at`` in (relation, value) order), cut to the cap when they
    grow past :data:`PRUNE_ROWS`. Numbers, not texts: at 3 × 50 M statements the rows of the
    tiers as texts and the joins on them were the export's peak."""

    def __init__(self, cap: int | None, values: pl.Series) -> None:
        """``values``: every candidate's value, by its place ``at``."""
        self.cap, self.keys, self.rows = cap, pl.DataFrame(schema=_KEYS), pl.DataFrame(schema=_TOP)
        self._values = values
        self._limit = PRUNE_ROWS

    def add(self, part: pl.DataFrame) -> None:
        """The tiers of a batch's candidates (``at``, ``pid``, ``kind``, ``classes``)."""
        keyed = candidate_tiers(part.rename({"at": "cand"})).rename({"tier": "key", "cand": "at"})
        new = keyed.select("key").unique().join(self.keys, on="key", how="anti").sort("key")
        numbers = pl.int_range(self.keys.height, self.keys.height + new.height, dtype=pl.UInt32())
        self.keys = pl.concat([self.keys, new.with_columns(numbers.alias("tier"))])
        # a row's digest is worked out when its tier is cut (most tiers never are)
        unranked = keyed.join(self.keys, on="key").select(
            "tier", "at", pl.lit(None, pl.UInt64()).alias("_rank")
        )
        self.rows = pl.concat([self.rows, unranked])
        if self.cap is not None and self.rows.height > self._limit:
            self.rows = self._cut(self.cap)
            self._limit = max(PRUNE_ROWS, 2 * self.rows.height)

    def _cut(self, cap: int) -> pl.DataFrame:
        """Each tier's ``cap`` rows of least digest, ties by (relation, value) (``at``); only
        the rows of the tiers larger than ``cap`` are sorted (most tiers are smaller, and
        whole). The rows are split by a mask, not joins: at 3 × 100 M statements (10 M tier
        rows) each join's copy of every row added to the build's peak."""
        sizes = self.rows.get_column("tier").value_counts(name="_n")
        large = sizes.filter(pl.col("_n") > cap).get_column("tier")
        if large.is_empty():
            return self.rows
        in_large = pl.col("tier").is_in(large.implode())
        over = self._ranked(self.rows.filter(in_large))
        over = over.sort("tier", "_rank", "at")  # every row has its digest now
        kept = over.filter(pl.int_range(pl.len()).over("tier") < cap)
        del over
        return pl.concat([self.rows.filter(~in_large), kept])

    def _ranked(self, rows: pl.DataFrame) -> pl.DataFrame:
        """``rows`` with the digest (``_rank``) of the value of each that has none yet, worked
        out a slice of values at a time (a list of every value's text was a peak)."""
        missing = rows.filter(pl.col("_rank").is_null()).get_column("at").unique()
        if missing.is_empty():
            return rows
        starts = range(0, missing.len(), DIGEST_SLICE)
        ranks = pl.concat([self._ranks(missing.slice(start, DIGEST_SLICE)) for start in starts])
        joined = rows.join(ranks, on="at", how="left", maintain_order="left")
        return joined.with_columns(pl.coalesce("_rank", "_new").alias("_rank")).drop("_new")

    def _ranks(self, places: pl.Series) -> pl.DataFrame:
        """``at``, ``_new``: the digest of the value at each of ``places``."""
        values = self._values.gather(places).to_list()
        return pl.DataFrame(
            {"at": places, "_new": digests(values, "fixed", purpose="pool")},
            schema={"at": pl.UInt32(), "_new": pl.UInt64()},
        )

    def kept(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        """Every tier's rows cut to the cap (``tier``, ``at``), the tiers numbered in the
        order of their keys' texts; and those texts (``tier``, ``key``)."""
        rows = self.rows if self.cap is None else self._cut(self.cap)
        order = (
            self.keys.sort("key").with_row_index("_o").with_columns(pl.col("_o").cast(pl.UInt32()))
        )
        rows = rows.join(order.select("tier", "_o"), on="tier").select(
            pl.col("_o").alias("tier"), "at"
        )
        return rows, order.select(pl.col("_o").alias("tier"), "key")


def placed_candidates(found: pl.DataFrame) -> pl.DataFrame:
    """``found`` (``pid``, ``value``, ``kind``, distinct; ``pid`` null for items of small
    classes) in (relation, value) order, each row's place in it as ``at``: what
    :func:`kept_candidates` numbers. The caller lets go of ``found`` (held beside its sorted
    copy through the build, it was 0.3 GB of its peak at 3 × 100 M statements)."""
    placed = found.sort("pid", "value", nulls_last=True).with_row_index("at")
    return placed.with_columns(pl.col("at").cast(pl.UInt32()))


def kept_candidates(
    placed: pl.DataFrame, kinds: Iterable[pl.DataFrame], cap: int | None
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The candidates (``cand``, ``pid``, ``value``, ``kind``) of ``placed``
    (:func:`placed_candidates`) whose value is in a batch of ``kinds`` (:data:`KINDS_SCHEMA`,
    each value in one batch), numbered in (relation, value) order; their tiers (``tier``,
    ``cand``, sorted), each tier of more than ``cap`` candidates cut to ``cap``, only the
    candidates of some tier kept (None: every tier whole, every candidate kept); and the key
    of every tier found (``tier``, ``key``), the tiers numbered in the order of the keys'
    texts."""
    tiers = _Tiers(cap, placed.get_column("value"))
    named: list[pl.Series] = []  # the place of every candidate with words
    for batch in kinds:
        part = placed.join(batch, on="value")
        if part.height:
            named.append(part.get_column("at"))
            tiers.add(part)
    # a candidate's number is its place among those with words: (``at``, ``cand``), numbers
    # alone, the texts of ``placed`` gathered once, for the candidates kept
    places = pl.concat([pl.Series("at", [], dtype=pl.UInt32()), *named]).sort()
    del named
    numbers = places.to_frame().with_row_index("cand")
    numbers = numbers.with_columns(pl.col("cand").cast(pl.UInt32()))
    rows, keys = tiers.kept()
    del tiers
    keyed = rows.join(numbers, on="at").select("tier", "cand").sort("tier", "cand")
    if cap is not None:
        numbers = numbers.filter(pl.col("cand").is_in(keyed.get_column("cand").implode()))
    numbered = placed[numbers.get_column("at")].with_columns(numbers.get_column("cand"))
    return numbered.select("cand", "pid", "value", "kind"), keyed, keys
