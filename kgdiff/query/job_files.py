"""The files a service's jobs (:mod:`kgdiff.query.jobs`) leave in ``STORE/builds/jobs``:
each job's state (``<id>.json``, so that another worker process can tell a client polling it
how it stands), a heavy route's answer (``<id>.answer``), and their pruning; and the jobs of
a server that stopped, failed so that asking again runs them anew."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import msgspec

from kgdiff.store.liveness import ProcessMark, is_running

FILES_KEPT = 1000
"""Job files kept in the folder at most (the oldest finished jobs' removed first)."""
FILE_SECONDS = 3600.0
"""How long a finished job's file is kept (a client polling it reads it within seconds)."""
ANSWER_SUFFIX = ".answer"
"""The file beside a job's state that holds its answer (a heavy route's JSON)."""
ANSWER_FILES = 512 << 20
"""Bytes of answer files kept in the folder at most (the oldest removed first)."""


class JobState(msgspec.Struct):
    """What a client polling a job is told: its status, the link to its result, or why it
    failed (``error``: the error's class name and one-line message)."""

    id: str
    status: str
    result: str
    created_at: float
    error_kind: str | None = None
    error: str | None = None
    owner: ProcessMark | None = None
    """The server process that runs the job (None in files of an earlier kgdiff)."""

    @property
    def unfinished(self) -> bool:
        """Whether the job is queued or running (by its last saved state)."""
        return self.status in ("queued", "running")


ORPHANED_KIND = "ServerStopped"


def orphaned_jobs(folder: Path) -> list[JobState]:
    """The jobs in ``folder`` whose files say queued or running although the server process
    that ran them has stopped (killed, or the machine restarted): nobody will finish them."""
    orphans = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            state = msgspec.json.decode(path.read_bytes(), type=JobState)
        except (OSError, msgspec.DecodeError):
            continue  # a file being replaced, or not a job's: not for this check
        if orphaned(state):
            orphans.append(state)
    return orphans


def fail_orphaned_jobs(folder: Path) -> list[JobState]:
    """Mark every orphaned job of ``folder`` failed, saying why (asking again runs it anew);
    return them as they are now."""
    failed = []
    for state in orphaned_jobs(folder):
        fail_orphan(folder, state)
        failed.append(state)
    return failed


def orphaned(state: JobState) -> bool:
    return state.unfinished and (state.owner is None or not is_running(state.owner))


def fail_orphan(folder: Path, state: JobState) -> None:
    """Mark the orphaned job ``state`` failed, saying why, in its file too."""
    pid = state.owner.pid if state.owner is not None else "unknown"
    state.status, state.error_kind = "failed", ORPHANED_KIND
    state.error = (
        f"the server process that ran this job (pid {pid}) stopped before it ended;"
        " ask again to run it anew"
    )
    write_state(folder, state)


def prune_job_files(
    folder: Path, keep_seconds: float = FILE_SECONDS, keep_files: int = FILES_KEPT
) -> int:
    """Remove from ``folder`` the files of finished jobs older than ``keep_seconds`` or
    past the ``keep_files`` newest, and writers' temporary files older than
    ``keep_seconds`` (left by a killed server); an unfinished job's file is kept. Return
    how many job files were removed."""
    now, files, answers = time.time(), [], []
    for path in folder.iterdir() if folder.is_dir() else []:
        try:
            age = now - path.stat().st_mtime
        except FileNotFoundError:
            continue
        if path.name.startswith("."):
            if age > keep_seconds:
                path.unlink(missing_ok=True)
        elif path.suffix == ".json":
            files.append((age, path))
        elif path.suffix == ANSWER_SUFFIX:
            answers.append(path)
    removed = 0
    for rank, (age, path) in enumerate(sorted(files)):
        if (rank >= keep_files or age > keep_seconds) and not _unfinished_file(path):
            path.unlink(missing_ok=True)
            removed += 1
    _prune_answers(answers)
    return removed


def _prune_answers(answers: list[Path], keep_bytes: int = ANSWER_FILES) -> None:
    """Remove the answers whose job's state is gone, and the oldest past ``keep_bytes``."""
    sized = []
    for answer in answers:
        try:
            stat = answer.stat()
        except FileNotFoundError:
            continue
        if answer.with_suffix(".json").exists():
            sized.append((stat.st_mtime_ns, stat.st_size, answer))
        else:
            answer.unlink(missing_ok=True)
    total = 0
    for _, size, answer in sorted(sized, reverse=True):
        total += size
        if total > keep_bytes:
            answer.unlink(missing_ok=True)


def _unfinished_file(path: Path) -> bool:
    """Whether the job file ``path`` says queued or running (unreadable: it says neither)."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=JobState).unfinished
    except (OSError, msgspec.DecodeError):
        return False


def write_answer(folder: Path, ident: str, answer: bytes) -> None:
    """Write a job's answer into ``folder`` atomically, before its state says done."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{ident}{ANSWER_SUFFIX}"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    tmp.write_bytes(answer)
    tmp.replace(path)


def write_state(folder: Path, state: JobState) -> None:
    """Write a job's state into ``folder`` atomically (readers never see half a file)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{state.id}.json"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    tmp.write_bytes(msgspec.json.encode(state))
    tmp.replace(path)
