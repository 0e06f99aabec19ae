"""Hypothesis strategies (and small constructors) for snapshot histories of Wikidata statements.

``histories()`` draws ``History(snapshots, init, cutoff, current)``: 1–4 snapshots at increasing
dates, a few groups (subjects Q1..Q5 × properties P1..P4, P509 and the quantity P1082) whose
statements are carried over from one snapshot to the next with a few changes, and three dates
init < cutoff < current placed before, between, on and after the snapshot dates. Temporal qualifier
dates are drawn near those dates too, so that every validity case and every level occurs often.
Subjects often also get start-of-existence and death statements (P569, P570, P571, P580, time
values near the same dates) that give implied start bounds in valid mode, and P1082 statements
mostly carry only a point in time, so that measurement series occur often.

The group ``(EXTRA_SUBJECT, EXTRA_PID)`` never occurs in generated histories: targeted property
tests insert their own statements for it with ``add_rows``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from itertools import pairwise, product
from typing import NamedTuple

from hypothesis import strategies as st

from tests.temporal_reference import Entity, Row, Snapshot

SUBJECTS = ("Q1", "Q2", "Q3", "Q4", "Q5")
PIDS = ("P1", "P2", "P3", "P4")
CAUSE_OF_DEATH, SERIES_PID = "P509", "P1082"
BIRTH, DEATH = "P569", "P570"
TIME_PIDS = ("P569", "P570", "P571", "P580")
ENTITY_VALUES = ("Q100", "Q101", "Q102", "Q103", "Q104", "Q105")
VALUES = (*ENTITY_VALUES, "<somevalue>")
QUANTITY_VALUES = ("+100|1", "+120|1", "+150|1", "+200|1")
ENTITY_TYPE = "wikibase-entityid"
EXTRA_SUBJECT, EXTRA_PID = "Q9", "P9"

SNAPSHOT_FIRST, SNAPSHOT_LAST = date(2000, 1, 1), date(2030, 12, 31)
DAY_FIRST, DAY_LAST = date(1995, 1, 1), date(2035, 12, 31)
ONE_DAY = timedelta(days=1)

# Weights are expressed by repetition in sampled_from.
RANK_CHOICES = ("normal",) * 7 + ("preferred",) * 2 + ("deprecated",)
QUALIFIER_SHAPES = (
    ((),) * 6
    + (("start",),) * 2
    + (("end",),) * 2
    + (("start", "end"),) * 2
    + (("point",),) * 2
    + (("start", "point"), ("start", "end", "point"))
)
BOUND_KINDS = ("day",) * 5 + ("year",) * 2 + ("somevalue", "novalue")
# Shapes for P1082: mostly a point only (a measurement series), sometimes something else.
SERIES_SHAPES = (("point",),) * 20 + ((), ("start",), ("start", "point"))
# Start-of-existence / death groups a subject gets besides its drawn groups.
LIFE_SHAPES: tuple[tuple[str, ...], ...] = ((),) * 2 + (("P569",),) * 3 + (("P569", "P570"),) * 3
LIFE_SHAPES += (("P570",), ("P571",), ("P569", "P580"))
CHANGE_COUNTS = (0, 0, 0, 0, 1, 1, 1, 2)
CREATED_AT = (0, 0, 0, 1, 2)
CHANGES: tuple[str, ...] = ("add",) * 2 + ("replace",) * 2 + ("supersede",) * 2
CHANGES += ("remove", "deprecate", "promote", "end", "requalify", "fresh")


class History(NamedTuple):
    """A generated input: snapshots and the three classification dates."""

    snapshots: list[Snapshot]
    init: date
    cutoff: date
    current: date


# --------------------------------------------------------------------------------------------
# Constructors for hand-written examples
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Qual:
    """A temporal qualifier (start, end or point) as written in an example."""

    snaktype: str | None
    lo: date | None = None
    hi: date | None = None


ABSENT = Qual(None)
SOMEVALUE = Qual("somevalue")
NOVALUE = Qual("novalue")


def day(when: date) -> Qual:
    """A day-precision qualifier: lo = hi = the day."""
    return Qual("value", when, when)


def year(number: int) -> Qual:
    """A year-precision qualifier: Jan 1 … Dec 31 of the year."""
    return Qual("value", date(number, 1, 1), date(number, 12, 31))


def time_key(when: Qual) -> str:
    """A value key for a time value (day or year precision)."""
    assert when.lo is not None and when.hi is not None
    precision = 11 if when.lo == when.hi else 9
    return f"+{when.lo.isoformat()}T00:00:00Z/{precision}"


def value_type_of(value: str, time: Qual | None) -> str | None:
    """The value type of a value key: NULL for <somevalue>/<novalue>, else by its shape."""
    if value.startswith("<"):
        return None
    if time is not None:
        return "time"
    return "quantity" if "|" in value else ENTITY_TYPE


def statement(
    subject: str,
    pid: str,
    value: str,
    rank: str = "normal",
    *,
    start: Qual | None = None,
    end: Qual | None = None,
    point: Qual | None = None,
    time: Qual | None = None,
) -> Row:
    """A statement row; qualifiers default to absent (snaktype NULL).

    ``time``: the main snak's time interval (time_lo, time_hi), for time values.
    """
    s, e, p = start or ABSENT, end or ABSENT, point or ABSENT
    return Row(
        subject=subject,
        pid=pid,
        rank=rank,
        snaktype={"<somevalue>": "somevalue", "<novalue>": "novalue"}.get(value, "value"),
        value=value,
        value_type=value_type_of(value, time),
        time_lo=time.lo if time else None,
        time_hi=time.hi if time else None,
        start_lo=s.lo,
        start_hi=s.hi,
        start_snaktype=s.snaktype,
        end_lo=e.lo,
        end_hi=e.hi,
        end_snaktype=e.snaktype,
        point_lo=p.lo,
        point_hi=p.hi,
        point_snaktype=p.snaktype,
    )


def dated(
    subject: str,
    pid: str,
    when: Qual,
    rank: str = "normal",
    *,
    start: Qual | None = None,
    end: Qual | None = None,
    point: Qual | None = None,
) -> Row:
    """A statement whose value is the time ``when`` (a day or a year), e.g. a birth (P569)."""
    key = time_key(when)
    return statement(subject, pid, key, rank, start=start, end=end, point=point, time=when)


def snapshots_of(*dated_rows: tuple[date, Sequence[Row]]) -> list[Snapshot]:
    """Snapshots named s0, s1, … from (date, rows) pairs."""
    return [Snapshot(f"s{i}", when, tuple(rows)) for i, (when, rows) in enumerate(dated_rows)]


def add_rows(
    snapshots: Iterable[Snapshot], rows: Sequence[Row], when: Callable[[date], bool]
) -> list[Snapshot]:
    """Copies of the snapshots with ``rows`` appended to those whose date satisfies ``when``."""
    return [
        replace(snap, rows=snap.rows + tuple(rows)) if when(snap.date) else snap
        for snap in snapshots
    ]


def add_everywhere(history: History, rows: Sequence[Row]) -> History:
    """The history with ``rows`` added, identically, to every snapshot."""
    return history._replace(snapshots=add_rows(history.snapshots, rows, lambda _: True))


# --------------------------------------------------------------------------------------------
# Dates
# --------------------------------------------------------------------------------------------


def near(days: Iterable[date]) -> list[date]:
    """The days themselves and their neighbours (boundaries are where the bugs live)."""
    return sorted({d + k * ONE_DAY for d in days for k in (-1, 0, 1)})


def qualifier_days(days: Iterable[date]) -> list[date]:
    """Days for qualifiers: ``near(days)`` plus the midpoints between consecutive days."""
    ordered = sorted(set(days))
    midpoints = [a + (b - a) // 2 for a, b in pairwise(ordered)]
    return sorted({*near(ordered), *midpoints})


def days_from(pool: Sequence[date], first: date, last: date) -> st.SearchStrategy[date]:
    """A day in [first, last]: often one of ``pool`` (restricted to the range), else any day."""
    inside = [d for d in pool if first <= d <= last]
    anywhere = st.dates(first, last)
    return st.one_of(st.sampled_from(inside), anywhere) if inside else anywhere


@st.composite
def snapshot_dates(draw: st.DrawFn, min_size: int = 1, max_size: int = 4) -> list[date]:
    """Distinct, increasing snapshot dates in 2000–2030."""
    return sorted(
        draw(
            st.lists(
                st.dates(SNAPSHOT_FIRST, SNAPSHOT_LAST),
                min_size=min_size,
                max_size=max_size,
                unique=True,
            )
        )
    )


@st.composite
def timelines(draw: st.DrawFn, stable_window: bool = False) -> tuple[list[date], date, date, date]:
    """Snapshot dates and init < cutoff < current.

    By default the three dates fall anywhere (before, between, on and after snapshot dates).
    With ``stable_window`` there are ≥ 2 snapshots, the first dated ≤ init and the last dated in
    (cutoff, current], so that record mode sees a snapshot at init and a new one after the cutoff.
    """
    if not stable_window:
        dates = draw(snapshot_dates())
        pool = near(dates)
        key = days_from(pool, date(1998, 1, 1), date(2032, 12, 31))
        init, cutoff, current = sorted(draw(st.lists(key, min_size=3, max_size=3, unique=True)))
        return dates, init, cutoff, current
    dates = draw(snapshot_dates(min_size=2).filter(lambda ds: ds[-1] - ds[0] >= 2 * ONE_DAY))
    pool = near(dates)
    init = draw(days_from(pool, dates[0], dates[-1] - 2 * ONE_DAY))
    cutoff = draw(days_from(pool, init + ONE_DAY, dates[-1] - ONE_DAY))
    current = draw(days_from(pool, dates[-1], dates[-1] + timedelta(days=800)))
    return dates, init, cutoff, current


# --------------------------------------------------------------------------------------------
# Statements (plain ``draw_*`` functions: building strategies once per history keeps generation
# fast; the composites below wrap them for direct use)
# --------------------------------------------------------------------------------------------

RANK = st.sampled_from(RANK_CHOICES)
VALUE = st.sampled_from(VALUES)
QUANTITY = st.sampled_from(QUANTITY_VALUES * 4 + ("<somevalue>",))
SHAPE = st.sampled_from(QUALIFIER_SHAPES)
SERIES_SHAPE = st.sampled_from(SERIES_SHAPES)
LIFE_SHAPE = st.sampled_from(LIFE_SHAPES)
BOUND_KIND = st.sampled_from(BOUND_KINDS)
CHANGE_COUNT = st.sampled_from(CHANGE_COUNTS)
CHANGE = st.sampled_from(CHANGES)
STATEMENT_COUNT = st.integers(0, 4)
LIFE_COUNT = st.sampled_from((1, 1, 1, 2))


@dataclass(frozen=True)
class Pools:
    """Strategies for qualifier days and years, biased towards a history's key days."""

    days: st.SearchStrategy[date]
    years: st.SearchStrategy[int]


def pools_for(key_days: Sequence[date]) -> Pools:
    """Pools for qualifiers: key days (and their years ± 1) often, any day in 1995–2035 else."""
    years = sorted({d.year + k for d in key_days for k in (-1, 0, 1)})
    any_year = st.integers(DAY_FIRST.year, DAY_LAST.year)
    return Pools(
        days=days_from(key_days, DAY_FIRST, DAY_LAST),
        years=st.one_of(st.sampled_from(years), any_year) if years else any_year,
    )


def draw_bound(draw: st.DrawFn, pools: Pools) -> Qual:
    """One temporal qualifier: a day, a year, somevalue or novalue."""
    kind = draw(BOUND_KIND)
    if kind == "day":
        return day(draw(pools.days))
    if kind == "year":
        return year(draw(pools.years))
    return SOMEVALUE if kind == "somevalue" else NOVALUE


def draw_qualifiers(
    draw: st.DrawFn, pools: Pools, shapes: st.SearchStrategy[tuple[str, ...]] = SHAPE
) -> dict[str, Qual]:
    """Temporal qualifiers of a statement: mostly none, sometimes start/end/point."""
    quals = {name: draw_bound(draw, pools) for name in draw(shapes)}
    start, end = quals.get("start"), quals.get("end")
    if (
        start is not None
        and end is not None
        and start.lo is not None
        and end.lo is not None
        and start.lo > end.lo
        and draw(st.integers(0, 3)) > 0
    ):
        quals["start"], quals["end"] = end, start  # mostly well-ordered intervals
    return quals


def draw_main(
    draw: st.DrawFn, subject: str, pid: str, pools: Pools, values: st.SearchStrategy[str] = VALUE
) -> Row:
    """A normal statement without qualifiers whose value suits the pid: a time (day or year,
    sometimes <somevalue>) for TIME_PIDS, a quantity for SERIES_PID, else one of ``values``."""
    if pid in TIME_PIDS:
        if draw(st.integers(0, 7)) == 0:
            return statement(subject, pid, "<somevalue>")
        when = day(draw(pools.days)) if draw(st.booleans()) else year(draw(pools.years))
        return dated(subject, pid, when)
    return statement(subject, pid, draw(QUANTITY if pid == SERIES_PID else values))


def draw_other_main(draw: st.DrawFn, old: Row, pools: Pools) -> Row:
    """A statement like ``draw_main`` of the old row's group, with a value other than its value
    (after a few tries: the value <novalue>, which drawn statements never have)."""
    for _ in range(5):
        like = draw_main(draw, old.subject, old.pid, pools)
        if like.value != old.value:
            return like
    return statement(old.subject, old.pid, "<novalue>")


def draw_statement(
    draw: st.DrawFn,
    subject: str,
    pid: str,
    pools: Pools,
    ranks: st.SearchStrategy[str] = RANK,
    values: st.SearchStrategy[str] = VALUE,
    with_qualifiers: bool = True,
) -> Row:
    """One statement of the group (subject, pid); time statements rarely have qualifiers."""
    row = replace(draw_main(draw, subject, pid, pools, values), rank=draw(ranks))
    if not with_qualifiers or (pid in TIME_PIDS and draw(st.integers(0, 5)) > 0):
        return row
    shapes = SERIES_SHAPE if pid == SERIES_PID else SHAPE
    return with_qualifiers_of(row, draw_qualifiers(draw, pools, shapes))


def draw_statements(draw: st.DrawFn, subject: str, pid: str, pools: Pools) -> list[Row]:
    """0–4 statements of the group (subject, pid); 1–2 for a time (existence, death) pid."""
    count = draw(LIFE_COUNT if pid in TIME_PIDS else STATEMENT_COUNT)
    return [draw_statement(draw, subject, pid, pools) for _ in range(count)]


@st.composite
def bounds(draw: st.DrawFn, key_days: Sequence[date] = ()) -> Qual:
    """One temporal qualifier (see ``draw_bound``), near the key days."""
    return draw_bound(draw, pools_for(key_days))


@st.composite
def statements(
    draw: st.DrawFn,
    subject: str,
    pid: str,
    key_days: Sequence[date] = (),
    ranks: Sequence[str] = RANK_CHOICES,
    values: Sequence[str] = VALUES,
    with_qualifiers: bool = True,
) -> Row:
    """One statement of the group (subject, pid) (see ``draw_statement``)."""
    return draw_statement(
        draw,
        subject,
        pid,
        pools_for(key_days),
        st.sampled_from(ranks),
        st.sampled_from(values),
        with_qualifiers,
    )


def with_value(row: Row, value: str) -> Row:
    """The row with another (non-time) value (its snaktype and value type following)."""
    return with_main_of(row, statement(row.subject, row.pid, value))


def with_main_of(row: Row, like: Row) -> Row:
    """The row with the main snak (snaktype, value, value type, time interval) of ``like``."""
    return replace(
        row,
        snaktype=like.snaktype,
        value=like.value,
        value_type=like.value_type,
        time_lo=like.time_lo,
        time_hi=like.time_hi,
    )


def with_bound(row: Row, name: str, qual: Qual | None) -> Row:
    """The row with its ``name`` qualifier ('start', 'end' or 'point') set (None: absent)."""
    qual = qual or ABSENT
    lo, hi, snaktype = qual.lo, qual.hi, qual.snaktype
    if name == "start":
        return replace(row, start_lo=lo, start_hi=hi, start_snaktype=snaktype)
    if name == "end":
        return replace(row, end_lo=lo, end_hi=hi, end_snaktype=snaktype)
    assert name == "point", name
    return replace(row, point_lo=lo, point_hi=hi, point_snaktype=snaktype)


def with_qualifiers_of(row: Row, quals: dict[str, Qual]) -> Row:
    """The row with exactly the temporal qualifiers ``quals``."""
    for name in ("start", "end", "point"):
        row = with_bound(row, name, quals.get(name))
    return row


def draw_evolved(
    draw: st.DrawFn, subject: str, pid: str, rows: Sequence[Row], pools: Pools
) -> list[Row]:
    """The next snapshot's statements of one group: usually the previous ones, a few changed."""
    result = list(rows)
    for _ in range(draw(CHANGE_COUNT)):
        change = draw(CHANGE)
        if change == "fresh":
            result = draw_statements(draw, subject, pid, pools)
            continue
        if change == "add" or not result:
            result.append(draw_statement(draw, subject, pid, pools))
            continue
        index = draw(st.integers(0, len(result) - 1))
        old = result[index]
        if change == "remove":
            del result[index]
        elif change == "replace":
            result[index] = with_main_of(old, draw_other_main(draw, old, pools))
        elif change == "supersede" and pid == SERIES_PID:  # a new census, a later figure
            new = draw_main(draw, subject, pid, pools)
            result.append(with_bound(new, "point", day(draw(pools.days))))
        elif change == "supersede":  # the old value ends the day a new one starts
            when = draw(pools.days)
            new = draw_other_main(draw, old, pools)
            result[index] = with_bound(old, "end", day(when))
            result.append(with_bound(new, "start", day(when)))
        elif change == "deprecate":
            result[index] = replace(old, rank="deprecated")
        elif change == "promote":
            result[index] = replace(old, rank="preferred")
        elif change == "end":
            result[index] = with_bound(old, "end", draw_bound(draw, pools))
        else:  # requalify
            shapes = SERIES_SHAPE if pid == SERIES_PID else SHAPE
            result[index] = with_qualifiers_of(old, draw_qualifiers(draw, pools, shapes))
    return result


# --------------------------------------------------------------------------------------------
# Histories
# --------------------------------------------------------------------------------------------

ALL_GROUPS = tuple(product(SUBJECTS, (*PIDS, CAUSE_OF_DEATH, SERIES_PID)))
LIFE_GROUPS = tuple(product(SUBJECTS, TIME_PIDS))
GROUPS = st.lists(st.sampled_from(ALL_GROUPS), min_size=1, max_size=6, unique=True)


@st.composite
def histories(
    draw: st.DrawFn, stable_window: bool = False, merges: bool = True, subsets: bool = False
) -> History:
    """A history: 1–4 snapshots, 1–6 groups evolving across them, and init < cutoff < current.

    ``stable_window``: see ``timelines`` (≥ 2 snapshots, first ≤ init, last in (cutoff, current]).
    ``merges``: whether items may be merged (False keeps every value key as written, for tests
    that add a targeted group and state its answers).
    ``subsets``: whether some snapshots may be subset ones, lacking some subjects (rows and
    entity rows) that the full story has (see ``with_coverage``).
    """
    dates, init, cutoff, current = draw(timelines(stable_window))
    pools = pools_for(qualifier_days([*dates, init, cutoff, current]))
    groups = draw(GROUPS)
    for subject in sorted({subject for subject, _ in groups}):
        groups += [(subject, pid) for pid in draw(LIFE_SHAPE)]
    rows_per_snapshot: list[list[Row]] = [[] for _ in dates]
    # a subject is often created only in a later snapshot (uncharted in both views)
    created = {subject: draw(st.sampled_from(CREATED_AT)) for subject, _ in groups}
    for subject, pid in groups:
        rows = draw_statements(draw, subject, pid, pools)
        for position, snapshot_rows in enumerate(rows_per_snapshot):
            if position > 0:
                rows = draw_evolved(draw, subject, pid, rows, pools)
            if position >= created[subject]:
                snapshot_rows.extend(rows)
    snapshots = snapshots_of(*zip(dates, rows_per_snapshot, strict=True))
    if not merges:
        snapshots = [with_entities(s, {}) for s in snapshots]
    else:
        snapshots = draw(with_merges(snapshots))
    if subsets:
        snapshots = [draw(with_coverage(s)) for s in snapshots]
    return History(snapshots, init, cutoff, current)


COVERAGE_CHOICES = ("full",) * 3 + ("subset",) * 3


@st.composite
def with_coverage(draw: st.DrawFn, snapshot: Snapshot) -> Snapshot:
    """The snapshot as a full one, or as a subset one that lacks 0–all of its subjects and
    redirects (their statements and entity rows), as a sample of a dump would."""
    coverage = draw(st.sampled_from(COVERAGE_CHOICES))
    if coverage == "full":
        return snapshot
    held = sorted({entity.qid for entity in snapshot.entities})
    dropped = draw(st.sets(st.sampled_from(held))) if held else set()
    return without(replace(snapshot, coverage="subset"), dropped)


def without(snapshot: Snapshot, dropped: set[str]) -> Snapshot:
    """The snapshot without the statements and entity rows of the ``dropped`` ids."""
    rows = tuple(row for row in snapshot.rows if row.subject not in dropped)
    entities = tuple(e for e in snapshot.entities if e.qid not in dropped)
    return replace(snapshot, rows=rows, entities=entities)


MERGEABLE = (*SUBJECTS, *ENTITY_VALUES)
MERGE_COUNTS = (0, 1, 1, 2)


def with_entities(snapshot: Snapshot, merged: dict[str, str]) -> Snapshot:
    """The snapshot with an entity row per subject and a redirect row per merged item (whose
    statements are gone, as a redirect has none)."""
    rows = tuple(row for row in snapshot.rows if row.subject not in merged)
    subjects = sorted({row.subject for row in rows})
    entities = [Entity(qid) for qid in subjects]
    entities += [Entity(source, target) for source, target in sorted(merged.items())]
    return replace(snapshot, rows=rows, entities=tuple(entities))


def used_items(snapshots: list[Snapshot]) -> list[str]:
    """The subjects and item values the snapshots use (the merges that change something)."""
    items = {row.subject for snap in snapshots for row in snap.rows}
    items |= {row.value for snap in snapshots for row in snap.rows if row.value in MERGEABLE}
    return sorted(item for item in items if item is not None)


@st.composite
def with_merges(draw: st.DrawFn, snapshots: list[Snapshot]) -> list[Snapshot]:
    """Entity rows for every snapshot, and 0–2 merges of subjects or item values into another
    item, each from a drawn snapshot on (so merges in a row and double redirects occur)."""
    merges: list[tuple[int, str, str]] = []
    for _ in range(draw(st.sampled_from(MERGE_COUNTS))):
        source = draw(st.sampled_from(used_items(snapshots) or MERGEABLE))
        target = draw(st.sampled_from([q for q in MERGEABLE if q != source]))
        merges.append((draw(st.integers(0, len(snapshots) - 1)), source, target))
    result = []
    for position, snapshot in enumerate(snapshots):
        merged = {source: target for since, source, target in merges if since <= position}
        result.append(with_entities(snapshot, merged))
    return result


# --------------------------------------------------------------------------------------------
# Targeted groups (for the EXTRA group, absent from generated histories)
# --------------------------------------------------------------------------------------------


@st.composite
def unchanged_group(
    draw: st.DrawFn, subject: str = EXTRA_SUBJECT, pid: str = EXTRA_PID
) -> list[Row]:
    """1–4 statements without temporal qualifiers, at least one of them not deprecated."""
    plain = statements(subject, pid, (), with_qualifiers=False)
    counting = statements(subject, pid, (), ranks=("normal", "preferred"), with_qualifiers=False)
    return [draw(counting), *draw(st.lists(plain, max_size=3))]


@st.composite
def single_valued_group(
    draw: st.DrawFn, subject: str = EXTRA_SUBJECT, pid: str = EXTRA_PID
) -> list[Row]:
    """1–3 non-deprecated statements without qualifiers, all with one and the same value."""
    value = draw(st.sampled_from(VALUES))
    ranks = draw(st.lists(st.sampled_from(("normal", "preferred")), min_size=1, max_size=3))
    return [statement(subject, pid, value, rank) for rank in ranks]


@st.composite
def deprecated_statements(
    draw: st.DrawFn,
    history: History,
    groups: Sequence[tuple[str, str]] = ALL_GROUPS + LIFE_GROUPS,
) -> Row:
    """A deprecated statement with any value and qualifiers, for any group."""
    subject, pid = draw(st.sampled_from([*groups, (EXTRA_SUBJECT, EXTRA_PID)]))
    pools = pools_for(qualifier_days([*(s.date for s in history.snapshots), *history[1:]]))
    return draw_statement(draw, subject, pid, pools, ranks=st.just("deprecated"))
