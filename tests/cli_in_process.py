"""The command line run inside the test's process, as ``python -m kgdiff`` would run it.

A new Python costs ~0.4 CPU-s to start and import kgdiff's libraries; the suite runs the
command line hundreds of times. Inside the test's process a command still goes through the
same entry point (:func:`kgdiff.cli.main`: its arguments parsed by typer, its errors mapped to
one-line messages and exit codes), with the same environment, working folder, stdout and
stderr, and Python's warnings printed on that stderr as a new process prints them (under its
default filters, not pytest's); its help and usage lines call it ``kgdiff``, as the installed
script's do, where ``python -m kgdiff`` names itself so. What the command changes of the
process (the environment, the working folder, ``sys.argv``, the library's warning loggers) is
put back afterwards. Where the process could not look like a fresh one (a console whose width
or colours were fixed before), the caller runs a real process instead (None).
"""

import io
import logging
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

from kgdiff.cli import common, main


def _fresh_consoles() -> bool:
    """Whether kgdiff's consoles take their width and colours from the environment at each
    write, as in a new process (rich fixes them when COLUMNS or FORCE_COLOR were set at
    import)."""
    consoles = (common.console, common.err_console)
    return all(c._width is None and c._force_terminal is None for c in consoles)


@contextmanager
def _process_state(env: Mapping[str, str], cwd: Path, args: list[str]) -> Iterator[None]:
    """The environment, working folder and ``sys.argv`` of a new process, and the warning
    loggers' handlers as they were, restored afterwards."""
    environ, argv, before = dict(os.environ), sys.argv, Path.cwd()
    loggers = [logging.getLogger(name) for name in common.WARNING_LOGGERS]
    kept = [(logger.handlers[:], logger.propagate) for logger in loggers]
    os.environ.clear()
    os.environ.update(env)
    sys.argv = ["kgdiff", *args]
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(before)
        sys.argv = argv
        os.environ.clear()
        os.environ.update(environ)
        for logger, (handlers, propagate) in zip(loggers, kept, strict=True):
            logger.handlers[:] = handlers
            logger.propagate = propagate


@contextmanager
def _warnings_printed(stderr: io.StringIO) -> Iterator[None]:
    """Python's warnings as a new process shows them: under the interpreter's default
    filters, each printed on ``stderr``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.simplefilter("default")  # each once where it is raised; those below never
        for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning):
            warnings.simplefilter("ignore", category)
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            yield
        finally:
            for found in caught:
                text = warnings.formatwarning(
                    found.message, found.category, found.filename, found.lineno, found.line
                )
                stderr.write(text)


def _status(code: object, stderr: io.StringIO) -> int:
    """The exit status of ``SystemExit(code)`` (a message is printed to stderr, status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=stderr)
    return 1


def run_in_process(
    args: list[str], env: Mapping[str, str], cwd: Path
) -> subprocess.CompletedProcess[str] | None:
    """``kgdiff ARGS`` run here, in ``env`` and ``cwd``; None when it must run in a process
    of its own."""
    if not _fresh_consoles():
        return None
    stdout, stderr = io.StringIO(), io.StringIO()
    with (
        _process_state(env, cwd, args),
        redirect_stdout(stdout),
        redirect_stderr(stderr),
        _warnings_printed(stderr),
    ):
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = _status(exc.code, stderr)
    return subprocess.CompletedProcess(
        ["kgdiff", *args], code, stdout.getvalue(), stderr.getvalue()
    )
