"""Rich progress display for long ingests: bytes, entities, speed, ETA."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from kgdiff.cli.log_progress import LogProgress


def progress_for(
    console: Console, items: str = "entities", subitems: str = "statements"
) -> RichProgress | LogProgress:
    """A live bar on a terminal; plain lines every half minute anywhere else (a log, a pipe)."""
    if console.is_terminal:
        return RichProgress(console, items, subitems)
    return LogProgress(console, items, subitems)


class RichProgress:
    """Implements :class:`kgdiff.ingest.progress.Progress` with a rich progress bar."""

    def __init__(
        self, console: Console, items: str = "entities", subitems: str = "statements"
    ) -> None:
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TextColumn(f"{{task.fields[entities]:>12,}} {items}"),
            TextColumn(f"{{task.fields[statements]:>13,}} {subitems}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        self._task: TaskID | None = None
        self._steps: Progress | None = None
        self._step: TaskID | None = None

    def begin(self, description: str, total_bytes: int) -> None:
        """Show the bar."""
        self._progress.start()
        self._task = self._progress.add_task(
            description, total=total_bytes, entities=0, statements=0
        )

    def update(self, done_bytes: int, entities: int, statements: int) -> None:
        """Move the bar."""
        if self._task is not None:
            self._progress.update(
                self._task, completed=done_bytes, entities=entities, statements=statements
            )

    def phase(self, description: str) -> None:
        """Complete the bar (it stays on screen) and show the next step's own bar."""
        if self._task is not None:
            task = self._progress.tasks[0]
            self._progress.update(self._task, completed=task.total)
        self._progress.stop()
        if self._steps is not None:
            self._steps.stop()
        self._steps = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=self._progress.console,
        )
        self._steps.start()
        self._step = self._steps.add_task(f"{description}…", total=None)

    def advance(self, done: float, total: float) -> None:
        """Move the step's bar."""
        if self._steps is not None and self._step is not None:
            self._steps.update(self._step, completed=done, total=total)

    def end(self) -> None:
        """Stop the live display (the bars stay as they are)."""
        self._progress.stop()
        if self._steps is not None:
            self._steps.stop()
