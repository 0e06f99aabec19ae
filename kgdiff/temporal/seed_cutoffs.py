"""The dates the papers kgdiff builds on chose (their cutoffs, snapshot dates and the
training cutoffs of the models they evaluate), shipped in ``kgdiff/data/seed_cutoffs.toml``
so a staleness curve can mark them."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import date
from functools import cache

from kgdiff.resources import data_text

SHIPPED_FILE = "seed_cutoffs.toml"


@dataclass(frozen=True)
class SeedCutoff:
    """One paper's date: what it is, when (the first day of the month for a month), the
    paper, and its role (init, cutoff, current or model cutoff)."""

    name: str
    date: date
    precision: str
    paper: str
    role: str


@cache
def seed_cutoffs() -> tuple[SeedCutoff, ...]:
    """The shipped dates, oldest first."""
    entries = tomllib.loads(data_text(SHIPPED_FILE))["cutoff"]
    found = [
        SeedCutoff(e["name"], e["date"], e["precision"], e["paper"], e["role"]) for e in entries
    ]
    return tuple(sorted(found, key=lambda seed: (seed.date, seed.name)))
