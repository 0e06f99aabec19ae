"""What an export left out, per split and reason (docs/benchmark-export.md#what-is-left-out):
every config's ``kgdiff_build.json`` entry has ``dropped``, ``{split: {reason: records}}``
with every split of the config (an empty object when nothing was left out), and the key
:data:`NO_SPLIT` for what no split could be given (the ``pools`` years of a group none of whose
years is asked has no state). The counts are filled while the splits are built and written.

A split's tally also adds to the config's ``left_out`` totals, which ``kgdiff_build.json`` has
always had.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

NO_SPLIT = "(no split)"
"""The ``dropped`` key of records left out before they had a split."""


class SplitTally(Counter[str]):
    """One split's reasons, each count also added to the config's totals."""

    def __init__(self, totals: Counter[str]) -> None:
        super().__init__()
        self._totals = totals

    def __setitem__(self, key: str, value: int) -> None:
        self._totals[key] += value - self.get(key, 0)
        super().__setitem__(key, value)

    def update(self, iterable: Any = None, /, **kwds: int) -> None:
        """Add counts (a mapping) or one per element (an iterable), as ``Counter.update``."""
        for key, count in Counter(iterable, **kwds).items():
            self[key] = self.get(key, 0) + count


def split_tallies(splits: Iterable[str], totals: Counter[str]) -> dict[str, Counter[str]]:
    """A :class:`SplitTally` per split, adding to ``totals``."""
    return {split: SplitTally(totals) for split in splits}


def dropped_json(dropped: dict[str, Counter[str]]) -> dict[str, dict[str, int]]:
    """``dropped`` with its reasons sorted and only the counts that are not 0 (and
    :data:`NO_SPLIT` only when something was left out before it had a split)."""
    found = {
        split: {reason: count for reason, count in sorted(tally.items()) if count}
        for split, tally in dropped.items()
    }
    if not found.get(NO_SPLIT, True):
        del found[NO_SPLIT]
    return found
