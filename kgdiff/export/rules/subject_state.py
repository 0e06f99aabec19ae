"""Which subjects no longer exist on a date (``sql/export/ended_subjects.sql``: a death, a
dissolution or demolition, an end of existence, or a birth more than 130 years before): the
export asks about them in the past tense ("Which country was Elvis Presley a citizen of?",
docs/relations.md#english)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

import duckdb

from kgdiff.sqlfiles import load_sql
from kgdiff.valuetext import is_entity


def ended_subjects(
    connection: duckdb.DuckDBPyConnection, ids: Iterable[str], snapshot: str | None, day: date
) -> frozenset[str]:
    """The entity ids among ``ids`` that no longer exist on ``day``, as the snapshots up to
    ``snapshot`` (every snapshot when None) record it."""
    wanted = sorted({value for value in ids if is_entity(value)})
    if not wanted:
        return frozenset()
    params = {"ids": wanted, "snapshot": snapshot, "day": day}
    rows = connection.execute(load_sql("export/ended_subjects"), params).fetchall()
    return frozenset(str(qid) for (qid,) in rows)
