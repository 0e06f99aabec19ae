"""Shared CLI pieces: the store option, one-line errors and exit codes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from kgdiff.errors import InterruptedRunError, KgdiffError, UsageError

console = Console()
err_console = Console(stderr=True)

StoreOption = Annotated[
    Path | None,
    typer.Option(
        "--store",
        envvar="KGDIFF_STORE",
        help="Store directory (default ./kgdiff-data, or $KGDIFF_STORE).",
        show_default=False,
    ),
]


EXIT_OS_ERROR = 6


def fail(message: str) -> None:
    """Print ``error: message`` on one line to stderr."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)


@contextmanager
def resumable() -> Iterator[None]:
    """Turn Ctrl-C inside a long command into a one-line message and exit code 130.

    (typer would swallow the KeyboardInterrupt silently.)
    """
    try:
        yield
    except KeyboardInterrupt as exc:
        raise InterruptedRunError(
            "interrupted; run the same command again to resume where it stopped"
        ) from exc


def run_guarded(app: typer.Typer) -> int:
    """Run the typer app; map kgdiff errors to one-line messages and exit codes.

    Usage errors are typer's own (exit code 2).
    """
    try:
        app()
    except KgdiffError as exc:
        fail(str(exc))
        return exc.exit_code
    except OSError as exc:  # the store or an output path: disk full, no permission, missing dir
        fail(f"{exc}; check the path, its permissions and the free disk space")
        return EXIT_OS_ERROR
    return 0


def parse_day(value: str, option: str) -> date:
    """A YYYY-MM-DD option value as a date; a usage error naming the option otherwise."""
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise UsageError(f"{option} {value!r} is not a date; write it as YYYY-MM-DD") from exc
