"""What the export left out, as ``kgdiff_build.json`` counts it, for the audit's table.

The file's layout has changed before and may change again, so the reading is this one
function, which takes whatever it finds and degrades to "not counted" when a key is absent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DROP_KEYS = ("dropped", "left_out")
"""Where ``kgdiff_build.json`` counts records left out, the per-split key first: every config
writes ``dropped: {split: {reason: n}}``; older exports only ``left_out``."""


@dataclass(frozen=True)
class Dropped:
    """Records left out, per reason; ``scope`` says whether they were counted for the split
    itself (``split``) or only for its whole config (``config``)."""

    counts: dict[str, int]
    scope: str

    @property
    def total(self) -> int:
        """Every record left out, all reasons together."""
        return sum(self.counts.values())


def _reasons(value: Any, empty: bool = False) -> dict[str, int] | None:
    """``{reason: count}`` when ``value`` is one (ints only; reasons counted 0 times left
    out), else None; an empty mapping is one only when ``empty`` (a split with nothing left
    out)."""
    if not isinstance(value, dict) or (not value and not empty):
        return None
    if all(isinstance(count, int) and not isinstance(count, bool) for count in value.values()):
        return {str(reason): int(count) for reason, count in sorted(value.items()) if count}
    return None


def dropped(build: dict[str, Any], config: str, split: str) -> Dropped | None:
    """The reasons records of ``config``'s ``split`` were left out, read from the export's
    ``kgdiff_build.json`` (``build``): per split when the file counts them so
    (``configs.<config>.dropped.<split>``, ``configs.<config>.splits.<split>.left_out``, or
    ``configs.<config>.left_out.<split>``), else the config's own counts
    (``configs.<config>.left_out``); None when it has neither."""
    entry = build.get("configs", {}).get(config)
    if not isinstance(entry, dict):
        return None
    splits = entry.get("splits")
    split_entry = splits.get(split) if isinstance(splits, dict) else None
    for key in DROP_KEYS:
        holder = entry.get(key)
        own = split_entry.get(key) if isinstance(split_entry, dict) else None
        for found in (own, holder.get(split) if isinstance(holder, dict) else None):
            if (counts := _reasons(found, empty=key == "dropped")) is not None:
                return Dropped(counts, "split")
    for key in DROP_KEYS:
        if (counts := _reasons(entry.get(key))) is not None:
            return Dropped(counts, "config")
    return None
