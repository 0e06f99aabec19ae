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
DATE_COLUMNS = ("start_lo", "start_hi", "end_lo", "end_hi", "point_lo", "point_hi")


@dataclass(frozen=True)
class Row:
    """One statement of a snapshot, with exactly the columns the spec names (in that order)."""

    subject: str
    pid: str
    rank: str
    snaktype: str | None
    value: str | None
    value_type: str | None
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


def validity(row: Row, t: date) -> Validity:
    """Three-valued validity of one statement at day t, as the spec defines it."""
    start = make_bound(row.start_snaktype, row.start_lo, row.start_hi)
    end = make_bound(row.end_snaktype, row.end_lo, row.end_hi)
    point = make_bound(row.point_snaktype, row.point_lo, row.point_hi)
    if start is None and end is None and point is not None:
        return event_validity(point, t)
    # The point in time is ignored when a start or an end is present; with nothing at all
    # present this yields VALID at every t.
    return interval_validity(start, end, t)


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


def valid_rows(rows: list[Row], t: date) -> list[Row]:
    """The non-deprecated rows that are VALID at t."""
    return [row for row in counting_rows(rows) if validity(row, t) is Validity.VALID]


def object_set(rows: list[Row], t: date) -> set[str]:
    """Value keys of the non-deprecated rows VALID at t."""
    return {value_key(row) for row in valid_rows(rows, t)}


def value_key(row: Row) -> str:
    """The value key of a statement (a NULL value cannot be compared and is rejected)."""
    if row.value is None:
        raise ValueError(f"statement of {row.subject} {row.pid} has no value key")
    return row.value


def has_unknown(rows: list[Row], t: date) -> bool:
    """True when some non-deprecated row has UNKNOWN validity at t."""
    return any(validity(row, t) is Validity.UNKNOWN for row in counting_rows(rows))


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


def best_ranked_values(rows: list[Row], t: date) -> tuple[str, ...]:
    """Values of the rows giving N that have the best rank among them (preferred, else normal)."""
    current_rows = valid_rows(rows, t)
    ranks = {row.rank for row in current_rows}
    best = "preferred" if "preferred" in ranks else "normal"
    return tuple(sorted({value_key(row) for row in current_rows if row.rank == best}))


def ambiguous_reason_of(
    init_rows: list[Row],
    cutoff_rows: list[Row],
    current_rows: list[Row],
    init: date,
    cutoff: date,
    current: date,
) -> str | None:
    """The first of 'unknown at init/cutoff/current' that applies, or None."""
    if has_unknown(init_rows, init):
        return "unknown at init"
    if has_unknown(cutoff_rows, cutoff):
        return "unknown at cutoff"
    if has_unknown(current_rows, current):
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


def classify(
    snapshots: list[Snapshot], init: date, cutoff: date, current: date, mode: str
) -> dict[tuple[str, str], Result]:
    """Classify every reported (subject, pid) group; see docs/classification.md."""
    check_inputs(snapshots, init, cutoff, current, mode)
    by_group_at_init = group_rows(snapshot_read(snapshots, init, current, mode))
    by_group_at_cutoff = group_rows(snapshot_read(snapshots, cutoff, current, mode))
    by_group_at_current = group_rows(snapshot_read(snapshots, current, current, mode))
    every_group = {(row.subject, row.pid) for snapshot in snapshots for row in snapshot.rows}

    results: dict[tuple[str, str], Result] = {}
    for key in sorted(every_group):
        init_rows = by_group_at_init.get(key, [])
        cutoff_rows = by_group_at_cutoff.get(key, [])
        current_rows = by_group_at_current.get(key, [])
        subject, pid = key

        reason = ambiguous_reason_of(init_rows, cutoff_rows, current_rows, init, cutoff, current)
        if reason is not None:
            results[key] = Result(subject, pid, "ambiguous", None, None, (), (), (), reason)
            continue

        initial = object_set(init_rows, init)
        at_cutoff = object_set(cutoff_rows, cutoff)
        now = object_set(current_rows, current)
        level = level_of(initial, at_cutoff, now)
        if level is None:
            continue

        latest = best_ranked_values(current_rows, current) if now else ()
        all_answers = tuple(sorted(initial | at_cutoff | now))
        if level == "evolved":
            outdated = tuple(sorted((initial | at_cutoff) - now))
            change_kind: str | None = change_kind_of(initial, at_cutoff, now)
            changed_after_cutoff: bool | None = at_cutoff != now
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
