"""The ``pools`` config's static sample (``--pools-static``): ChroKnowBench collects about as
many static instances as dynamic ones, so by default the ``static`` split keeps as many static
groups as there are dynamic ones, those first in the seed's order; ``all`` keeps every one, N at
most N. The choice is made on the groups' states, before any record is built."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import polars as pl

from kgdiff.errors import UsageError
from kgdiff.export.core.benchmark_model import POOLS_STATIC_POLICIES
from kgdiff.export.core.seeded import seeded_rank

NOT_SAMPLED = "static_group_not_sampled"
"""Why the years of a static group left out of the sample (``--pools-static``) have no record."""


def pools_static_policy(value: str | int) -> str | int:
    """``balanced``, ``all`` or a number of static groups, at least 1 (also given as text); a
    usage error naming ``--pools-static`` and the values it takes for anything else."""
    if isinstance(value, str) and value.strip() in POOLS_STATIC_POLICIES:
        return value.strip()
    if isinstance(value, str) and re.fullmatch(r"[0-9]+", value.strip()):
        value = int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    raise UsageError(
        f"--pools-static {value}: give balanced (as many static groups as dynamic ones, the"
        " default), all (every static group) or N (at most N static groups, N at least 1)"
    )


@dataclass(frozen=True)
class StaticSample:
    """Which static groups the ``static`` split keeps: ``kept`` of ``of``, by ``policy``."""

    policy: str | int
    kept: int
    of: int
    dynamic: int
    """The dynamic groups (the ``balanced`` policy keeps as many static ones)."""

    def counts(self) -> dict[str, Any]:
        """For ``kgdiff_build.json``."""
        return {"policy": self.policy, "kept": self.kept, "of": self.of}

    def sentence(self) -> str:
        """What the dataset card says of the sample."""
        if self.kept == self.of:
            return f" The `static` split holds every static group ({self.of:,})."
        rule = (
            "as many static groups as dynamic ones, as ChroKnowBench balances them"
            if self.policy == "balanced"
            else f"at most {self.policy:,} static groups"
        )
        return (
            f" The `static` split is a sample: {rule} ({self.kept:,} of {self.of:,}), the first"
            " in the seed's order (`--pools-static all` keeps every one)."
        )

    def note(self) -> str | None:
        """What the command says of the sample, when it left static groups out."""
        if self.kept == self.of:
            return None
        rule = (
            "as many as the dynamic groups (--pools-static balanced, the default)"
            if self.policy == "balanced"
            else f"--pools-static {self.policy}"
        )
        return (
            f"pools: the static split is a sample of {self.kept:,} of {self.of:,} static groups,"
            f" {rule}, chosen by the seed; --pools-static all keeps every one"
        )


def sample_static(
    asked: pl.DataFrame, policy: str | int, seed: int
) -> tuple[pl.DataFrame, StaticSample]:
    """The asked years of every dynamic group and of the static groups ``policy`` keeps
    (``balanced``: as many as the dynamic groups; ``all``; or at most N): those first in the
    seed's order (:func:`~kgdiff.export.core.seeded.seeded_rank`, ties by group id)."""
    static = asked.filter(pl.col("state") == "static").get_column("group_id").unique()
    dynamic = asked.filter(pl.col("state") == "dynamic").get_column("group_id").n_unique()
    wanted = {"all": static.len(), "balanced": dynamic}.get(str(policy))
    wanted = min(static.len(), int(policy) if wanted is None else wanted)
    if wanted == static.len():
        return asked, StaticSample(policy, wanted, static.len(), dynamic)
    ranks = pl.DataFrame(
        {"group_id": static, "_rank": [seeded_rank(seed, i) for i in static]},
        schema={"group_id": pl.String(), "_rank": pl.UInt64()},
    )
    kept = ranks.sort("_rank", "group_id").head(wanted).get_column("group_id")
    chosen = asked.filter((pl.col("state") != "static") | pl.col("group_id").is_in(kept.implode()))
    return chosen, StaticSample(policy, wanted, static.len(), dynamic)
