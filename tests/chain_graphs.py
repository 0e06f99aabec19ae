"""Tiny exact graphs for the chain tests, and an independent reference for their hops.

``graph(rows)`` is an in-memory DuckDB with the ``snapshots``, ``statements`` and
``labels`` tables and the macros sql/chains/chains.sql reads; ``stmt`` and ``edges`` make statement
rows. ``validity``, ``best_values`` and ``two_hops`` re-derive, in plain Python, what
the SQL must find (docs/classification.md validity, best rank, deterministic choice).
"""

from __future__ import annotations

import itertools
from datetime import date
from typing import Any

import duckdb

from kgdiff.temporal.chains import ChainQuery, chains
from kgdiff.temporal.dates import GapPolicy
from tests.query_macros import add_query_macros, english

T = date(2014, 6, 1)
IDS = itertools.count()
LINE = {"P1": ["P2"], "P2": ["P3"], "P3": ["P4"]}
COLUMNS = (
    "snapshot VARCHAR, statement_id VARCHAR, subject VARCHAR, pid VARCHAR, rank VARCHAR, "
    "value VARCHAR, object_qid VARCHAR, start_lo DATE, start_hi DATE, start_snaktype VARCHAR, "
    "end_lo DATE, end_hi DATE, end_snaktype VARCHAR, point_lo DATE, point_hi DATE, "
    "point_snaktype VARCHAR"
)
STARTS = """
CREATE VIEW qualifiers AS
SELECT snapshot, statement_id, subject, pid, 'P580' AS qualifier_pid, 'value' AS snaktype,
       'time' AS value_type, strftime(start_lo, '+%Y-%m-%dT00:00:00Z|11|Q1985727') AS value,
       start_lo AS time_lo, start_hi AS time_hi
FROM statements
WHERE start_snaktype = 'value'
"""
"""The start qualifiers the chains SQL reads each hop's start from (its value key, at day
precision, from the statement's start)."""
SYNTHETIC_GAP = GapPolicy(allow=True)
"""The graphs test the hops at dates their one or two snapshots do not reach (a snapshot of
2014-01-01, the date 2014-06-01): the date's distance to the data is tested on the real
store (tests/test_chains.py), so these searches allow the gap."""
Row = tuple[Any, ...]


def bound(spec: object) -> tuple[Any, Any, Any]:
    """None (absent), a date, a (lo, hi) pair, or 'somevalue' as (lo, hi, snaktype)."""
    if spec is None or spec == "somevalue":
        return None, None, spec
    lo, hi = spec if isinstance(spec, tuple) else (spec, spec)
    return lo, hi, "value"


def stmt(s: str, p: str, o: str, rank: str = "normal", start: object = None, end: object = None,
         snap: str = "s1") -> Row:  # fmt: skip
    """One statement row (value ``o``; an item when it starts with Q)."""
    qid = o if o.startswith("Q") else None
    return (snap, f"{s}${next(IDS)}", s, p, rank, o, qid, *bound(start), *bound(end), *[None] * 3)


def edges(text: str, snap: str = "s1") -> list[Row]:
    """Normal statements without qualifiers from ``"Q1 P1 Q2, Q2 P2 Q3"``."""
    triples = [part.split() for part in text.split(",")]
    return [stmt(s, p, o, snap=snap) for s, p, o in triples]


def fill_graph(con: Any, rows: list[Row], snapshots: Any) -> None:
    """(Re)make the ``snapshots`` and ``statements`` tables of ``con`` holding these rows."""
    con.execute("CREATE OR REPLACE TABLE snapshots (name VARCHAR, date DATE, coverage VARCHAR)")
    con.execute(f"CREATE OR REPLACE TABLE statements ({COLUMNS})")
    con.executemany("INSERT INTO snapshots VALUES (?, ?, 'full')", list(snapshots))
    if rows:
        con.executemany(f"INSERT INTO statements VALUES ({', '.join('?' * 16)})", rows)


def graph(rows: list[Row], snapshots: Any = (("s1", date(2014, 1, 1)),), labels: Any = ()) -> Any:
    """An in-memory database with what the chain SQL reads; ``labels`` are (snapshot, qid,
    English label, English aliases)."""
    con = duckdb.connect()
    fill_graph(con, rows, snapshots)
    con.execute(STARTS)
    add_query_macros(con, [row for label in labels for row in english(*label)])
    return con


def found(con: Any, day: date = T, **options: Any) -> list[dict[str, Any]]:
    options.setdefault("relations", LINE)
    options.setdefault("gap", SYNTHETIC_GAP)
    cursor = chains(con, ChainQuery(day, **options))
    names = [d[0] for d in cursor.description or []]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def paths(rows: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    return [(r["start_subject"], *(f"{h['pid']}:{h['object']}" for h in r["hops"])) for r in rows]


def validity(row: Row, day: date) -> str:
    """Independent reference: a statement without a point in time, at ``day``."""
    start_lo, start_hi, start_kind, end_lo, end_hi, end_kind = row[7:13]
    if (start_kind == "value" and start_lo > day) or (end_kind == "value" and end_hi <= day):
        return "not_valid"
    if "somevalue" in (start_kind, end_kind):
        return "unknown"
    ok = (start_kind is None or start_hi <= day) and (end_kind is None or end_lo > day)
    return "valid" if ok else "unknown"


def best_values(rows: list[Row], subject: str, pid: str) -> tuple[str, set[str]]:
    """The best valid rank of a group and its values (rank '-' when a doubt blocks it)."""
    group = [(r[4], r[5], validity(r, T)) for r in rows if r[2:4] == (subject, pid)]
    valid = {rank for rank, _, v in group if v == "valid"}
    best = "preferred" if "preferred" in valid else "normal"
    doubts = {rank for rank, _, v in group if v == "unknown"} & {"preferred", best}
    values = {value for rank, value, v in group if v == "valid" and rank == best}
    return ("-" if doubts else best), values


def chosen(rows: list[Row], subject: str, pid: str, rank: str) -> str:
    """The value the last hop takes: latest start, then smallest value key and id."""
    valid = [r for r in rows if r[2:5] == (subject, pid, rank) and validity(r, T) == "valid"]
    started = [(r[7] is None, -(r[7] or date.min).toordinal(), r[5], r[1]) for r in valid]
    return str(min(started)[2])


def two_hops(rows: list[Row], relations: dict[str, list[str]]) -> set[tuple[str, ...]]:
    """Every 2-hop chain (s, p1, o1, p2, o2) of the non-deprecated ``rows`` at T."""
    expected: set[tuple[str, ...]] = set()
    for subject, first in {(r[2], r[3]) for r in rows if r[3] in relations}:
        rank, values = best_values(rows, subject, first)
        if rank == "-" or len(values) != 1 or subject in values:
            continue
        (middle,) = values
        for second in relations[first]:
            rank, answers = best_values(rows, middle, second)
            if rank != "-" and answers:
                answer = chosen(rows, middle, second, rank)
                if answer not in (subject, middle):
                    expected.add((subject, first, middle, second, answer))
    return expected
