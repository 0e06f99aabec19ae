"""Distractor documents (AntiLeakBench's multi-document setting): leads of Wikipedia articles
that mention none of a record's entities, by any label or alias, so that a model reading them
learns nothing about the answer."""

from __future__ import annotations

import re
from collections.abc import Iterable

import duckdb

from kgdiff.export.core.seeded import fixed_rng
from kgdiff.sqlfiles import load_sql

DOCUMENT_COUNTS = (3, 5, 7)
"""The variants: a record carries 3, 5 and 7 distractors (each list the start of the next)."""
DRAWS = 400
"""How many articles a record tries at most (most mention none of its entities)."""


def mentions(names: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern finding any of ``names`` as a whole word or phrase, in any case (the names
    escaped: a name such as "C++" or "A.C. Milan" is matched as written)."""
    escaped = sorted({re.escape(name.strip()) for name in names if name.strip()}, key=len)
    if not escaped:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(reversed(escaped)) + r")(?!\w)", re.IGNORECASE)


class DistractorPool:
    """The leads of one Wikipedia snapshot's articles, in title order."""

    def __init__(self, leads: list[tuple[str, str]]) -> None:
        self._leads = leads

    @classmethod
    def read(cls, connection: duckdb.DuckDBPyConnection, snapshot: str | None) -> DistractorPool:
        """The articles of ``snapshot`` (none without a snapshot)."""
        if snapshot is None:
            return cls([])
        rows = connection.execute(load_sql("export/page_leads"), {"snapshot": snapshot})
        return cls([(str(title), str(lead)) for title, lead in rows.fetchall()])

    def pick(self, record_id: str, names: Iterable[str], count: int) -> list[str]:
        """Up to ``count`` leads that mention none of ``names``, in an order fixed by the
        record's id (no seed moves it)."""
        pattern = mentions(names)
        rng = fixed_rng(record_id, "documents")
        tries = min(len(self._leads), DRAWS)
        chosen: list[str] = []
        for index in rng.sample(range(len(self._leads)), tries):
            title, lead = self._leads[index]
            hit = pattern is not None and (pattern.search(lead) or pattern.search(title))
            if not hit:
                chosen.append(lead)
                if len(chosen) == count:
                    break
        return chosen


def document_variants(found: list[str]) -> dict[str, list[str] | None]:
    """``distractors_3``, ``_5`` and ``_7``: the first N distractors, or null with fewer."""
    return {f"distractors_{n}": found[:n] if len(found) >= n else None for n in DOCUMENT_COUNTS}
