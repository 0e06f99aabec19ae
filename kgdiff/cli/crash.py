"""The crash log of an exception nobody expected (a bug, a library's error).

The command line reports such an exception in one line, ``error: <type>: <message>;
details in <log file>`` (:func:`kgdiff.cli.common.run_guarded`); the log holds the command,
the versions and the whole traceback, for a bug report.
"""

from __future__ import annotations

import os
import shlex
import sys
import tempfile
import traceback
from datetime import datetime
from pathlib import Path

import kgdiff

MAX_MESSAGE = 300


def _xdg_folder(variable: str, default: str) -> Path:
    """``$variable``, or ``~/default`` when it is unset or not absolute (as the XDG spec says)."""
    value = Path(os.environ.get(variable, ""))
    if value.is_absolute():
        return value
    try:
        return Path.home() / default
    except RuntimeError:  # no home folder to be found: the temporary folder's turn comes
        return Path(tempfile.gettempdir()) / default


def log_folders() -> list[Path]:
    """Where a crash log may go, best first (the first one writable is taken)."""
    return [
        _xdg_folder("XDG_STATE_HOME", ".local/state") / "kgdiff",
        _xdg_folder("XDG_CACHE_HOME", ".cache") / "kgdiff",
        Path(tempfile.gettempdir()) / f"kgdiff-{os.getuid()}",
    ]


def crash_report(exc: BaseException, args: list[str]) -> str:
    """The text of a crash log: when, which command, which versions, the whole traceback."""
    header = [
        f"time: {datetime.now().astimezone().isoformat(timespec='seconds')}",
        f"command: kgdiff {shlex.join(args)}",
        f"kgdiff {kgdiff.__version__} from {Path(kgdiff.__file__).parent}",
        f"python {sys.version.split()[0]} ({sys.executable}), {sys.platform}",
        "",
    ]
    return "\n".join(header) + "".join(traceback.format_exception(exc))


def write_crash_log(exc: BaseException, args: list[str]) -> Path | None:
    """Write the crash log into the first writable log folder; None when none is."""
    name = f"crash-{datetime.now():%Y%m%d-%H%M%S}-{os.getpid()}.log"
    text = crash_report(exc, args)
    for folder in log_folders():
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        except OSError:
            continue
        return folder / name
    return None


def one_line(exc: BaseException) -> str:
    """``<type>: <message>`` on one line (DuckDB's messages go on with the query's text)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    message = lines[0] if lines else ""
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 1] + "…"
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
