"""Shared CLI pieces: the store option, one-line errors and exit codes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from kgdiff.errors import KgdiffError

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

EXIT_INTERRUPTED = 130


def fail(message: str) -> None:
    """Print ``error: message`` on one line to stderr."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)


def run_guarded(app: typer.Typer) -> int:
    """Run the typer app; map kgdiff errors to one-line messages and exit codes.

    Usage errors are typer's own (exit code 2).
    """
    try:
        app()
    except KgdiffError as exc:
        fail(str(exc))
        return exc.exit_code
    except KeyboardInterrupt:
        fail("interrupted; run the same command again to resume where it stopped")
        return EXIT_INTERRUPTED
    return 0
