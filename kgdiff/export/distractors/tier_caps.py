"""The bound on a distractor tier (:mod:`kgdiff.export.distractors.noise_frames`): a tier keeps at
most :data:`TIER_CAP` candidates, so that the distractors' pool, and the words an export holds for
it, stop growing with the store (docs/benchmark-export.md#option-kind-agreement).

A tier with more candidates keeps those whose value's digest (blake2b of the value id with
no seed, purpose ``pool``: :func:`~kgdiff.export.core.column_draws.digests`) is smallest: a sample
of the whole tier, the same whatever order the store returns rows in and whatever the seed
(no seed moves a record's distractors), and, as every tier ranks a value by the same digest,
the values kept by one tier of a key tend to be those kept by the others. A tier of at most
:data:`TIER_CAP` candidates is whole, as it was before the bound: on every store whose tiers
are that small the records are byte for byte those of an unbounded pool.
"""

from __future__ import annotations

import os

import polars as pl

from kgdiff.errors import UsageError
from kgdiff.export.core.column_draws import digests

TIER_CAP = 2_000
"""Candidates a tier keeps at most. The demo's and the test samples' largest tier holds 70
(the same relation's objects of one class); at 3 × 2.5 M statements 71 of 4,420 tiers are
larger, at 3 × 25 M 212 of 9,861, the largest (scholarly articles) 1.1 M candidates. A record
draws at most 64 times from a tier before the next
(:data:`~kgdiff.export.distractors.noise_frames.DRAWS`): 2,000 candidates are as good a sample for
it as a million."""
TIER_CAP_ENV = "KGDIFF_EXPORT_TIER_CAP"
"""The environment variable that sets another cap (a whole number, at least 1): to see what
the bound changes, or, in the tests, to hold a small store to it."""


def tier_cap() -> int:
    """The cap of this export: :data:`TIER_CAP`, or :data:`TIER_CAP_ENV` when set."""
    given = os.environ.get(TIER_CAP_ENV, "").strip()
    if not given:
        return TIER_CAP
    if not given.isdigit() or int(given) < 1:
        raise UsageError(
            f"{TIER_CAP_ENV}={given!r}: give the most candidates a distractor tier keeps, a"
            f" whole number of at least 1 (default {TIER_CAP}), or unset it"
        )
    return int(given)


def capped_tiers(keyed: pl.DataFrame, values: pl.DataFrame, cap: int) -> pl.DataFrame:
    """``keyed`` (``tier``, ``cand``: each candidate of each tier) with every tier of more
    than ``cap`` candidates cut to the ``cap`` whose value (``values``: ``cand``, ``value``)
    has the smallest digest (ties by candidate); the rows in their order."""
    sizes = keyed.group_by("tier").agg(pl.len().alias("_n"))
    large = sizes.filter(pl.col("_n") > cap).select("tier")
    if not large.height:
        return keyed
    over = keyed.join(large, on="tier").join(values.select("cand", "value"), on="cand")
    distinct = over.get_column("value").unique()
    ranks = pl.DataFrame(
        {"value": distinct, "_rank": digests(distinct.to_list(), "fixed", purpose="pool")},
        schema={"value": pl.String(), "_rank": pl.UInt64()},
    )
    over = over.join(ranks, on="value").sort("tier", "_rank", "cand")
    kept = over.filter(pl.int_range(pl.len()).over("tier") < cap).select("tier", "cand")
    small = keyed.join(large, on="tier", how="anti")
    return pl.concat([small, kept]).sort("tier", "cand")
