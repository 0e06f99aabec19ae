"""Progress as plain lines, for output that is not a terminal (a log file, a pipe).

A live bar cannot be drawn there: rich would print only its last state, once the work is
over, so an ingest of hours would say nothing until the end. Instead a line is printed
when the work starts, then every ``interval`` seconds, and once more when it is done; and
the same for the step after it (the sort), by the share of it done.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

from rich.console import Console

DEFAULT_INTERVAL = 30.0


def _duration(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


def _timing(elapsed: float, left: float) -> str:
    """``H:MM:SS elapsed``, and the time left when there is any."""
    return f"{_duration(elapsed)} elapsed" + (f", about {_duration(left)} left" if left else "")


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
        self._step = ""
        self._step_started = self._step_done = self._step_total = 0.0
        self._step_said = -1.0  # the share last printed, so the end does not print it twice

    def begin(self, description: str, total_bytes: int) -> None:
        """Announce the work and its size."""
        self._description, self._total = description, total_bytes
        self._done = self._entities = self._statements = 0
        self._started = self._reported = self._clock()
        self._open = True
        self._print(f"{description}: {total_bytes / 1e6:,.1f} MB")

    def update(self, done_bytes: int, entities: int, statements: int) -> None:
        """Keep the totals; print them when ``interval`` has passed since the last line."""
        self._done, self._entities, self._statements = done_bytes, entities, statements
        now = self._clock()
        if self._open and now - self._reported >= self._interval:
            self._reported = now
            self._print(self._line(now))

    def phase(self, description: str) -> None:
        """Print the finished work's last line, then the next step."""
        self._close_step()
        if self._open:
            self._done = self._total
            self._print(self._line(self._clock()))
            self._open = False
        self._print(f"{description}…")
        self._step = description
        self._step_started = self._reported = self._clock()

    def advance(self, done: float, total: float) -> None:
        """Keep the step's share; print it when ``interval`` has passed since the last line."""
        self._step_done, self._step_total = done, total
        now = self._clock()
        if self._step and now - self._reported >= self._interval:
            self._reported, self._step_said = now, done
            self._print(self._step_line(now))

    def end(self) -> None:
        """Print where the work, or its last step, got to, unless already said (the caller
        reports the outcome)."""
        if self._open:
            self._print(self._line(self._clock()))
            self._open = False
        self._close_step()

    def _close_step(self) -> None:
        if self._step and self._step_total and self._step_done != self._step_said:
            self._print(self._step_line(self._clock()))
        self._step, self._step_done, self._step_total, self._step_said = "", 0.0, 0.0, -1.0

    def _print(self, text: str) -> None:
        self._console.print(text, highlight=False, soft_wrap=True)

    def _step_line(self, now: float) -> str:
        elapsed = max(now - self._step_started, 1e-9)
        share = min(self._step_done / self._step_total, 1.0) if self._step_total else 1.0
        left = elapsed * (1 - share) / share if 0 < share < 1 else 0.0
        return (
            f"{self._step}: {share:6.1%} ({self._step_done / 1e6:,.1f} of"
            f" {self._step_total / 1e6:,.1f} MB of rows), {_timing(elapsed, left)}"
        )

    def _line(self, now: float) -> str:
        elapsed = max(now - self._started, 1e-9)
        share = self._done / self._total if self._total else 1.0
        rate = self._done / elapsed
        left = (self._total - self._done) / rate if rate and share < 1 else 0.0
        return (
            f"{self._description}: {share:6.1%} ({self._done / 1e6:,.1f} of"
            f" {self._total / 1e6:,.1f} MB), {self._entities:,} {self._items},"
            f" {self._statements:,} {self._subitems}, {rate / 1e6:,.1f} MB/s,"
            f" {_timing(elapsed, left)}"
        )
