"""Choose each entity's latest revision across every change file, and apply the deletions.

Run on a private in-memory DuckDB over the occurrences (:mod:`kgdiff.refresh.occurrences`)
by ``sql/refresh/last_deletions.sql`` and ``sql/refresh/verdicts.sql``. What is not kept is
left out of the delta's tables by the sort (:func:`kgdiff.store.finalize.finalize`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from kgdiff.refresh.inputs import ParsedInput
from kgdiff.refresh.occurrences import occurrences, xml_revisions
from kgdiff.sqlfiles import load_sql
from kgdiff.store.occurrences import Dropped, Occurrence
from kgdiff.store.optimizers import connect

KEPT = "kept"
DELETIONS_SCHEMA = pa.schema(
    [
        ("entity", pa.string()),
        ("timestamp", pa.string()),
        ("action", pa.string()),
        ("position", pa.int64()),
    ]
)


@dataclass(frozen=True)
class Selection:
    """What the delta holds: the kept occurrences' ids (and redirect targets), the ids
    deleted, the occurrences to leave out, and how many revisions met each fate."""

    kept: pa.Table
    """``qid``, ``redirect_to`` of each kept revision, by id."""
    deleted: list[str]
    """The ids a deletion removes (whether or not a change file has a revision of them)."""
    left_out: list[Dropped]
    """The occurrences not kept, by id (what the sort leaves out)."""
    fates: dict[str, int]
    """Revisions ``kept``, ``superseded``, ``after_date`` and ``deleted``."""


def _connection(inputs: list[ParsedInput], deletions: pa.Table) -> duckdb.DuckDBPyConnection:
    connection = connect()
    connection.execute("SET threads = 2")
    connection.register("occurrences", occurrences(inputs))
    connection.register("xml_revisions", xml_revisions(inputs))
    connection.register("deletions", deletions)
    return connection


def _left_out(verdicts: pa.Table) -> list[Dropped]:
    lost = verdicts.filter(pc.not_equal(verdicts["verdict"], KEPT))
    columns = [lost[name].to_pylist() for name in ("qid", "lastrevid", "source_line")]
    places = [lost[name].to_pylist() for name in ("folder", "batch", "row")]
    dropped = []
    for qid, lastrevid, line, folder, batch, row in zip(*columns, *places, strict=True):
        occurrence = Occurrence(qid, lastrevid, line, folder, batch, row)
        dropped.append(Dropped(occurrence, occurrence))
    return dropped


def select_revisions(
    inputs: list[ParsedInput], deletions: pa.Table, after: str, cutoff: str
) -> Selection:
    """The selection for revisions at or before ``cutoff`` and deletions after ``after``
    (both ``YYYY-MM-DDTHH:MM:SSZ``)."""
    connection = _connection(inputs, deletions)
    try:
        params = {"after": after, "cutoff": cutoff}
        last: pa.Table = connection.execute(
            load_sql("refresh/last_deletions"), params
        ).to_arrow_table()
        connection.register("last_deletions", last)
        verdicts: pa.Table = connection.execute(
            load_sql("refresh/verdicts"), {"cutoff": cutoff}
        ).to_arrow_table()
    finally:
        connection.close()
    kept_rows = verdicts.filter(pc.equal(verdicts["verdict"], KEPT))
    kept = kept_rows.select(["qid", "redirect_to"])
    removed = last.filter(pc.equal(last["action"], "delete"))["qid"]
    still = pc.invert(pc.is_in(removed, value_set=kept["qid"].combine_chunks()))
    deleted = removed.filter(still).to_pylist()
    fates: Counter[str] = Counter(verdicts["verdict"].to_pylist())
    return Selection(kept, deleted, _left_out(verdicts), dict(fates))
