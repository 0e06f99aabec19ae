"""Which snapshot answers each date of a question, and whether the snapshots can answer it.

A date more than ``max_gap`` days after the latest snapshot, or a date no snapshot answers
(record time: before the first one), is refused unless the user allows the gap; the answer
then carries it (sql/dates/date_reads.sql, docs/classification.md). The SQL refuses such dates by
itself in the catalog macros; the library asks first, so that the command line can say which
options change the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import duckdb

from kgdiff.errors import BeyondDataError
from kgdiff.sqlfiles import as_table_macro, load_sql

DEFAULT_MAX_GAP = 31
"""Days a date may lie after the latest snapshot (a monthly dump's rhythm)."""
MACRO_DEFAULTS = {"as_of": "NULL", "max_gap": str(DEFAULT_MAX_GAP), "allow_gap": "false"}


@dataclass(frozen=True)
class GapPolicy:
    """How far past the data a question may go: ``--max-gap`` and ``--allow-gap``."""

    max_gap: int = DEFAULT_MAX_GAP
    allow: bool = False


@dataclass(frozen=True)
class DateRead:
    """What one date of a question reads in one view (record or valid time)."""

    view: str
    role: str
    day: date
    snapshot: str | None
    snapshot_date: date | None
    coverage: str | None
    gap_days: int | None
    problem: str | None


def date_reads_macro() -> str:
    """``CREATE MACRO date_reads(days, roles, mode, as_of, max_gap, allow_gap)``."""
    params = ["days", "roles", "mode", *MACRO_DEFAULTS]
    return as_table_macro("dates/date_reads", "date_reads", params, MACRO_DEFAULTS)


def date_reads(
    connection: duckdb.DuckDBPyConnection,
    days: dict[str, date],
    mode: str,
    as_of: date | None = None,
    max_gap: int = DEFAULT_MAX_GAP,
) -> list[DateRead]:
    """The reads of ``days`` (role → day) in ``mode``, each with its problem (None if fine)."""
    values = {
        "days": list(days.values()),
        "roles": list(days),
        "mode": mode,
        "as_of": as_of,
        "max_gap": max_gap,
        "allow_gap": True,
    }
    rows = connection.execute(load_sql("dates/date_reads"), values).fetchall()
    return [DateRead(view, role, day, *rest) for view, role, _, day, *rest in rows]


GAP_HINT = (
    "Choose dates the snapshots answer, or pass --allow-gap to answer anyway (the output "
    "carries the gap) or --max-gap DAYS"
)
"""What a refused date's message tells a command that takes ``--allow-gap``."""


def check_answerable(
    connection: duckdb.DuckDBPyConnection,
    days: dict[str, date],
    mode: str,
    gap: GapPolicy,
    as_of: date | None = None,
    hint: str = GAP_HINT,
) -> list[DateRead]:
    """The reads of ``days``; a usage error naming the snapshots when some date is beyond the
    data and ``gap`` does not allow it, ending with ``hint`` (what the user can do)."""
    reads = date_reads(connection, days, mode, as_of, gap.max_gap)
    problems = list(dict.fromkeys(r.problem for r in reads if r.problem is not None))
    if problems and not gap.allow:
        listing = snapshot_listing(connection)
        raise BeyondDataError(refusal("; ".join(problems), listing, hint))
    return reads


def refusal(problem: str, listing: str, hint: str) -> str:
    """The one message every face refuses a date with: what is wrong with which date, the
    store's snapshots, what to do (:mod:`kgdiff.temporal.window`)."""
    return f"{problem}. Snapshots: {listing}. {hint}"


def snapshot_listing(connection: duckdb.DuckDBPyConnection) -> str:
    """``name (date), …`` of every snapshot, oldest first ('none' for an empty store)."""
    rows = connection.execute(load_sql("dates/snapshot_listing")).fetchall()
    return ", ".join(f"{name} ({day})" for name, day in rows) or "none"


def latest_snapshot(connection: duckdb.DuckDBPyConnection) -> tuple[str, date] | None:
    """The name and date of the latest snapshot (None for an empty store)."""
    rows = connection.execute(load_sql("dates/snapshot_listing")).fetchall()
    return (str(rows[-1][0]), rows[-1][1]) if rows else None
