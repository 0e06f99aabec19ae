"""Independent, deliberately simple Python reference for docs/classification.md.

The tests compare the SQL implementation against this module, so it shares no code with
``kgdiff``: it is written from the spec alone, favouring readability over speed (plain loops,
sets and one small function per rule).

Decisions where the spec leaves room (the SQL must match them):

* A bound (start, end, point) is *absent* when its ``*_snaktype`` is ``None`` or ``'novalue'``.
  So a statement with a ``novalue`` start, no end and a point in time is an *event*.
* A ``'value'`` bound must have both ``lo`` and ``hi`` set; anything else is rejected
  (``ValueError``), as is an unknown snaktype or rank.
* Snapshot dates must be distinct (``ValueError`` otherwise), so "the snapshot with the greatest
  date ≤ T" is always unique. In valid mode, when no snapshot is dated ≤ current, all sets are
  empty (and nothing is reported).
* The candidate groups are every (subject, pid) that has a row in any snapshot; a group is reported
  when it is ambiguous or when I ∪ C ∪ N ≠ ∅.
* Lists are sorted by Python string order (code points, i.e. the byte order of UTF-8 strings).
* ``time_lo`` and ``time_hi`` are both set or both NULL (``ValueError`` otherwise), so an implied
  start bound always has both days.
* "No start, end or point" uses the same notion of absent: a statement whose only qualifiers are
  ``novalue`` ones gets an implied start too. A birth (P569) statement is an "other pid", so its
  own implied start is the subject's earliest start of existence (often itself).
* A statement whose main snak is not 'value' (``<somevalue>``) never gives an implied start, even
  if it carries time_lo; only the pids listed in the spec give one (P570 for P509/P1196).
* Measurement series: a group with no non-deprecated statement in the snapshot is (vacuously) a
  series, which changes nothing as its set is empty. ``latest`` of a series uses the statements
  that give N (valid at current *and* at the greatest point_lo), not every valid statement whose
  value is in N.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from enum import Enum

RANKS = ("preferred", "normal", "deprecated")
MODES = ("record", "valid")
LEVELS = ("ambiguous", "stable", "retracted", "evolved", "uncharted", "recent")
CHANGE_KINDS = ("added", "removed", "replaced", "mixed")
BOUND_SNAKTYPES = (None, "value", "somevalue", "novalue")
DATE_COLUMNS = (
    "time_lo",
    "time_hi",
    "start_lo",
    "start_hi",
    "end_lo",
    "end_hi",
    "point_lo",
    "point_hi",
)


@dataclass(frozen=True)
class Row:
    """One statement of a snapshot, with exactly the columns the spec names (in that order)."""

    subject: str
    pid: str
    rank: str
    snaktype: str | None
    value: str | None
    value_type: str | None
    time_lo: date | None
    time_hi: date | None
    start_lo: date | None
    start_hi: date | None
    start_snaktype: str | None
    end_lo: date | None
    end_hi: date | None
    end_snaktype: str | None
    point_lo: date | None
    point_hi: date | None
    point_snaktype: str | None


@dataclass(frozen=True)
class Snapshot:
    """A published snapshot: its name, the date it represents and its statement rows."""

    name: str
    date: date
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Result:
    """The classification of one reported (subject, pid) group (field order = output columns)."""

    subject: str
    pid: str
    level: str
    change_kind: str | None
    changed_after_cutoff: bool | None
    latest: tuple[str, ...]
    outdated: tuple[str, ...]
    all_answers: tuple[str, ...]
    ambiguous_reason: str | None


class Validity(Enum):
    """Three-valued validity of a statement at a day."""

    VALID = "valid"
    NOT_VALID = "not valid"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Bound:
    """A present temporal qualifier: ``kind`` is 'value' (with lo and hi) or 'somevalue'."""

    kind: str
    lo: date | None
    hi: date | None

    def value_lo(self) -> date:
        """The lower day of a 'value' bound."""
        assert self.lo is not None
        return self.lo

    def value_hi(self) -> date:
        """The upper day of a 'value' bound."""
        assert self.hi is not None
        return self.hi


# --------------------------------------------------------------------------------------------
# Validity of one statement at day T
# --------------------------------------------------------------------------------------------


def make_bound(snaktype: str | None, lo: date | None, hi: date | None) -> Bound | None:
    """The bound described by three columns, or None when it is absent (NULL or 'novalue')."""
    if snaktype not in BOUND_SNAKTYPES:
        raise ValueError(f"unknown qualifier snaktype {snaktype!r}")
    if snaktype is None or snaktype == "novalue":
        return None
    if snaktype == "value" and (lo is None or hi is None):
        raise ValueError("a 'value' bound needs both lo and hi")
    return Bound(snaktype, lo, hi)


def is_value(bound: Bound | None) -> bool:
    """True when the bound is present and known."""
    return bound is not None and bound.kind == "value"


def is_somevalue(bound: Bound | None) -> bool:
    """True when the bound is present but unknown."""
    return bound is not None and bound.kind == "somevalue"


def event_validity(point: Bound, t: date) -> Validity:
    """Validity of an event (only a point in time) at day t."""
    if is_value(point) and point.value_hi() <= t:
        return Validity.VALID
    if is_value(point) and point.value_lo() > t:
        return Validity.NOT_VALID
    return Validity.UNKNOWN


def interval_validity(start: Bound | None, end: Bound | None, t: date) -> Validity:
    """Validity at day t of a statement judged by its start and end (either may be absent)."""
    not_started = start is not None and is_value(start) and start.value_lo() > t
    already_ended = end is not None and is_value(end) and end.value_hi() <= t
    if not_started or already_ended:
        return Validity.NOT_VALID
    if is_somevalue(start) or is_somevalue(end):
        return Validity.UNKNOWN
    started = start is None or start.value_hi() <= t
    not_ended = end is None or end.value_lo() > t
    if started and not_ended:
        return Validity.VALID
    return Validity.UNKNOWN


def qualifiers(row: Row) -> tuple[Bound | None, Bound | None, Bound | None]:
    """The start, end and point of a statement (each None when absent)."""
    return (
        make_bound(row.start_snaktype, row.start_lo, row.start_hi),
        make_bound(row.end_snaktype, row.end_lo, row.end_hi),
        make_bound(row.point_snaktype, row.point_lo, row.point_hi),
    )


def validity(row: Row, t: date) -> Validity:
    """Three-valued validity of one statement at day t by its own qualifiers (no implied start)."""
    start, end, point = qualifiers(row)
    if start is None and end is None and point is not None:
        return event_validity(point, t)
    # The point in time is ignored when a start or an end is present; with nothing at all
    # present this yields VALID at every t.
    return interval_validity(start, end, t)


# --------------------------------------------------------------------------------------------
# Implied start bound (valid mode only)
# --------------------------------------------------------------------------------------------

DEATH_DEPENDENT_PIDS = ("P509", "P1196")  # cause of death, manner of death
DEATH_PIDS = ("P570",)
EXISTENCE_PIDS = ("P569", "P571", "P577", "P575", "P580")

# Implied start bounds of one snapshot: (subject, 'death' | 'existence') -> bound.
ImpliedStarts = dict[tuple[str, str], Bound]


def source_of(pid: str) -> str:
    """Which implied start a statement of this pid gets: the subject's 'death' or 'existence'."""
    return "death" if pid in DEATH_DEPENDENT_PIDS else "existence"


def gives_source(row: Row) -> str | None:
    """Which implied start this statement can give ('death', 'existence'), or None."""
    if row.rank == "deprecated" or row.snaktype != "value" or row.time_lo is None:
        return None
    if row.pid in DEATH_PIDS:
        return "death"
    if row.pid in EXISTENCE_PIDS:
        return "existence"
    return None


def implied_starts(snapshot: Snapshot | None) -> ImpliedStarts:
    """Per subject, the earliest death and start of existence of a snapshot (smallest time_lo,
    ties: smallest time_hi), as 'value' bounds [time_lo, time_hi]."""
    chosen: dict[tuple[str, str], Row] = {}
    for row in snapshot.rows if snapshot is not None else ():
        source = gives_source(row)
        if source is None:
            continue
        key = (row.subject, source)
        best = chosen.get(key)
        if best is None or sort_key(row) < sort_key(best):
            chosen[key] = row
    return {key: Bound("value", row.time_lo, row.time_hi) for key, row in chosen.items()}


def sort_key(row: Row) -> tuple[date, date]:
    """(time_lo, time_hi) of a statement giving an implied start."""
    assert row.time_lo is not None and row.time_hi is not None
    return (row.time_lo, row.time_hi)


def has_no_qualifiers(row: Row) -> bool:
    """True when start, end and point are all absent."""
    return qualifiers(row) == (None, None, None)


def validity_in(row: Row, t: date, starts: ImpliedStarts) -> Validity:
    """Validity of a statement at t, given the implied starts of the snapshot it comes from
    (empty in record mode, where a statement without qualifiers is VALID at every t)."""
    if has_no_qualifiers(row):
        start = starts.get((row.subject, source_of(row.pid)))
        if start is not None:
            return interval_validity(start, None, t)
    return validity(row, t)


# --------------------------------------------------------------------------------------------
# Which snapshot a date reads
# --------------------------------------------------------------------------------------------


def latest_snapshot_on_or_before(snapshots: list[Snapshot], day: date) -> Snapshot | None:
    """The snapshot with the greatest date ≤ day, or None when there is none."""
    best: Snapshot | None = None
    for snapshot in snapshots:
        if snapshot.date <= day and (best is None or snapshot.date > best.date):
            best = snapshot
    return best


def snapshot_read(snapshots: list[Snapshot], t: date, current: date, mode: str) -> Snapshot | None:
    """The snapshot whose statements give the object set at t (None: the set is empty)."""
    if mode == "record":
        return latest_snapshot_on_or_before(snapshots, t)
    return latest_snapshot_on_or_before(snapshots, current)


# --------------------------------------------------------------------------------------------
# Object sets
# --------------------------------------------------------------------------------------------


def group_rows(snapshot: Snapshot | None) -> dict[tuple[str, str], list[Row]]:
    """The rows of a snapshot, grouped by (subject, pid); empty when there is no snapshot."""
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    if snapshot is not None:
        for row in snapshot.rows:
            groups[(row.subject, row.pid)].append(row)
    return groups


def counting_rows(rows: list[Row]) -> list[Row]:
    """The rows that take part in the classification: every rank but 'deprecated'."""
    return [row for row in rows if row.rank != "deprecated"]


def valid_rows(rows: list[Row], t: date, starts: ImpliedStarts) -> list[Row]:
    """The non-deprecated rows that are VALID at t."""
    return [row for row in counting_rows(rows) if validity_in(row, t, starts) is Validity.VALID]


def is_series(rows: list[Row]) -> bool:
    """True when every non-deprecated row is a quantity with a point and neither start nor end."""
    for row in counting_rows(rows):
        start, end, point = qualifiers(row)
        if row.value_type != "quantity" or point is None or start is not None or end is not None:
            return False
    return True


def newest(rows: list[Row]) -> list[Row]:
    """The rows whose point_lo is the greatest among them (rows are VALID events)."""
    points = [row.point_lo for row in rows if row.point_lo is not None]
    assert len(points) == len(rows)
    return [row for row in rows if row.point_lo == max(points)]


def rows_giving_set(rows: list[Row], t: date, starts: ImpliedStarts) -> list[Row]:
    """The statements whose values make the object set at t (the newest ones for a series)."""
    if is_series(rows):
        return newest(valid_rows(rows, t, starts))
    return valid_rows(rows, t, starts)


def object_set(rows: list[Row], t: date, starts: ImpliedStarts) -> set[str]:
    """The object set at t: value keys of ``rows_giving_set``."""
    return {value_key(row) for row in rows_giving_set(rows, t, starts)}


def value_key(row: Row) -> str:
    """The value key of a statement (a NULL value cannot be compared and is rejected)."""
    if row.value is None:
        raise ValueError(f"statement of {row.subject} {row.pid} has no value key")
    return row.value


def has_unknown(rows: list[Row], t: date, starts: ImpliedStarts) -> bool:
    """True when some non-deprecated row has UNKNOWN validity at t."""
    return any(validity_in(row, t, starts) is Validity.UNKNOWN for row in counting_rows(rows))


# --------------------------------------------------------------------------------------------
# Level, change kind and answers
# --------------------------------------------------------------------------------------------


def level_of(initial: set[str], at_cutoff: set[str], now: set[str]) -> str | None:
    """Rules 2–6 (the group is known not to be ambiguous); None when it is not reported."""
    if initial == at_cutoff == now and now:
        return "stable"
    if not now and (initial | at_cutoff):
        return "retracted"
    if initial:
        return "evolved"
    if not initial and not at_cutoff:
        return "uncharted" if now else None
    return "recent"


def change_kind_of(initial: set[str], at_cutoff: set[str], now: set[str]) -> str:
    """Change kind of an evolved group, against P = C if C ≠ N else I."""
    previous = at_cutoff if at_cutoff != now else initial
    if previous < now:
        return "added"
    if now < previous:
        return "removed"
    if not previous & now:
        return "replaced"
    return "mixed"


def best_ranked_values(rows: list[Row], t: date, starts: ImpliedStarts) -> tuple[str, ...]:
    """Values of the rows giving N that have the best rank among them (preferred, else normal)."""
    current_rows = rows_giving_set(rows, t, starts)
    ranks = {row.rank for row in current_rows}
    best = "preferred" if "preferred" in ranks else "normal"
    return tuple(sorted({value_key(row) for row in current_rows if row.rank == best}))


@dataclass(frozen=True)
class Reading:
    """What one of the three dates reads: the day, its snapshot's rows by group, implied starts."""

    day: date
    groups: dict[tuple[str, str], list[Row]]
    starts: ImpliedStarts

    def rows(self, key: tuple[str, str]) -> list[Row]:
        """The rows of one group (empty when the group is absent)."""
        return self.groups.get(key, [])

    def has_unknown(self, key: tuple[str, str]) -> bool:
        """True when some non-deprecated row of the group is UNKNOWN at the day."""
        return has_unknown(self.rows(key), self.day, self.starts)

    def object_set(self, key: tuple[str, str]) -> set[str]:
        """The group's object set at the day."""
        return object_set(self.rows(key), self.day, self.starts)


def reading(snapshots: list[Snapshot], t: date, current: date, mode: str) -> Reading:
    """The reading for day t: implied starts only in valid mode, from the snapshot read."""
    snapshot = snapshot_read(snapshots, t, current, mode)
    starts = implied_starts(snapshot) if mode == "valid" else {}
    return Reading(t, group_rows(snapshot), starts)


def ambiguous_reason_of(
    key: tuple[str, str], at_init: Reading, at_cutoff: Reading, at_current: Reading
) -> str | None:
    """The first of 'unknown at init/cutoff/current' that applies, or None."""
    if at_init.has_unknown(key):
        return "unknown at init"
    if at_cutoff.has_unknown(key):
        return "unknown at cutoff"
    if at_current.has_unknown(key):
        return "unknown at current"
    return None


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


def check_inputs(
    snapshots: list[Snapshot], init: date, cutoff: date, current: date, mode: str
) -> None:
    """Reject inputs outside the spec (bad dates or mode, duplicate snapshot dates, bad rows)."""
    if not init < cutoff < current:
        raise ValueError("need init < cutoff < current")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    dates = [snapshot.date for snapshot in snapshots]
    if len(set(dates)) != len(dates):
        raise ValueError("snapshot dates must be distinct")
    for snapshot in snapshots:
        for row in snapshot.rows:
            if row.rank not in RANKS:
                raise ValueError(f"unknown rank {row.rank!r}")
            for name in DATE_COLUMNS:
                day = getattr(row, name)
                if day is not None and not isinstance(day, date):
                    # e.g. DuckDB returns BCE dates as strings like '0659-01-28 (BC)'
                    raise ValueError(f"{name} of {row.subject} {row.pid} is not a date: {day!r}")
            if (row.time_lo is None) != (row.time_hi is None):
                raise ValueError(f"time_lo and time_hi of {row.subject} {row.pid}: both or none")


def classify(
    snapshots: list[Snapshot], init: date, cutoff: date, current: date, mode: str
) -> dict[tuple[str, str], Result]:
    """Classify every reported (subject, pid) group; see docs/classification.md."""
    check_inputs(snapshots, init, cutoff, current, mode)
    at_init = reading(snapshots, init, current, mode)
    at_cutoff = reading(snapshots, cutoff, current, mode)
    at_current = reading(snapshots, current, current, mode)
    every_group = {(row.subject, row.pid) for snapshot in snapshots for row in snapshot.rows}

    results: dict[tuple[str, str], Result] = {}
    for key in sorted(every_group):
        subject, pid = key
        reason = ambiguous_reason_of(key, at_init, at_cutoff, at_current)
        if reason is not None:
            results[key] = Result(subject, pid, "ambiguous", None, None, (), (), (), reason)
            continue

        initial = at_init.object_set(key)
        cutoff_set = at_cutoff.object_set(key)
        now = at_current.object_set(key)
        level = level_of(initial, cutoff_set, now)
        if level is None:
            continue

        latest = best_ranked_values(at_current.rows(key), current, at_current.starts) if now else ()
        all_answers = tuple(sorted(initial | cutoff_set | now))
        if level == "evolved":
            outdated = tuple(sorted((initial | cutoff_set) - now))
            change_kind: str | None = change_kind_of(initial, cutoff_set, now)
            changed_after_cutoff: bool | None = cutoff_set != now
        else:
            outdated, change_kind, changed_after_cutoff = (), None, None
        results[key] = Result(
            subject=subject,
            pid=pid,
            level=level,
            change_kind=change_kind,
            changed_after_cutoff=changed_after_cutoff,
            latest=latest,
            outdated=outdated,
            all_answers=all_answers,
            ambiguous_reason=None,
        )
    return results
