"""The command line run inside the test's process, as ``python -m kgdiff`` would run it.

A new Python costs ~0.4 CPU-s to start and import kgdiff's libraries; the suite runs the
command line hundreds of times. Inside the test's process a command still goes through the
same entry point (:func:`kgdiff.cli.main`: its arguments parsed by typer, its errors mapped to
one-line messages and exit codes), with the same environment, working folder, stdout and
stderr, and Python's warnings printed on that stderr as a new process prints them (under its
default filters, not pytest's); its help and usage lines call it ``kgdiff``, as the installed
script's do, where ``python -m kgdiff`` names itself so. What the command changes of the
process (the environment, the working folder, ``sys.argv``, the library's warning loggers) is
put back afterwards, and kgdiff's consoles are built afresh in the command's environment for the
run (rich reads COLUMNS and FORCE_COLOR as a console is built).
"""

import io
import logging
import os
import re
import subprocess
import sys
import types
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from rich.console import Console

from kgdiff.cli import common, main


@contextmanager
def _fresh_consoles() -> Iterator[None]:
    """kgdiff's consoles as a new process builds them at import, from the command's
    environment (rich fixes a console's width and colours when COLUMNS or FORCE_COLOR are set
    as it is built, so the consoles this process built from its own environment may differ);
    put back afterwards. Run inside :func:`_process_state`."""
    consoles = (common.console, common.err_console)
    kept = [dict(console.__dict__) for console in consoles]
    for console in consoles:
        console.__dict__.update(Console(stderr=console.stderr).__dict__)
    try:
        yield
    finally:
        for console, state in zip(consoles, kept, strict=True):
            console.__dict__.clear()
            console.__dict__.update(state)


@contextmanager
def _process_state(env: Mapping[str, str], cwd: Path, args: list[str]) -> Iterator[None]:
    """The environment, working folder and ``sys.argv`` of a new process, and the warning
    loggers' handlers as they were, restored afterwards."""
    environ, argv, before, main_module = (
        dict(os.environ),
        sys.argv,
        Path.cwd(),
        sys.modules["__main__"],
    )
    loggers = [logging.getLogger(name) for name in common.WARNING_LOGGERS]
    kept = [(logger.handlers[:], logger.propagate) for logger in loggers]
    os.environ.clear()
    os.environ.update(env)
    sys.argv = ["kgdiff", *args]
    # click names the program after __main__'s package ("python -m pytest.kgdiff" under
    # python -m pytest); the installed script's __main__ has none
    sys.modules["__main__"] = types.ModuleType("__main__")
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(before)
        sys.argv = argv
        sys.modules["__main__"] = main_module
        os.environ.clear()
        os.environ.update(environ)
        for logger, (handlers, propagate) in zip(loggers, kept, strict=True):
            logger.handlers[:] = handlers
            logger.propagate = propagate


def _set_by_kgdiff(entry: tuple[Any, ...]) -> bool:
    """Whether a filter of ``warnings.filters`` is one kgdiff set for its own modules."""
    return _pattern(entry[3]).startswith("kgdiff")


def _pattern(found: re.Pattern[str] | str | None) -> str:
    """The text of a filter's message or module (a compiled pattern, or as given)."""
    if isinstance(found, re.Pattern):
        return found.pattern
    return found or ""


@contextmanager
def _warnings_printed(stderr: io.StringIO) -> Iterator[None]:
    """Python's warnings as a new process shows them: under the interpreter's default
    filters and those kgdiff's modules set as they are imported (before pytest's), each
    printed on ``stderr``."""
    own: list[Any] = [entry for entry in warnings.filters if _set_by_kgdiff(entry)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.simplefilter("default")  # each once where it is raised; those below never
        for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning):
            warnings.simplefilter("ignore", category)
        warnings.simplefilter("ignore", ResourceWarning)
        for action, message, kind, module, lineno in reversed(own):  # each goes first
            warnings.filterwarnings(action, _pattern(message), kind, _pattern(module), lineno)
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
) -> subprocess.CompletedProcess[str]:
    """``kgdiff ARGS`` run here, in ``env`` and ``cwd``."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with (
        _process_state(env, cwd, args),
        _fresh_consoles(),
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
