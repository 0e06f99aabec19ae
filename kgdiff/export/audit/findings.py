"""What one check found in one split: how many records (or options) it looked at, how many
broke its rule, and a few of them to read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl

EXAMPLES = 5
"""Records quoted per check and split (the first by id)."""


@dataclass(frozen=True)
class Finding:
    """``count`` of the ``checked`` records (or distractors) have what the check counts;
    ``unchecked`` could not be judged (e.g. an item's class without the store)."""

    count: int
    checked: int
    examples: list[str] = field(default_factory=list)
    unchecked: int = 0

    @property
    def share(self) -> float | None:
        """``count`` / ``checked``, None when nothing was checked."""
        return self.count / self.checked if self.checked else None

    def as_json(self) -> dict[str, Any]:
        """The finding as JSON (``share`` rounded to 4 places)."""
        share = None if self.share is None else round(self.share, 4)
        document: dict[str, Any] = {"count": self.count, "checked": self.checked, "share": share}
        if self.unchecked:
            document["unchecked"] = self.unchecked
        if self.examples:
            document["examples"] = self.examples
        return document


def finding(flags: pl.DataFrame, checked: int, unchecked: int = 0) -> Finding:
    """A finding from the rows that broke the rule (``flags``: an ``example`` column, sorted
    as they should be quoted): their number and the first :data:`EXAMPLES` of them."""
    examples = flags.get_column("example").head(EXAMPLES).to_list() if flags.height else []
    return Finding(flags.height, checked, [str(text) for text in examples], unchecked)


def quoted(text: pl.Expr, width: int = 90) -> pl.Expr:
    """A text cut to ``width`` characters for an example line."""
    return (
        pl.when(text.str.len_chars() > width)
        .then(pl.concat_str([text.str.slice(0, width - 1), pl.lit("…")]))
        .otherwise(text)
    )
