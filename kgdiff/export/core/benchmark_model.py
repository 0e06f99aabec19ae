"""What a benchmark export is asked for, and what each of its configs produced."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl

from kgdiff.temporal.dates import GapPolicy

DEFAULT_SEED = 0
DEFAULT_MIN_SITELINKS = 1
"""A subject needs an article in at least one Wikimedia project by default: most items of a
full Wikidata dump have none (scholarly articles, genes, stars: under one sitelink per entity
on average), and a question about one asks what no encyclopedia a model read has said."""
POOLS_STATIC_POLICIES = ("balanced", "all")
"""The ``pools`` config's named policies for its static groups (or a positive number)."""


@dataclass(frozen=True)
class BenchmarkRequest:
    """The parameters of an export (``kgdiff export benchmark``)."""

    cutoff: date
    init: date | None = None
    """Default: the first snapshot's date (as ``kgdiff classify``)."""
    current: date | None = None
    """Default: the latest snapshot's date."""
    mode: str = "record"
    seed: int = DEFAULT_SEED
    limit: int | None = None
    """At most this many records per split (chosen by the seed), or all."""
    configs: tuple[str, ...] = ("qa",)
    relations: Path | None = None
    """A relation catalogue file over the shipped one (docs/relations.md)."""
    lang: str = "en"
    options: int = 4
    """Options per multiple-choice item."""
    gap: GapPolicy = field(default_factory=GapPolicy)
    """How far past the data a date may go (``--max-gap``, ``--allow-gap``)."""
    pools_static: str | int = "balanced"
    """The ``pools`` config's static groups: ``balanced`` (as many as its dynamic groups, as
    ChroKnowBench balances them), ``all``, or at most this many; the first in the seed's
    order (``--pools-static``)."""
    min_sitelinks: int = DEFAULT_MIN_SITELINKS
    """Only subjects with at least this many sitelinks are asked about (``--min-sitelinks``)."""
    min_pageviews: int | None = None
    """With page views in the store, only subjects whose article has a median of at least this
    many monthly views (``--min-pageviews``); None: no such filter."""


@dataclass(frozen=True)
class Dates:
    """The three dates of an export, resolved (defaults filled in)."""

    init: date
    cutoff: date
    current: date

    def iso(self) -> dict[str, str]:
        """``init``, ``cutoff`` and ``current`` as ISO strings."""
        return {
            "init": self.init.isoformat(),
            "cutoff": self.cutoff.isoformat(),
            "current": self.current.isoformat(),
        }


@dataclass(frozen=True)
class ConfigExport:
    """One config: its splits (each an iterable of frames in the config's schema, records
    sorted by id across them, built as they are written) and its counts."""

    name: str
    schema: pl.Schema
    splits: Mapping[str, Iterable[pl.DataFrame]]
    counts: dict[str, Any] = field(default_factory=dict)
    """What the records came from and what was left out, for ``kgdiff_build.json`` (some
    are filled while the splits are written)."""
    description: str = ""
    """A paragraph of the dataset card about this config."""
    sizes: dict[str, int] = field(default_factory=dict)
    """Records per split, filled as each split is written."""
    notes: tuple[str, ...] = ()
    """What the command says of this config after the records (e.g. a split sampled)."""

    def records(self) -> dict[str, int]:
        """Records per split (once written)."""
        return {name: self.sizes.get(name, 0) for name in self.splits}


@dataclass(frozen=True)
class BuildFacts:
    """What the card and ``kgdiff_build.json`` say of the build besides the records."""

    parameters: dict[str, Any]
    store: dict[str, Any]
    kgdiff_version: str
