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
* Coverage: a snapshot is 'full' or 'subset'; a subset snapshot covers exactly the subjects
  of its entity rows (redirects included), merges followed. A group (with a non-deprecated
  statement in a snapshot read) whose subject a subset snapshot read for one of the three
  dates does not cover is 'not_covered', before every other rule, with empty answers; in mode
  'both' a group not covered in either view is not covered. Only a *full* snapshot dates an
  item's creation (valid time): the window starts after the latest full snapshot before the
  item's first one; with none, there is no window.
* Gaps: ``*_gap_days`` is the date minus the date of the snapshot read for it (record time,
  or valid time in mode 'valid'); None when no snapshot is read.
* Measurement series: a group with no non-deprecated statement in the snapshot is (vacuously) a
  series, which changes nothing as its set is empty. ``latest`` of a series uses the statements
  that give N (valid at current *and* at the greatest point_lo), not every valid statement whose
  value is in N.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta
from enum import Enum

from tests.nature_reference import ValueFacts, change_nature

RANKS = ("preferred", "normal", "deprecated")
MODES = ("record", "valid", "both")
ENTITY_VALUE_TYPE = "wikibase-entityid"
LEVELS = ("not_covered", "ambiguous", "stable", "retracted", "evolved", "uncharted", "recent")
COVERAGES = ("full", "subset")
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
    datatype: str | None = None


@dataclass(frozen=True)
class Entity:
    """An entity row of a snapshot: an entity, or a redirect of a merged item to ``redirect_to``."""

    qid: str
    redirect_to: str | None = None


@dataclass(frozen=True)
class Snapshot:
    """A published snapshot: its name, the date it represents, its statement and entity rows."""

    name: str
    date: date
    rows: tuple[Row, ...]
    entities: tuple[Entity, ...] = ()
    coverage: str = "full"


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
    record_level: str | None = None
    valid_level: str | None = None
    backfilled: bool | None = None
    not_covered_in: tuple[str, ...] | None = None
    init_snapshot: str | None = None
    cutoff_snapshot: str | None = None
    current_snapshot: str | None = None
    init_gap_days: int | None = None
    cutoff_gap_days: int | None = None
    current_gap_days: int | None = None
    change_nature: str | None = None


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


@dataclass(frozen=True)
class Implied:
    """The implied start bounds available to the statements of the snapshot read (valid mode).

    ``starts``: the snapshot's deaths and starts of existence; ``created``: per subject first
    seen after the earliest snapshot, the days it was created in. Both empty in record mode.
    """

    starts: ImpliedStarts
    created: dict[str, Bound]
    resolve: Callable[[str], str] = str

    def start_for(self, row: Row) -> Bound | None:
        """The implied start of a statement without qualifiers (its own kind first)."""
        own = self.starts.get((row.subject, source_of(row.pid)))
        return own if own is not None else self.created.get(self.resolve(row.subject))


NOTHING_IMPLIED = Implied({}, {})


def validity_in(row: Row, t: date, implied: Implied) -> Validity:
    """Validity of a statement at t, given the implied starts of the snapshot it comes from
    (none in record mode, where a statement without qualifiers is VALID at every t)."""
    if has_no_qualifiers(row):
        start = implied.start_for(row)
        if start is not None:
            return interval_validity(start, None, t)
    return validity(row, t)


def creation_bounds(snapshots: list[Snapshot], current: date, merges: Merges) -> dict[str, Bound]:
    """Per item first seen — itself or an item merged into it, as an entity, not a redirect —
    in a snapshot dated ≤ current after some full snapshot: [day after the latest full
    snapshot before its first snapshot, its first snapshot]. Keyed by the item merges lead
    to. (A subset snapshot's silence says nothing of an item's existence.)"""
    eligible = sorted((s for s in snapshots if s.date <= current), key=lambda s: s.date)
    bounds: dict[str, Bound] = {}
    seen: set[str] = set()
    for snapshot in eligible:
        full_before = [s.date for s in eligible if s.date < snapshot.date and s.coverage == "full"]
        for entity in snapshot.entities:
            item = merges.resolve(entity.qid)
            if entity.redirect_to is not None or item in seen:
                continue
            seen.add(item)
            if full_before:
                after = max(full_before) + timedelta(days=1)
                bounds[item] = Bound("value", after, snapshot.date)
    return bounds


# --------------------------------------------------------------------------------------------
# Merged items (redirects)
# --------------------------------------------------------------------------------------------


def redirect_targets(snapshots: list[Snapshot], current: date) -> dict[str, str]:
    """qid -> target for every qid whose entity row in the latest snapshot (dated ≤ current)
    having a row for it is a redirect."""
    latest: dict[str, tuple[date, Entity]] = {}
    for snapshot in snapshots:
        if snapshot.date > current:
            continue
        for entity in snapshot.entities:
            known = latest.get(entity.qid)
            if known is None or snapshot.date > known[0]:
                latest[entity.qid] = (snapshot.date, entity)
    return {
        qid: entity.redirect_to
        for qid, (_, entity) in latest.items()
        if entity.redirect_to is not None
    }


@dataclass(frozen=True)
class Merges:
    """Follows redirects of merged items: at most two steps."""

    targets: dict[str, str]

    def resolve(self, qid: str) -> str:
        """Where ``qid`` ends up after at most two redirects."""
        first = self.targets.get(qid)
        if first is None:
            return qid
        return self.targets.get(first, first)

    def key(self, row: Row) -> tuple[str, str]:
        """The (subject, pid) group a statement counts in."""
        return (self.resolve(row.subject), row.pid)

    def value(self, row: Row) -> str:
        """The value key a statement contributes (item values followed)."""
        key = value_key(row)
        return self.resolve(key) if row.value_type == ENTITY_VALUE_TYPE else key


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


def valid_rows(rows: list[Row], t: date, implied: Implied) -> list[Row]:
    """The non-deprecated rows that are VALID at t."""
    return [row for row in counting_rows(rows) if validity_in(row, t, implied) is Validity.VALID]


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


def rows_giving_set(rows: list[Row], t: date, implied: Implied) -> list[Row]:
    """The statements whose values make the object set at t (the newest ones for a series)."""
    if is_series(rows):
        return newest(valid_rows(rows, t, implied))
    return valid_rows(rows, t, implied)


def value_key(row: Row) -> str:
    """The value key of a statement (a NULL value cannot be compared and is rejected)."""
    if row.value is None:
        raise ValueError(f"statement of {row.subject} {row.pid} has no value key")
    return row.value


def has_unknown(rows: list[Row], t: date, implied: Implied) -> bool:
    """True when some non-deprecated row has UNKNOWN validity at t."""
    return any(validity_in(row, t, implied) is Validity.UNKNOWN for row in counting_rows(rows))


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


@dataclass(frozen=True)
class Reading:
    """What one of the three dates reads: the day, the snapshot, its statements grouped by the
    (merged) group they count in and then by their own (subject, pid), and implied starts."""

    day: date
    snapshot: str | None
    groups: dict[tuple[str, str], list[list[Row]]]
    implied: Implied
    merges: Merges
    read: Snapshot | None = None
    covered: frozenset[str] | None = None
    """The subjects a subset snapshot read covers (its entities, merges followed); None when
    the snapshot read is full, or none is read."""

    def gap_days(self) -> int | None:
        """The day minus the date of the snapshot read (None: nothing read)."""
        return None if self.read is None else (self.day - self.read.date).days

    def covers(self, subject: str) -> bool:
        """False when the snapshot read is a subset one that does not list the subject."""
        return self.covered is None or subject in self.covered

    def has_counting_rows(self, key: tuple[str, str]) -> bool:
        """True when the group has a non-deprecated statement in the snapshot read."""
        return any(counting_rows(rows) for rows in self.parts(key))

    def parts(self, key: tuple[str, str]) -> list[list[Row]]:
        """The statement groups (as in the snapshot) that count in the group ``key``."""
        return self.groups.get(key, [])

    def has_unknown(self, key: tuple[str, str]) -> bool:
        """True when some non-deprecated row of the group is UNKNOWN at the day."""
        return any(has_unknown(rows, self.day, self.implied) for rows in self.parts(key))

    def set_rows(self, key: tuple[str, str]) -> list[Row]:
        """The statements giving the group's object set at the day (series judged per part)."""
        return [
            row for rows in self.parts(key) for row in rows_giving_set(rows, self.day, self.implied)
        ]

    def object_set(self, key: tuple[str, str]) -> set[str]:
        """The group's object set at the day."""
        return {self.merges.value(row) for row in self.set_rows(key)}

    def counting_rows(self, key: tuple[str, str]) -> list[Row]:
        """The group's non-deprecated statements in the snapshot read, whatever their
        validity."""
        return [row for rows in self.parts(key) for row in counting_rows(rows)]

    def best_ranked_values(self, key: tuple[str, str]) -> tuple[str, ...]:
        """Values of the rows giving the set having the best rank among them."""
        rows = self.set_rows(key)
        best = "preferred" if any(row.rank == "preferred" for row in rows) else "normal"
        return tuple(sorted({self.merges.value(row) for row in rows if row.rank == best}))


def reading(
    snapshots: list[Snapshot], t: date, current: date, mode: str, merges: Merges
) -> Reading:
    """The reading for day t: implied starts only in valid mode, from the snapshot read."""
    snapshot = snapshot_read(snapshots, t, current, mode)
    implied = NOTHING_IMPLIED
    if mode == "valid":
        created = creation_bounds(snapshots, current, merges)
        implied = Implied(implied_starts(snapshot), created, merges.resolve)
    merged: dict[tuple[str, str], list[list[Row]]] = defaultdict(list)
    for (subject, pid), rows in group_rows(snapshot).items():
        merged[(merges.resolve(subject), pid)].append(rows)
    covered = None
    if snapshot is not None and snapshot.coverage == "subset":
        covered = frozenset(merges.resolve(entity.qid) for entity in snapshot.entities)
    name = snapshot.name if snapshot else None
    return Reading(t, name, merged, implied, merges, snapshot, covered)


def not_covered_in(key: tuple[str, str], readings: list[Reading]) -> tuple[str, ...] | None:
    """The subset snapshots read that do not cover the group's subject (by date), or None."""
    # by name and date: hashing a Snapshot would hash all of its rows
    missing = {(r.read.date, r.read.name) for r in readings if r.read and not r.covers(key[0])}
    if not missing:
        return None
    return tuple(name for _, name in sorted(missing))


def ambiguous_reason_of(key: tuple[str, str], readings: list[Reading]) -> str | None:
    """The first of 'unknown at init/cutoff/current' that applies, or None."""
    for role, read in zip(("init", "cutoff", "current"), readings, strict=True):
        if read.has_unknown(key):
            return f"unknown at {role}"
    return None


# --------------------------------------------------------------------------------------------
# Entry points
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
        if snapshot.coverage not in COVERAGES:
            raise ValueError(f"unknown coverage {snapshot.coverage!r}")
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


@dataclass(frozen=True)
class Sets:
    """A view's verdict on one group: the three object sets and the result."""

    initial: set[str]
    at_cutoff: set[str]
    result: Result


def view_levels(mode: str, level: str) -> tuple[str | None, str | None]:
    """(record_level, valid_level) of a single view's result."""
    return (level, None) if mode == "record" else (None, level)


def classify_group(key: tuple[str, str], readings: list[Reading], mode: str) -> Sets | None:
    """One view's classification of one group (None when it is not reported)."""
    subject, pid = key
    reason = ambiguous_reason_of(key, readings)
    uncovered = not_covered_in(key, readings)
    initial, cutoff_set, now = (read.object_set(key) for read in readings)
    if uncovered is not None:
        if not any(read.has_counting_rows(key) for read in readings):
            return None
        result = Result(subject, pid, "not_covered", None, None, (), (), (), None,
                        *view_levels(mode, "not_covered"), None, uncovered)  # fmt: skip
        return Sets(initial, cutoff_set, with_reads(result, readings))
    if reason is not None:
        result = Result(subject, pid, "ambiguous", None, None, (), (), (), reason,
                        *view_levels(mode, "ambiguous"))  # fmt: skip
        return Sets(initial, cutoff_set, with_reads(result, readings))
    level = level_of(initial, cutoff_set, now)
    if level is None:
        return None
    evolved = level == "evolved"
    nature = nature_of(key, readings, (initial, cutoff_set, now)) if evolved else None
    result = Result(
        subject,
        pid,
        level,
        change_kind_of(initial, cutoff_set, now) if evolved else None,
        cutoff_set != now if evolved else None,
        readings[2].best_ranked_values(key) if now else (),
        tuple(sorted((initial | cutoff_set) - now)) if evolved else (),
        tuple(sorted(initial | cutoff_set | now)),
        None,
        *view_levels(mode, level),
        change_nature=nature,
    )
    return Sets(initial, cutoff_set, with_reads(result, readings))


def nature_of(
    key: tuple[str, str], readings: list[Reading], sets: tuple[set[str], set[str], set[str]]
) -> str:
    """The change nature of an evolved group: its values' kinds and days come from the
    group's non-deprecated statements in the snapshots read (tests/nature_reference.py)."""
    rows = [row for read in readings for row in read.counting_rows(key)]
    ids = any(row.datatype == "external-id" for row in rows)
    merges = readings[0].merges
    facts: dict[str, ValueFacts] = {}
    for value in {merges.value(row) for row in rows}:
        mine = [row for row in rows if merges.value(row) == value]
        times = [row for row in mine if row.value_type == "time"]
        lows = [row.time_lo for row in times if row.time_lo is not None]
        highs = [row.time_hi for row in times if row.time_hi is not None]
        types = frozenset(row.value_type for row in mine if row.value_type is not None)
        facts[value] = ValueFacts(types, min(lows, default=None), max(highs, default=None))
    return change_nature(sets, facts, ids)


def with_reads(result: Result, readings: list[Reading]) -> Result:
    """The result with the snapshot each date read and each date's gap to it."""
    init, cutoff, current = readings
    return replace(
        result,
        init_snapshot=init.snapshot,
        cutoff_snapshot=cutoff.snapshot,
        current_snapshot=current.snapshot,
        init_gap_days=init.gap_days(),
        cutoff_gap_days=cutoff.gap_days(),
        current_gap_days=current.gap_days(),
    )


ROLES = ("init", "cutoff", "current")


def classify_view(
    snapshots: list[Snapshot], days: tuple[date, date, date], mode: str
) -> dict[tuple[str, str], Sets]:
    """Classify every reported group in one view ('record' or 'valid')."""
    current = days[2]
    merges = Merges(redirect_targets(snapshots, current))
    readings = [reading(snapshots, t, current, mode, merges) for t in days]
    every_group = {key for read in readings for key in read.groups}
    results = {}
    for key in sorted(every_group):
        sets = classify_group(key, readings, mode)
        if sets is not None:
            results[key] = sets
    return results


def describe(result: Result | None) -> str:
    """How a view classified a group, for the reason of a disagreement."""
    if result is None:
        return "nothing"
    text = result.level + (f"/{result.change_kind}" if result.change_kind else "")
    return text + (f" ({result.ambiguous_reason})" if result.ambiguous_reason else "")


def combine(key: tuple[str, str], record: Sets | None, valid: Sets | None) -> Result:
    """Mode 'both': the record-time result when both views agree, else ambiguous."""
    by_record = record.result if record else None
    by_valid = valid.result if valid else None
    record_level = by_record.level if by_record else None
    valid_level = by_valid.level if by_valid else None
    # valid before the cutoff (by the latest snapshot), yet not recorded by then
    recorded = record.initial | record.at_cutoff if record else set()
    backfilled = bool(valid and (valid.initial | valid.at_cutoff) - recorded)
    uncovered = (by_record.not_covered_in if by_record else None) or (
        by_valid.not_covered_in if by_valid else None
    )
    if uncovered is not None:
        return Result(key[0], key[1], "not_covered", None, None, (), (), (), None,
                      record_level, valid_level, backfilled, uncovered)  # fmt: skip
    agree = (
        by_record is not None
        and by_valid is not None
        and (by_record.level, by_record.change_kind) == (by_valid.level, by_valid.change_kind)
    )
    if agree:
        assert by_record is not None
        return replace(
            by_record, record_level=record_level, valid_level=valid_level, backfilled=backfilled
        )
    reason = "record and valid time disagree: "
    reason += f"record {describe(by_record)}, valid {describe(by_valid)}"
    return Result(key[0], key[1], "ambiguous", None, None, (), (), (), reason,
                  record_level, valid_level, backfilled)  # fmt: skip


ViewMemo = dict[tuple[tuple[date, date, date], str], dict[tuple[str, str], Sets]]
"""Views already classified, by dates and view, of one list of snapshots."""


def classify(
    snapshots: list[Snapshot],
    init: date,
    cutoff: date,
    current: date,
    mode: str,
    memo: ViewMemo | None = None,
) -> dict[tuple[str, str], Result]:
    """Classify every reported (subject, pid) group; see docs/classification.md. A ``memo``
    kept for the same snapshots gives back a view classified before (mode 'both' is made of
    the 'record' and 'valid' views: the real samples' take seconds each)."""
    check_inputs(snapshots, init, cutoff, current, mode)
    days = (init, cutoff, current)
    memo = {} if memo is None else memo

    def view(name: str) -> dict[tuple[str, str], Sets]:
        if (days, name) not in memo:
            memo[days, name] = classify_view(snapshots, days, name)
        return memo[days, name]

    if mode != "both":
        return {key: sets.result for key, sets in view(mode).items()}
    record = view("record")
    valid = view("valid")
    names, gaps = record_reads(snapshots, days)
    return {
        key: replace(
            combine(key, record.get(key), valid.get(key)),
            init_snapshot=names[0],
            cutoff_snapshot=names[1],
            current_snapshot=names[2],
            init_gap_days=gaps[0],
            cutoff_gap_days=gaps[1],
            current_gap_days=gaps[2],
        )
        for key in sorted(set(record) | set(valid))
    }


def record_reads(
    snapshots: list[Snapshot], days: tuple[date, date, date]
) -> tuple[list[str | None], list[int | None]]:
    """The snapshots record time reads for init, cutoff and current, and each date's gap."""
    read = [latest_snapshot_on_or_before(snapshots, day) for day in days]
    names = [snapshot.name if snapshot else None for snapshot in read]
    gaps = [(day - s.date).days if s else None for day, s in zip(days, read, strict=True)]
    return names, gaps
