"""Tools of the chaos test (tests/test_chaos.py): commands started in sessions of their own,
killed with SIGKILL at a random moment, and what they leave behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from tests.paths import ROOT

PROC = Path("/proc")


def session_of(pid: int) -> int | None:
    """The session id of process ``pid`` (None once it is gone)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    return int(fields[3])  # field 6: session


def processes_in(sessions: set[int]) -> list[int]:
    """Every process (not a zombie) of the sessions ``sessions``."""
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[3]) in sessions:
            found.append(int(entry.name))
    return found


@dataclass
class Run:
    """A kgdiff command started in a session of its own (so that every process it starts,
    however deep, is found by its session id even after it was orphaned)."""

    args: Sequence[str]
    process: subprocess.Popen[bytes]
    started: float = field(default_factory=time.monotonic)

    @property
    def session(self) -> int:
        return self.process.pid  # start_new_session: the leader's pid is the session id


def start(args: Sequence[str], log: Path, env: dict[str, str] | None = None) -> Run:
    """``python -m kgdiff ARGS`` in a new session, its output appended to ``log``."""
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "kgdiff", *args],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "COLUMNS": "200", **(env or {})},
        )
    return Run(args, process)


def kill(run: Run) -> None:
    """SIGKILL the command's main process only, as a crash or an OOM killer would; its
    children are on their own."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(run.process.pid, signal.SIGKILL)
    run.process.wait()


def leftovers(sessions: set[int], within: float) -> list[str]:
    """The processes of ``sessions`` still alive after ``within`` seconds (their command
    lines), waiting for them to go until then."""
    deadline = time.monotonic() + within
    while True:
        alive = processes_in(sessions)
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    return [_command_line(pid) for pid in alive]


def _command_line(pid: int) -> str:
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return f"{pid} (gone)"
    return f"{pid}: " + raw.replace(b"\0", b" ").decode(errors="replace").strip()


def store_digest(store: Path) -> dict[str, object]:
    """What the store holds, independent of when and how fast it was made: the snapshots
    (name, date, coverage, counts) and, per table and snapshot, its rows' count and an
    order-free hash of its rows."""
    from kgdiff.store.catalog_copy import catalog_copy
    from kgdiff.store.layout import TABLES, StoreLayout
    from kgdiff.store.store_root import set_store_root

    layout = StoreLayout.resolve(store)
    digest: dict[str, object] = {}
    with duckdb.connect(str(catalog_copy(layout.catalog)), read_only=True) as connection:
        set_store_root(connection, layout)
        digest["snapshots"] = connection.execute(
            "select name, date, coverage from snapshots order by name"
        ).fetchall()
        for table in TABLES:
            digest[table] = connection.execute(
                f"select snapshot, count(*), sum(hash(t) % 1000000007) from {table} t"
                " group by 1 order by 1"
            ).fetchall()
    return digest
