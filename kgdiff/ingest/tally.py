"""Running totals of an ingest's finished chunks."""

from __future__ import annotations

from pathlib import Path

from kgdiff.errors import TooManyRejectsError
from kgdiff.readers.json_dump import LineLayout
from kgdiff.store.staging import PartMeta


class Tally:
    """Running totals of finished chunks, checked against ``--max-rejects``."""

    def __init__(self, done: dict[int, PartMeta], max_rejects: int | None, where: Path) -> None:
        self.entities = sum(m.entities for m in done.values())
        self.statements = sum(m.statements for m in done.values())
        self.rejects = sum(m.rejects for m in done.values())
        self.layouts = [_layout(m) for m in done.values()]
        self.max_rejects = max_rejects
        self.where = where
        self.check()

    def add(self, meta: PartMeta) -> None:
        """Count one more finished chunk (raises when rejects pass the limit)."""
        self.entities += meta.entities
        self.statements += meta.statements
        self.rejects += meta.rejects
        self.layouts.append(_layout(meta))
        self.check()

    def check(self) -> None:
        """Raise :class:`TooManyRejectsError` when more rejects than allowed were seen."""
        if self.max_rejects is not None and self.rejects > self.max_rejects:
            raise TooManyRejectsError(
                f"{self.rejects} malformed entities, more than --max-rejects {self.max_rejects}; "
                f"see {self.where}/parts/*/rejects.jsonl, fix the input or raise the limit"
            )


def _layout(meta: PartMeta) -> LineLayout:
    return LineLayout(list(meta.brackets), meta.first_content, meta.last_content)
