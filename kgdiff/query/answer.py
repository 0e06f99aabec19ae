"""An answer and the values questions take: :class:`Answer` (rows, the reads of the dates,
notes), dates given as dates or text, ids given one or several, levels."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

import polars as pl
import pyarrow as pa

from kgdiff.errors import UsageError
from kgdiff.ids import normalise_ids
from kgdiff.temporal.dates import DateRead
from kgdiff.temporal.levels import LEVELS

Day = date | str
Ids = str | Sequence[str] | None


@dataclass(frozen=True)
class Answer:
    """Rows, the reads of the question's dates, and notes (why nothing, where it stops)."""

    frame: pl.DataFrame
    reads: list[DateRead] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def arrow(self) -> pa.Table:
        """The rows as an Arrow table (no copy)."""
        return self.frame.to_arrow()


def as_day(value: Day, what: str) -> date:
    """A date given as a date or ``YYYY-MM-DD``; a usage error naming ``what`` otherwise."""
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise UsageError(f"{what} {value!r} is not a date; write it as YYYY-MM-DD") from exc


def id_list(values: Ids, what: str) -> list[str]:
    """One id or several, normalised (``p6`` → ``P6``)."""
    if values is None:
        return []
    return normalise_ids([values] if isinstance(values, str) else values, what)


def level_list(levels: Ids) -> list[str]:
    """Levels, each one of :data:`LEVELS` (a usage error naming a wrong one)."""
    chosen = [levels] if isinstance(levels, str) else list(levels or [])
    wrong = [value for value in chosen if value not in LEVELS]
    if wrong:
        raise UsageError(f"level {wrong[0]!r} is not one of {', '.join(LEVELS)}")
    return list(dict.fromkeys(chosen))
