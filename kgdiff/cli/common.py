"""Shared CLI pieces: the store option, one-line errors and exit codes."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

if TYPE_CHECKING:
    from kgdiff.query.graph import KnowledgeGraph
from rich.markup import escape

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
EXIT_UNEXPECTED = 70  # sysexits' EX_SOFTWARE: an internal error, which no expected failure uses


def fail(message: str) -> None:
    """Print ``error: message`` on one line to stderr."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)


def warn(message: str) -> None:
    """Print ``warning: message`` (plain text) on one line to stderr."""
    err_console.print(
        f"[bold yellow]warning:[/] {escape(message)}", highlight=False, soft_wrap=True
    )


WARNING_LOGGERS = ("kgdiff.store.catalog",)
"""The library's loggers whose warnings a command prints: the published folders a catalog
rebuild leaves out (:mod:`kgdiff.store.vetting`)."""


class WarningLines(logging.Handler):
    """Prints each warning of the library as one ``warning:`` line on stderr, once per
    command (a command may rebuild the catalog more than once)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self._said: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message not in self._said:
            self._said.add(message)
            warn(message)


def print_library_warnings() -> None:
    """Have the library's warnings (:data:`WARNING_LOGGERS`) printed as ``warning:`` lines."""
    handler = WarningLines()
    for name in WARNING_LOGGERS:
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.propagate = False  # a server's log configuration would print them twice


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


def report_unexpected(exc: Exception) -> int:
    """Report an exception nobody expected in one line, the traceback in a crash log; 70."""
    from kgdiff.cli.crash import crash_report, log_folders, one_line, write_crash_log

    log = write_crash_log(exc, sys.argv[1:])
    if log is not None:
        fail(escape(f"{one_line(exc)}; details in {log}"))
        return EXIT_UNEXPECTED
    folders = ", ".join(str(folder) for folder in log_folders())
    fail(escape(f"{one_line(exc)}; no crash log could be written in {folders}; the details:"))
    sys.stderr.write(crash_report(exc, sys.argv[1:]))
    return EXIT_UNEXPECTED


def run_guarded(run: Callable[[], object]) -> int:
    """Run the command line (a typer app, or what builds and runs one); map errors to one-line
    messages and exit codes.

    Usage errors are typer's own (exit code 2); anything unexpected is exit code 70 with its
    traceback in a crash log. Ctrl-C is the command's (:func:`resumable`), ``SystemExit``
    (how typer ends every command) the caller's.
    """
    try:
        run()
    except KgdiffError as exc:
        fail(str(exc))
        return exc.exit_code
    except OSError as exc:  # the store or an output path: disk full, no permission, missing dir
        fail(f"{exc}; check the path, its permissions and the free disk space")
        return EXIT_OS_ERROR
    except Exception as exc:  # a bug, or a library's failure: never a bare traceback
        return report_unexpected(exc)
    return 0


def parse_day(value: str, option: str) -> date:
    """A YYYY-MM-DD option value as a date; a usage error naming the option otherwise."""
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise UsageError(f"{option} {value!r} is not a date; write it as YYYY-MM-DD") from exc


def optional_day(value: str | None, option: str) -> date | None:
    """:func:`parse_day` of an option that may be left out (None: the command's default)."""
    return parse_day(value, option) if value is not None else None


def graph(store: Path | None) -> KnowledgeGraph:
    """The knowledge graph of ``--store`` (imported here: ingest workers load this module)."""
    from kgdiff.query.graph import KnowledgeGraph

    return KnowledgeGraph.open(store)


def print_notes(notes: list[str]) -> None:
    """An answer's notes, one plain line each (why nothing was found, where it stops)."""
    for note in notes:
        console.print(note, highlight=False, markup=False, soft_wrap=True)
