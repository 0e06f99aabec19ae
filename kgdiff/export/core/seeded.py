"""Randomness that depends on the seed and a record's id alone, never on iteration order.

Every random choice of an export draws from a generator of its own, derived by hashing the
seed, the record's id and what the choice is for; so a record gets the same options whether it
is built first or last, alone (``--limit``) or among a million others. Choices that must not
move with the seed (which distractors a record gets) hash the record's id without the seed.
"""

from __future__ import annotations

import hashlib
import random

SEPARATOR = "\x1f"
"""What joins the parts of a digest (the unit separator: no id contains it)."""


def digest(*parts: str) -> int:
    """The 64-bit blake2b digest of ``parts`` (joined by :data:`SEPARATOR`)."""
    joined = SEPARATOR.join(parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(joined, digest_size=8).digest(), "big")


def fixed_rng(record_id: str, purpose: str) -> random.Random:
    """A generator for a record that no seed moves (e.g. which distractors it is offered)."""
    return random.Random(digest("fixed", record_id, purpose))


def seeded_rank(seed: int, record_id: str) -> int:
    """A record's place in the seed's order (``--limit`` keeps the first N of a split)."""
    return digest(str(seed), record_id, "limit")
