"""Entity and property ids checked against the store, and the reason a question about a known
one has no answer (:mod:`kgdiff.ids` normalises them as users type them: ``p6`` is ``P6``).

An id no snapshot knows is a usage error (exit 2) naming it, never an empty answer. A known id
whose question has no answer gets a one-line reason (not in the snapshot that answers the date,
no statements of that property, a redirect, …).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

import duckdb

from kgdiff.errors import UnknownIdError
from kgdiff.query.memo import StoreMemo
from kgdiff.sqlfiles import load_sql


def check_known(
    connection: duckdb.DuckDBPyConnection, ids: Iterable[str], memo: StoreMemo | None = None
) -> None:
    """A usage error naming the ids (normalised) that no snapshot of the store knows (those
    ``memo`` knows from earlier questions are not looked up again)."""
    known = memo.known if memo is not None else set()
    asked = [i for i in dict.fromkeys(ids) if i not in known]
    if not asked:
        return
    rows = connection.execute(load_sql("ids/unknown_ids"), {"ids": asked}).fetchall()
    unknown = [str(row[0]) for row in rows]
    if memo is not None:
        memo.remember_known(set(asked) - set(unknown))
    if unknown:
        names = ", ".join(unknown)
        verb = "is" if len(unknown) == 1 else "are"
        raise UnknownIdError(
            f"{names} {verb} in no snapshot of the store (neither an entity nor a property "
            "any statement uses); check the id, or ingest a snapshot that has it"
        )


@dataclass(frozen=True)
class Presence:
    """One snapshot's knowledge of an entity (``sql/ids/presence.sql``)."""

    snapshot: str
    date: date
    coverage: str
    held: bool
    redirect_to: str | None
    statements: int
    with_pid: int


def presence(
    connection: duckdb.DuckDBPyConnection, qid: str, pid: str | None = None
) -> list[Presence]:
    """Per snapshot (oldest first): whether it holds ``qid`` and its statements (of ``pid``)."""
    rows = connection.execute(load_sql("ids/presence"), {"qid": qid, "pid": pid}).fetchall()
    return [Presence(*row) for row in rows]


def why_empty(
    connection: duckdb.DuckDBPyConnection,
    qid: str,
    pid: str | None,
    snapshot: str | None,
    otherwise: str = "none answers this question",
) -> str:
    """Why ``qid`` (with ``pid``) has nothing in ``snapshot`` (None: in any snapshot);
    ``otherwise`` ends the reason when it has the statements asked about."""
    seen = presence(connection, qid, pid)
    holding = [p.snapshot for p in seen if p.held]
    where = f"it is in {', '.join(holding)}" if holding else "no snapshot holds it as an entity"
    read = next((p for p in seen if p.snapshot == snapshot), None)
    if read is not None and not read.held:
        subset = " (a subset snapshot)" if read.coverage == "subset" else ""
        return f"{qid} is not in {read.snapshot}{subset}, the snapshot read; {where}"
    if read is not None and read.redirect_to:
        return f"{qid} is merged into {read.redirect_to} in {read.snapshot}: ask about that"
    scope = [read] if read is not None else seen
    if pid is not None and not any(p.with_pid for p in scope):
        having = [p.snapshot for p in seen if p.with_pid]
        elsewhere = f" (it has in {', '.join(having)})" if having else ""
        place = f"in {read.snapshot}" if read is not None else "in any snapshot"
        return f"{qid} has no {pid} statement {place}{elsewhere}"
    if not any(p.statements for p in scope):
        return f"{qid} has no statement {'in ' + read.snapshot if read else 'at all'}; {where}"
    return f"{qid} has statements, but {otherwise}"
