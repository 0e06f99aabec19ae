"""A question's dates in their order (init < cutoff < current), init and current by default
the first and the latest snapshot's dates, and the one way every face refuses a date.

Every command, route and method that takes these dates fills in the same defaults
(:func:`with_defaults`) and checks them the same way (:func:`check_window`): first whether the
snapshots can answer each date the user gave (:func:`~kgdiff.temporal.dates.check_answerable`),
then their order. Both refusals are one message: what is wrong with which date (saying which
dates were defaults), the store's snapshots, and what to do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from itertools import pairwise

import duckdb

from kgdiff.errors import UsageError
from kgdiff.temporal.dates import (
    GAP_HINT,
    DateRead,
    GapPolicy,
    check_answerable,
    refusal,
    snapshot_listing,
)

DEFAULTS = {"init": "the first snapshot's date", "current": "the latest snapshot's date"}
"""The dates a question may leave out, and what they default to."""


@dataclass(frozen=True)
class Window:
    """A question's dates by role, in the order they must come, and which were defaults."""

    days: dict[str, date]
    defaulted: frozenset[str] = field(default_factory=frozenset)

    def day(self, role: str) -> date:
        """The date of ``role`` (``init``, ``cutoff``, ``current``)."""
        return self.days[role]

    def triple(self) -> tuple[date, date, date]:
        """(init, cutoff, current) of a classification's window."""
        return self.days["init"], self.days["cutoff"], self.days["current"]


def with_defaults(
    given: Mapping[str, date | None], span: Callable[[], tuple[date, date]]
) -> Window:
    """The dates of ``given`` (role → date or None, in order), init and current by default
    the first and the latest snapshot's dates (``span``, asked only when one is missing)."""
    missing = frozenset(role for role, day in given.items() if day is None)
    first, latest = span() if missing else (None, None)
    fallback = {"init": first, "current": latest}
    days: dict[str, date] = {}
    for role, day in given.items():
        chosen = day if day is not None else fallback.get(role)
        if chosen is None:
            raise UsageError(f"give --{role}: it has no default")
        days[role] = chosen
    return Window(days, missing)


def out_of_order(window: Window) -> tuple[str, str] | None:
    """The first two roles whose dates are out of order (None when init < cutoff < current)."""
    for earlier, later in pairwise(window.days):
        if not window.days[earlier] < window.days[later]:
            return earlier, later
    return None


def order_problem(window: Window) -> str | None:
    """What is out of order among the window's dates (None when they are in order)."""
    pair = out_of_order(window)
    if pair is None:
        return None
    return f"{_named(window, pair[0])} is not before {_named(window, pair[1])}"


def order_hint(window: Window) -> str:
    """What to do about dates out of order: the order, and a date to change either way."""
    hint = f"Choose dates in the order {' < '.join(window.days)}"
    pair = out_of_order(window)
    if pair is None:
        return hint
    earlier, later = pair
    return (
        f"{hint}: --{earlier} before {window.days[later]}, or --{later} after"
        f" {window.days[earlier]}"
    )


def check_order(window: Window) -> None:
    """A usage error for dates out of order, without the store (a library's own guard; the
    faces check with :func:`check_window`, whose message names the snapshots too)."""
    problem = order_problem(window)
    if problem is not None:
        raise UsageError(f"{problem}. {order_hint(window)}")


def check_window(
    connection: duckdb.DuckDBPyConnection,
    window: Window,
    mode: str,
    gap: GapPolicy,
    hint: str = GAP_HINT,
) -> list[DateRead]:
    """The reads of the window's dates in ``mode`` (valid time reads the snapshot of
    ``current``); a usage error naming the snapshots for a date beyond the data that ``gap``
    does not allow (ending with ``hint``), then for dates out of order."""
    as_of = window.days.get("current")
    reads = check_answerable(connection, window.days, mode, gap, as_of=as_of, hint=hint)
    problem = order_problem(window)
    if problem is not None:
        raise UsageError(refusal(problem, snapshot_listing(connection), order_hint(window)))
    return reads


def _named(window: Window, role: str) -> str:
    """``current 2014-12-31``, with where a default came from."""
    text = f"{role} {window.days[role]}"
    return text + (f" ({DEFAULTS[role]}, by default)" if role in window.defaulted else "")
