"""An entity row of a staging part, and one left out because its id appears again: what
the finalize's plan carries to each bucket (see :mod:`kgdiff.store.duplicates`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One entity row of a part file: its id, revision and line, and where it lies."""

    qid: str
    lastrevid: int | None
    source_line: int
    folder: str
    """The part folder (chunk) it was parsed into."""
    group: int
    """Its record batch in the folder's part files."""
    row: int
    """Its row in the entities batch."""

    @property
    def rank(self) -> tuple[bool, int, int]:
        """The occurrence with the highest rank is kept (see module doc)."""
        return (self.lastrevid is not None, self.lastrevid or 0, self.source_line)


@dataclass(frozen=True, slots=True)
class Dropped:
    """An occurrence left out, and the one kept instead."""

    loser: Occurrence
    kept: Occurrence
