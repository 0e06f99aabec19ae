"""Which snapshot a subject's pools read, said to the user: the latest snapshot, unless it is
a subset snapshot that does not hold the subject, which is then read from the latest earlier
snapshot that does (sql/pools/pools.sql); the notes name those subjects and their snapshots."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta

import duckdb
import pyarrow as pa

from kgdiff.query.ids import Presence, presence
from kgdiff.temporal.pools import Reach
from kgdiff.wording import counted

SHOWN_SUBJECTS = 5
"""Subjects a note names before it counts the rest."""


def subject_snapshot(
    connection: duckdb.DuckDBPyConnection, qid: str, reach: Reach
) -> Presence | None:
    """The snapshot ``qid``'s pools read: the latest at or before the one ``reach`` reads
    that speaks for it (a full one, or a subset one that holds it); None when none does."""
    speaking = [
        p
        for p in presence(connection, qid)
        if p.date <= reach.snapshot_date and (p.coverage == "full" or p.held)
    ]
    return speaking[-1] if speaking else None


def _snapshot_dates(table: pa.Table) -> dict[str, date]:
    """The date of each snapshot the groups of ``table`` read (a period's last day less
    its ``gap_days``)."""
    dates: dict[str, date] = {}
    for name, periods in zip(
        table.column("snapshot").to_pylist(), table.column("periods").to_pylist(), strict=True
    ):
        if name not in dates and periods:
            dates[name] = periods[0]["last_day"] - timedelta(days=periods[0]["gap_days"])
    return dates


def read_lines(table: pa.Table, reach: Reach) -> list[str]:
    """One line per snapshot other than the latest that some subjects' pools read (the
    latest, a subset snapshot, does not hold them), naming the first of those subjects."""
    others: dict[str, set[str]] = defaultdict(set)
    for subject, name in zip(
        table.column("subject").to_pylist(), table.column("snapshot").to_pylist(), strict=True
    ):
        if name != reach.snapshot:
            others[name].add(subject)
    dates = _snapshot_dates(table) if others else {}
    lines = []
    for name in sorted(others, key=lambda found: (dates[found], found), reverse=True):
        subjects = sorted(others[name])
        shown = ", ".join(subjects[:SHOWN_SUBJECTS])
        if len(subjects) > SHOWN_SUBJECTS:
            shown += f" and {len(subjects) - SHOWN_SUBJECTS:,} more"
        them, their = ("it", "its") if len(subjects) == 1 else ("them", "their")
        lines.append(
            f"the pools of {counted(len(subjects), 'subject')} ({shown}) read {name}"
            f" ({dates[name]}), the latest snapshot that holds {them}: the latest, "
            f"{reach.snapshot}, is a subset snapshot without {them}; {their} periods after"
            f" {dates[name]} hold what {name} knows (the column snapshot names each group's)"
        )
    return lines
