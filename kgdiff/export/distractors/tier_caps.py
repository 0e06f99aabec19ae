"""The bound on a distractor tier (:mod:`kgdiff.export.distractors.noise_frames`): a tier keeps at
most :data:`TIER_CAP` candidates (cut as they are found:
:mod:`kgdiff.export.distractors.tier_build`), so that the distractors' pool, and the words an
export holds for it, stop growing with the store
(docs/benchmark-export.md#option-kind-agreement).

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

from kgdiff.errors import UsageError

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
