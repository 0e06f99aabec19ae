"""Chronological object pools, ChroKnowBench style (docs/questions.md; sql/pools/pools.sql).

For a (subject, pid) group and each period (year or month) of ``[from_year, to_year]``,
the pool is the set of value keys of the group's non-deprecated statements in the subject's
**latest** snapshot (valid time) that may be valid on some day of the period. The subject's
latest snapshot is the store's latest, unless that is a subset snapshot that does not hold the
subject: then the latest earlier snapshot that speaks for it (a subset snapshot that holds it,
or a full snapshot, which speaks for every entity: one it lacks did not exist). Each row's
``snapshot`` names it.

* A statement with a start (P580) or an end (P582) is valid on day T when start ≤ T < end
  (the end is exclusive, as in docs/classification.md). It *surely* overlaps a period
  ``[lo, hi]`` when start.hi ≤ hi, end.lo > lo and start.hi < end.lo (some day of the
  period is valid whatever the precision hides), and *possibly* overlaps it when only the
  wide bounds allow it (start.lo ≤ hi, end.hi > lo, start.lo < end.hi). A missing or
  ``novalue`` bound is open. An unknown (``somevalue``) bound never makes an overlap sure:
  with an unknown end the statement possibly overlaps every period from its start on (it
  may have ended any time), with an unknown start every period before its end.
* A statement with only a point in time (P585) is an event: it surely overlaps the period
  that contains its point's interval, possibly the periods that interval only partly
  overlaps (a year-precision point in each of its months); an unknown point possibly
  overlaps every period.
* A statement with none of these qualifiers is kept in every period (ChroKnowBench treats
  such facts as valid throughout) and listed in the period's ``unqualified`` values. No
  start is implied from the subject's existence (unlike valid-time classification).
* A value is in ``precision_only`` when none of its statements surely overlaps the period.
* A period with an empty pool takes the pool (and flags) of the last non-empty period
  before it, with ``filled = true``; empty periods before the first non-empty one stay
  empty. Trailing periods are filled too (e.g. after a person's death).
* ``state`` is ``dynamic`` when the (filled) pool differs between two consecutive periods,
  else ``static``; ``changes`` counts those differences. Groups whose periods are all empty
  are not reported.

The pools know nothing of the days after the snapshot they read: they reach the last day of
``to_year`` (in the latest snapshot's own year, its date), and a reach more than ``max_gap``
days after the latest snapshot is refused unless the gap is allowed (:func:`pools_reach`);
each period carries ``gap_days``, its last day minus the date of the subject's snapshot. Rows
carry the labels of their ids as of the latest snapshot (or the nearest that has one).
Exports (:mod:`pool_export`) add ChroKnowBench's per-period lists (``objects_2014``,
``objects_2014-03``) to each record.
The Python API takes years 1…9999; the SQL itself (and the catalog macro) any year.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import duckdb
import pyarrow as pa

from kgdiff.errors import StoreError, UsageError
from kgdiff.ids import DEFAULT_LANG
from kgdiff.sqlfiles import as_table_macro, load_sql
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.dates import (
    DEFAULT_MAX_GAP,
    DateRead,
    GapPolicy,
    check_answerable,
    latest_snapshot,
)
from kgdiff.temporal.parts import latest_ranges

GRANULARITIES = ("year", "month")
PARAMS = ["qid", "pid"]
OPTIONAL_PARAMS = {
    "from_year": "NULL",
    "to_year": "NULL",
    "granularity": "'year'",
    "max_gap": str(DEFAULT_MAX_GAP),
    "allow_gap": "false",
    "lang": f"'{DEFAULT_LANG}'",
    "subject_from": "NULL",
    "subject_to": "NULL",
}
FIRST_YEAR, LAST_YEAR = 1, 9999
ENTITY_ID = re.compile(r"[QPL][1-9][0-9]*")
PROPERTY_ID = re.compile(r"P[1-9][0-9]*")
BATCH_ROWS = 10_000
RANGE_STATEMENTS = 4_000_000
"""Statements of the latest snapshot whose subjects' pools are read at a time when every
subject is asked: the query's list aggregates and windows cannot spill, and one query over
every subject of 3 × 25 M statements ran out of DuckDB's 2.7 GB (``--pid P31``)."""
SubjectRange = tuple[str, str]
REACH_ROLE = "the pools' last day"
"""How the check of the range names the day the pools reach (sql/pools/pools.sql says the
same)."""


@dataclass(frozen=True)
class PoolRequest:
    """Which groups and periods to pool: no subjects means every subject of ``pid``."""

    subjects: tuple[str, ...]
    pid: str | None
    from_year: int
    to_year: int
    granularity: str = "year"
    lang: str = DEFAULT_LANG
    gap: GapPolicy = field(default_factory=GapPolicy)
    ranges: tuple[SubjectRange, ...] = ()
    """Without subjects: the subject ranges [lo, hi) read one after the other, in order
    (:func:`pool_ranges`); none: every subject at once."""

    def check(self) -> None:
        """Raise :class:`UsageError` for ids, years or a granularity the query cannot use."""
        if not self.subjects and self.pid is None:
            raise UsageError("give one or more subjects, or --pid for every group of a property")
        for qid in self.subjects or (None,):
            check_query(qid, self.pid, self.from_year, self.to_year, self.granularity)


def check_query(
    qid: str | None, pid: str | None, from_year: int, to_year: int, granularity: str
) -> None:
    """Raise :class:`UsageError` unless the arguments of :func:`pools` can work."""
    check_years(from_year, to_year)
    if granularity not in GRANULARITIES:
        raise UsageError(f"granularity {granularity!r} is not one of {', '.join(GRANULARITIES)}")
    if qid is not None and not ENTITY_ID.fullmatch(qid):
        raise UsageError(f"{qid!r} is not an entity id like Q42, P31 or L1")
    if pid is not None and not PROPERTY_ID.fullmatch(pid):
        raise UsageError(f"--pid {pid!r} is not a property id like P39")


def check_years(from_year: int, to_year: int) -> None:
    """Raise :class:`UsageError` unless ``FIRST_YEAR <= from_year <= to_year <= LAST_YEAR``."""
    if from_year > to_year:
        raise UsageError(f"--from-year {from_year} is after --to-year {to_year}")
    if from_year < FIRST_YEAR or to_year > LAST_YEAR:
        raise UsageError(f"years must lie within {FIRST_YEAR}…{LAST_YEAR}")


@dataclass(frozen=True)
class Reach:
    """How far pools up to ``to_year`` reach, and what the latest snapshot says of it."""

    to_year: int
    snapshot: str
    snapshot_date: date
    read: DateRead
    """The check of the last day the pools reach (``read.gap_days``: days after the snapshot;
    ``read.problem``: why that day is beyond the data, when it is)."""


def latest_year(connection: duckdb.DuckDBPyConnection) -> int:
    """The year of the latest snapshot, where the pools stop unless asked otherwise."""
    return _latest(connection)[1].year


def reach_day(to_year: int, latest: date) -> date:
    """The last day pools up to ``to_year`` claim to know: the end of ``to_year``, or in the
    latest snapshot's own year its date (the data reach no further)."""
    end = date(to_year, 12, 31)
    return end if to_year > latest.year else min(end, latest)


def pools_reach(
    connection: duckdb.DuckDBPyConnection, to_year: int, gap: GapPolicy | None = None
) -> Reach:
    """The reach of pools up to ``to_year``; a usage error naming the snapshots when it lies
    more than ``gap.max_gap`` days after the latest snapshot and ``gap`` does not allow it."""
    name, latest = _latest(connection)
    days = {REACH_ROLE: reach_day(to_year, latest)}
    (read,) = check_answerable(connection, days, "valid", gap or GapPolicy(), as_of=latest)
    return Reach(to_year, name, latest, read)


def _latest(connection: duckdb.DuckDBPyConnection) -> tuple[str, date]:
    found = latest_snapshot(connection)
    if found is None:
        raise StoreError("the store has no snapshot; ingest a snapshot first")
    return found


def pools(
    connection: duckdb.DuckDBPyConnection,
    qid: str | None,
    pid: str | None,
    from_year: int,
    to_year: int,
    granularity: str = "year",
    gap: GapPolicy | None = None,
    lang: str = DEFAULT_LANG,
    subject_range: SubjectRange | None = None,
) -> duckdb.DuckDBPyRelation:
    """The pools query (sql/pools/pools.sql) as a relation: one row per reported group.

    Columns: subject, pid, granularity, state, changes, all_objects, periods (a list of
    structs: period, first_day, last_day, objects, precision_only, unqualified, filled,
    gap_days, objects_labels), snapshot, subject_label, pid_label, all_objects_labels.
    ``qid`` / ``pid`` None mean every subject / every property; ``subject_range`` keeps
    only the subjects in [lo, hi). A ``to_year`` beyond the data is refused unless ``gap``
    allows it (:func:`pools_reach`).
    """
    check_query(qid, pid, from_year, to_year, granularity)
    gap = gap or GapPolicy()
    pools_reach(connection, to_year, gap)
    values = {"qid": qid, "pid": pid, "from_year": from_year, "to_year": to_year}
    values |= {"granularity": granularity, "max_gap": gap.max_gap, "allow_gap": True}
    lo, hi = subject_range or (None, None)
    values |= {"lang": lang, "subject_from": lo, "subject_to": hi}
    return connection.sql(load_sql("pools/pools"), params=values)


def pool_ranges(
    connection: duckdb.DuckDBPyConnection, layout: StoreLayout
) -> tuple[SubjectRange, ...]:
    """The subject ranges the pools of every subject are read in (:data:`RANGE_STATEMENTS`
    of the latest snapshot each); none when the store is that small."""
    return latest_ranges(connection, layout, RANGE_STATEMENTS)


def pool_readers(
    connection: duckdb.DuckDBPyConnection, request: PoolRequest
) -> Iterator[pa.RecordBatchReader]:
    """The groups of ``request`` as Arrow batch readers: one per subject asked, else one per
    subject range of the request (in order), else one for all."""
    request.check()
    asked: list[tuple[str | None, SubjectRange | None]] = [(qid, None) for qid in request.subjects]
    asked = asked or [(None, lo_hi) for lo_hi in request.ranges] or [(None, None)]
    for qid, subject_range in asked:
        relation = pools(
            connection,
            qid,
            request.pid,
            request.from_year,
            request.to_year,
            request.granularity,
            request.gap,
            request.lang,
            subject_range,
        )
        yield relation.to_arrow_reader(BATCH_ROWS)


def pool_records(
    connection: duckdb.DuckDBPyConnection, request: PoolRequest
) -> Iterator[dict[str, Any]]:
    """The groups of ``request`` as dicts (periods as lists of dicts)."""
    for reader in pool_readers(connection, request):
        for batch in reader:
            yield from batch.to_pylist()


def catalog_macro() -> str:
    """``pools(qid, pid, from_year, to_year, granularity := 'year', max_gap := 31,
    allow_gap := false, lang := 'en')`` for the catalog (after ``date_reads`` and
    ``entity_labels``)."""
    params = [*PARAMS, *OPTIONAL_PARAMS]
    return as_table_macro("pools/pools", "pools", params, OPTIONAL_PARAMS)
