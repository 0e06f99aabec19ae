"""Seeded randomness for a whole column of records at once: one 64-bit digest per record id
and purpose, spread over as many slots as a record needs (an order of its options, an order
of its distractor candidates, a coin).

The digest is :mod:`kgdiff.export.core.seeded`'s blake2b of (seed, record id, purpose), computed
once per id (about 0.6 µs each); polars' ``Expr.hash`` would be faster still, but it is only
stable within one polars version (and kgdiff accepts any polars 2), so an upgrade would move
every option of every record. The slots derived from a digest are splitmix64 steps in numpy,
which are the same on every platform and version.
"""

from __future__ import annotations

from collections.abc import Iterable
from hashlib import blake2b

import numpy as np
import numpy.typing as npt
import polars as pl

from kgdiff.export.core.seeded import SEPARATOR

Digests = npt.NDArray[np.uint64]
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def digests(ids: Iterable[str], *parts: str, purpose: str) -> Digests:
    """The digest of each record id between ``parts`` (the seed, or "fixed" for a draw no
    seed moves) and ``purpose``: :func:`kgdiff.export.core.seeded.digest`."""
    before = "".join(f"{part}{SEPARATOR}" for part in parts).encode("utf-8")
    after = f"{SEPARATOR}{purpose}".encode()
    joined = b"".join(
        blake2b(before + key.encode("utf-8") + after, digest_size=8).digest() for key in ids
    )
    return np.frombuffer(joined, dtype=">u8").astype(np.uint64)


def _spread(keys: Digests, steps: Digests) -> Digests:
    """splitmix64 of each key plus its step's multiple of the golden ratio (numpy's unsigned
    arithmetic wraps, which the mix relies on; polars' may not)."""
    with np.errstate(over="ignore"):
        mixed = keys + _GOLDEN * steps
        mixed = (mixed ^ (mixed >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        mixed = (mixed ^ (mixed >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    spread: Digests = mixed ^ (mixed >> np.uint64(31))
    return spread


def slots(keys: Digests, count: int, first: int = 1) -> Digests:
    """``count`` further 64-bit draws per digest (a row per digest), from slot ``first``
    on: splitmix64 of the digest plus the slot's multiple of the golden ratio."""
    steps = np.arange(first, first + count, dtype=np.uint64)
    return _spread(keys[:, None], steps[None, :])


def record_digests(seed: int | None, record_ids: Iterable[str], purpose: str) -> pl.Series:
    """:func:`digests` as a column (``seed`` None: a draw no seed moves, as
    :func:`~kgdiff.export.core.seeded.fixed_rng` makes)."""
    found = digests(record_ids, "fixed" if seed is None else str(seed), purpose=purpose)
    return pl.Series(found, dtype=pl.UInt64())


def mixed(keys: pl.Series, slot: pl.Series | int) -> pl.Series:
    """Each digest's draw of its own ``slot`` (a slot per row, or one for all): slot ``s``
    is the draw :func:`slots` gives at ``s + 1``."""
    own: Digests = keys.to_numpy().astype(np.uint64)
    if isinstance(slot, pl.Series):
        steps: Digests = slot.to_numpy().astype(np.uint64)
    else:
        steps = np.full(len(own), slot, dtype=np.uint64)
    return pl.Series(keys.name, _spread(own, steps + np.uint64(1)), dtype=pl.UInt64())


def coins(keys: Digests) -> npt.NDArray[np.bool_]:
    """A fair coin per digest (the top bit of its slot 0), independent of the order of the
    options (:func:`mixed` of their slots, which are slots 1 on:
    :mod:`kgdiff.export.records.option_order`)."""
    heads: npt.NDArray[np.bool_] = (slots(keys, 1, first=0)[:, 0] >> np.uint64(63)) == 0
    return heads


def first_valid(
    candidates: npt.NDArray[np.int64], valid: npt.NDArray[np.bool_], wanted: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Per row, the first ``wanted`` candidates that are ``valid`` (left to right), and
    whether the row had that many (the rows that had not get zeros)."""
    rank = np.cumsum(valid, axis=1)
    enough = rank[:, -1] >= wanted if candidates.shape[1] else np.zeros(len(valid), bool)
    picked = np.zeros((len(candidates), wanted), dtype=np.int64)
    rows, columns = np.nonzero(valid & (rank <= wanted))
    picked[rows, rank[rows, columns] - 1] = candidates[rows, columns]
    return picked, enough
