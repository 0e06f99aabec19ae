"""Progress as plain lines, for output that is not a terminal (a log file, a pipe).

A live bar cannot be drawn there: rich would print only its last state, once the work is
over, so an ingest of hours would say nothing until the end. Instead a line is printed
when the work starts, then every ``interval`` seconds, and once more when it is done.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

from rich.console import Console

DEFAULT_INTERVAL = 30.0


def _duration(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


class LogProgress:
    """Implements :class:`kgdiff.ingest.progress.Progress` with one line per report."""

    def __init__(
        self,
        console: Console,
        items: str = "entities",
        subitems: str = "statements",
        interval: float = DEFAULT_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._console, self._items, self._subitems = console, items, subitems
        self._interval, self._clock = interval, clock
        self._description = ""
        self._total = self._done = self._entities = self._statements = 0
        self._started = self._reported = 0.0
        self._open = False

    def begin(self, description: str, total_bytes: int) -> None:
        """Announce the work and its size."""
        self._description, self._total = description, total_bytes
        self._done = self._entities = self._statements = 0
        self._started = self._reported = self._clock()
        self._open = True
        self._console.print(
            f"{description}: {total_bytes / 1e6:,.1f} MB", highlight=False, soft_wrap=True
        )

    def update(self, done_bytes: int, entities: int, statements: int) -> None:
        """Keep the totals; print them when ``interval`` has passed since the last line."""
        self._done, self._entities, self._statements = done_bytes, entities, statements
        now = self._clock()
        if self._open and now - self._reported >= self._interval:
            self._reported = now
            self._console.print(self._line(now), highlight=False, soft_wrap=True)

    def phase(self, description: str) -> None:
        """Print the finished work's last line, then the next step."""
        if self._open:
            self._done = self._total
            self._console.print(self._line(self._clock()), highlight=False, soft_wrap=True)
            self._open = False
        self._console.print(f"{description}…", highlight=False, soft_wrap=True)

    def end(self) -> None:
        """Print where the work got to, unless a phase already did (the caller reports
        the outcome)."""
        if self._open:
            self._console.print(self._line(self._clock()), highlight=False, soft_wrap=True)
            self._open = False

    def _line(self, now: float) -> str:
        elapsed = max(now - self._started, 1e-9)
        share = self._done / self._total if self._total else 1.0
        rate = self._done / elapsed
        left = (self._total - self._done) / rate if rate and share < 1 else 0.0
        return (
            f"{self._description}: {share:6.1%} ({self._done / 1e6:,.1f} of"
            f" {self._total / 1e6:,.1f} MB), {self._entities:,} {self._items},"
            f" {self._statements:,} {self._subitems}, {rate / 1e6:,.1f} MB/s,"
            f" {_duration(elapsed)} elapsed" + (f", about {_duration(left)} left" if left else "")
        )
