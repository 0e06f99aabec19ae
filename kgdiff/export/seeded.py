"""Randomness that depends on the seed and a record's id alone, never on iteration order.

Every random choice of an export draws from a generator of its own, derived by hashing the
seed, the record's id and what the choice is for; so a record gets the same options whether it
is built first or last, alone (``--limit``) or among a million others. Choices that must not
move with the seed (which distractors a record gets) hash the record's id without the seed.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable

import numpy as np
import polars as pl

SEPARATOR = "\x1f"
"""What joins the parts of a digest (the unit separator: no id contains it)."""


def digest(*parts: str) -> int:
    """The 64-bit blake2b digest of ``parts`` (joined by :data:`SEPARATOR`)."""
    joined = SEPARATOR.join(parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(joined, digest_size=8).digest(), "big")


def record_rng(seed: int, record_id: str, purpose: str) -> random.Random:
    """A generator for one purpose of one record (``purpose`` e.g. "options", "tf")."""
    return random.Random(digest(str(seed), record_id, purpose))


def fixed_rng(record_id: str, purpose: str) -> random.Random:
    """A generator for a record that no seed moves (e.g. which distractors it is offered)."""
    return random.Random(digest("fixed", record_id, purpose))


def seeded_rank(seed: int, record_id: str) -> int:
    """A record's place in the seed's order (``--limit`` keeps the first N of a split)."""
    return digest(str(seed), record_id, "limit")


def record_digests(seed: int | None, record_ids: Iterable[str], purpose: str) -> pl.Series:
    """The 64-bit digest of each record for one purpose, as :func:`record_rng` seeds its
    generator (``seed`` None: as :func:`fixed_rng`), for choices made column by column."""
    head = "fixed" if seed is None else str(seed)
    values = [digest(head, record_id, purpose) for record_id in record_ids]
    return pl.Series(values, dtype=pl.UInt64())


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


def mixed(digests: pl.Series, salt: pl.Series | int) -> pl.Series:
    """SplitMix64's output for each digest combined with its ``salt`` (a slot, a draw's
    number): independent uniform 64-bit values from one digest per record. numpy's unsigned
    arithmetic wraps, which the mix relies on; polars' may not."""
    base = digests.to_numpy().astype(np.uint64)
    extra = salt.to_numpy().astype(np.uint64) if isinstance(salt, pl.Series) else np.uint64(salt)
    with np.errstate(over="ignore"):
        z = base + (extra + np.uint64(1)) * _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _MIX_1
        z = (z ^ (z >> np.uint64(27))) * _MIX_2
        z = z ^ (z >> np.uint64(31))
    return pl.Series(digests.name, z, dtype=pl.UInt64())
