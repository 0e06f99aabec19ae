"""Which statements a timeline picture draws, and what it leaves out.

A big entity has a hundred statements or more, most of them identifiers and images that never
changed; a figure of all of them is a poster, not a figure. By default the picture draws the
properties that **changed** (a statement added or gone between the snapshots that hold the
entity, or a group whose level at the cutoff is a change: evolved, uncharted, recent or
retracted) and the **relation catalogue's** relations (what a benchmark asks
about), in that order of preference: the catalogue's changed relations, the other changed
properties, the catalogue's unchanged ones. An entity with none of these has all its
properties drawn. The lanes (one per statement) are then shared out under a height cap a lane
at a time, property by property in that order, so a property with many statements cannot crowd
out the others; within a property the changed statements come first, then those that speak of
the latest dates. What is left out is counted and named (:attr:`Choice.note`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from datetime import date

import polars as pl

from kgdiff.calendars import day_of_date

MAX_LANES = 40
"""The default height cap, in lanes (statements): the picture then fits a page."""
CHANGE_LEVELS = ("evolved", "uncharted", "recent", "retracted")
"""Levels that say a group changed around the cutoff."""
DATE_COLUMNS = ("valid_until_hi", "valid_from_lo", "point_hi")
"""The day numbers a statement's latest date is read from (its last seen day without any)."""
NAMED = 4
"""How many left-out properties a note names before it says "…"."""


@dataclass(frozen=True)
class Choice:
    """The statements drawn (their positions in the timeline) and what was left out."""

    statements: list[int]
    total: int
    left_out: list[tuple[str, str]] = field(default_factory=list)
    """Properties not chosen (unchanged, not in the catalogue): (pid, label), by id."""
    cut: list[tuple[str, str, int, int]] = field(default_factory=list)
    """Chosen properties the cap cut, wholly or in part: (pid, label, drawn, statements)."""
    max_lanes: int = 0

    def params(self) -> dict[str, object]:
        """The choice as the picture's parameters record it."""
        return {
            "statements": self.total,
            "drawn": len(self.statements),
            "max_lanes": self.max_lanes,
            "left_out_pids": [pid for pid, _ in self.left_out],
            "cut": {pid: [drawn, count] for pid, _, drawn, count in self.cut},
        }

    def note(self) -> str | None:
        """One sentence on what was left out and how to draw it, or None when nothing was."""
        if not self.left_out and not self.cut:
            return None
        parts = []
        if self.left_out:
            names = ", ".join(f"{label} ({pid})" for pid, label in self.left_out[:NAMED])
            more = ", …" if len(self.left_out) > NAMED else ""
            many = _count(len(self.left_out), "property", "properties")
            parts.append(
                f"{many} that did not change and are not in the relation catalogue ({names}{more})"
            )
        if self.cut:
            cuts = ", ".join(
                f"{count - drawn} of {count} of {label} ({pid})"
                for pid, label, drawn, count in self.cut[:NAMED]
            )
            if len(self.cut) > NAMED:
                rest = _count(len(self.cut) - NAMED, "more property", "more properties")
                cuts += f" and those of {rest}"
            parts.append(f"beyond the cap of {self.max_lanes} lanes, the statements {cuts}")
        return (
            f"Left out: {'; '.join(parts)}. Drawn: {len(self.statements)} of"
            f" {self.total} statements; --all draws every one, --pid P chooses properties,"
            " --max-lanes N moves the cap."
        )


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def choose_statements(
    statements: pl.DataFrame,
    levels: dict[str, str | None],
    catalogue: Collection[str],
    max_lanes: int,
    every: bool = False,
    picked: bool = False,
) -> Choice:
    """The statements of ``statements`` (a timeline with a ``statement`` position column) a
    picture draws: with ``every``, all of them; otherwise the preferred properties (see the
    module; all of them when the user ``picked`` them) under the cap of ``max_lanes`` lanes
    (0: no cap). ``levels`` gives each property's level at the cutoff, ``catalogue`` the
    relation catalogue's property ids."""
    total = statements.height
    if every or not total:
        return Choice(statements["statement"].to_list(), total)
    holding = set().union(*statements["snapshots"].to_list())
    ranked = _ranked(statements, holding)
    changed = {
        pid
        for pid, rows in ranked.items()
        if levels.get(pid) in CHANGE_LEVELS or any(moved for _, moved in rows)
    }
    order = sorted(ranked, key=lambda pid: (_tier(pid, changed, catalogue), _pid_number(pid)))
    preferred = [pid for pid in order if _tier(pid, changed, catalogue) < 3]
    chosen = order if picked or not preferred else preferred
    lanes = _share(chosen, {pid: len(ranked[pid]) for pid in chosen}, max_lanes)
    labels = dict(statements.select("pid", "pid_label").iter_rows())
    kept = sorted(position for pid in chosen for position, _ in ranked[pid][: lanes.get(pid, 0)])
    left_out = [(pid, labels[pid]) for pid in order if pid not in chosen]
    cut = [
        (pid, labels[pid], lanes[pid], len(ranked[pid]))
        for pid in chosen
        if lanes.get(pid, 0) < len(ranked[pid])
    ]
    return Choice(kept, total, left_out, cut, max_lanes)


def _ranked(statements: pl.DataFrame, holding: set[str]) -> dict[str, list[tuple[int, bool]]]:
    """Each property's statements, best first: (position, changed). A statement changed
    when a snapshot that holds the entity lacks it; then the latest date first."""
    rows: dict[str, list[tuple[tuple[int, int, int], int, bool]]] = {}
    for row in statements.iter_rows(named=True):
        moved = set(row["snapshots"]) != holding
        key = (0 if moved else 1, -_latest_day(row), row["statement"])
        rows.setdefault(row["pid"], []).append((key, row["statement"], moved))
    return {pid: [(pos, moved) for _, pos, moved in sorted(found)] for pid, found in rows.items()}


def _latest_day(row: dict[str, object]) -> int:
    """The latest day a statement speaks of: its valid dates, else the last snapshot it was
    seen in."""
    days = [int(day) for name in DATE_COLUMNS if isinstance(day := row.get(name), int)]
    if days:
        return max(days)
    seen = row["last_seen"]
    return day_of_date(seen) if isinstance(seen, date) else 0


def _tier(pid: str, changed: set[str], catalogue: Collection[str]) -> int:
    """0: a catalogue relation that changed; 1: another property that changed; 2: an
    unchanged catalogue relation; 3: the rest."""
    if pid in changed:
        return 0 if pid in catalogue else 1
    return 2 if pid in catalogue else 3


def _pid_number(pid: str) -> int:
    return int(pid[1:])


def _share(order: list[str], sizes: dict[str, int], max_lanes: int) -> dict[str, int]:
    """Lanes for each property of ``order`` (``sizes``: its statements), given out a lane at a
    time in turn until ``max_lanes`` are given (0: every statement gets one)."""
    if max_lanes <= 0:
        return dict(sizes)
    given = dict.fromkeys(order, 0)
    for count, pid in enumerate(_turns(order, sizes)):
        if count >= max_lanes:
            break
        given[pid] += 1
    return given


def _turns(order: list[str], sizes: dict[str, int]) -> Iterator[str]:
    """The properties of ``order`` in turn, each as often as it has statements."""
    for turn in range(max(sizes.values(), default=0)):
        yield from (pid for pid in order if sizes[pid] > turn)
