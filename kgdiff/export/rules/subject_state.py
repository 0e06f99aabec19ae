"""What the store says of a ``multi_hop`` chain's hops beyond the snapshot it was read in: a
past-tense hop's group that held several values, a hop a later snapshot shows changed by the
chain's date (which subjects no longer exist: :mod:`kgdiff.export.rules.entity_ends`)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

import duckdb
import polars as pl

from kgdiff.sqlfiles import load_sql

PAST_HOP_HELD_SEVERAL = "past_hop_held_several_values"
"""Why a chain is left out: a hop about a subject that no longer exists, asked in the past
tense, has a group that held more than one value ("Which country was Adolf Hitler a citizen
of?" is Austria as much as Germany), so its answer is not the one the chain goes on from."""


def several_valued(
    connection: duckdb.DuckDBPyConnection, groups: Iterable[tuple[str, str]], snapshot: str
) -> frozenset[tuple[str, str]]:
    """The ``(subject, pid)`` groups among ``groups`` that hold more than one value in
    ``snapshot`` over all their statements, whatever their dates
    (``sql/export/held_counts.sql``)."""
    wanted = sorted(set(groups))
    if not wanted:
        return frozenset()
    params = {
        "subjects": [subject for subject, _ in wanted],
        "pids": [pid for _, pid in wanted],
        "snapshot": snapshot,
    }
    rows = connection.execute(load_sql("export/held_counts"), params).fetchall()
    return frozenset((str(subject), str(pid)) for subject, pid, held in rows if held > 1)


HOP_CHANGED = "hop_changed_by_the_date"
"""Why a chain is left out: a later snapshot records that one of its hops had changed by the
chain's date, which the snapshot read did not know yet (``sql/export/stale_hops.sql``)."""


HOPS_READ = "stale_hops_read"
"""The name the hops :func:`changed_hops` asks about go by in ``sql/export/stale_hops.sql``."""


def changed_hops(
    connection: duckdb.DuckDBPyConnection,
    hops: pl.DataFrame,
    snapshot: str,
    day: date,
) -> frozenset[tuple[str, str]]:
    """The ``(subject, pid)`` groups of ``hops`` (``subject``, ``pid``, ``object``) read in
    ``snapshot`` that a later snapshot shows to have held, by ``day``, a value none of their
    hops read. The hops go to DuckDB as an Arrow table (as Python tuples and lists of
    parameters, the 1.2 M hops of 3 × 200 M statements raised the export's memory by ~1 GB)."""
    wanted = hops.select("subject", "pid", "object").unique()
    if not wanted.height:
        return frozenset()
    connection.register(HOPS_READ, wanted.to_arrow())
    try:
        params = {"snapshot": snapshot, "day": day}
        rows = connection.execute(load_sql("export/stale_hops"), params).fetchall()
    finally:
        connection.unregister(HOPS_READ)
    return frozenset((str(subject), str(pid)) for subject, pid in rows)
