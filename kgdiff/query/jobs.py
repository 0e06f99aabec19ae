"""Work too long for one request, done once in the background and shared by whoever asks.

A job is named by what it computes (its key): asking again for the same work while it runs
joins the running job instead of starting another. Jobs run one at a time in a thread (a
classification already uses every core). Each job's state is also written to
``STORE/builds/jobs/<id>.json``, so that another worker process of the same service can tell
a client polling it how it stands.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from kgdiff.errors import KgdiffError
from kgdiff.store.liveness import ProcessMark, is_running, this_process

LOG = logging.getLogger(__name__)
KEPT = 1000
"""Finished jobs remembered in memory (the oldest are forgotten first)."""


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


@dataclass
class Job:
    """A piece of work and its state (``queued``, ``running``, ``done`` or ``failed``)."""

    state: JobState
    failure: KgdiffError | None = None
    finished: threading.Event = field(default_factory=threading.Event)


def job_id(key: str) -> str:
    """The id of the job computing ``key`` (the same in every process)."""
    return hashlib.sha256(key.encode()).hexdigest()[:20]


class Jobs:
    """The jobs of one process, their states also kept in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgdiff-job")

    def submit(self, key: str, result: str, work: Callable[[], object]) -> Job:
        """The job computing ``key``: the running or finished one, or a new one running
        ``work`` (a failed job is tried again). ``result`` is where its result is read."""
        ident = job_id(key)
        with self._lock:
            job = self._jobs.get(ident)
            if job is not None and job.state.status != "failed":
                return job
            job = Job(JobState(ident, "queued", result, time.time(), owner=this_process()))
            self._jobs[ident] = job
            self._forget_old()
        self._save(job.state)
        self._pool.submit(self._run, job, work)
        return job

    def state(self, ident: str) -> JobState | None:
        """How job ``ident`` stands (asked of this process, or of the one running it)."""
        with self._lock:
            job = self._jobs.get(ident)
        if job is not None:
            return job.state
        path = self.folder / f"{ident}.json"
        if len(ident) != 20 or not ident.isalnum() or not path.is_file():
            return None
        try:
            return msgspec.json.decode(path.read_bytes(), type=JobState)
        except (OSError, msgspec.DecodeError):
            return None

    def _run(self, job: Job, work: Callable[[], object]) -> None:
        job.state.status = "running"
        self._save(job.state)
        try:
            work()
            job.state.status = "done"
        except KgdiffError as exc:  # a usage or store error: the client is told why
            job.failure = exc
            job.state.status, job.state.error_kind = "failed", type(exc).__name__
            job.state.error = str(exc)
        except Exception:  # a bug: logged, and told as such
            LOG.exception("job %s failed", job.state.id)
            job.state.status, job.state.error_kind = "failed", "InternalError"
            job.state.error = "the job ended with an internal error; see the server's log"
        finally:
            self._save(job.state)
            job.finished.set()

    def _save(self, state: JobState) -> None:
        _write_state(self.folder, state)

    def _forget_old(self) -> None:
        finished = [i for i, job in self._jobs.items() if job.finished.is_set()]
        for ident in finished[: max(0, len(self._jobs) - KEPT)]:
            del self._jobs[ident]

    def close(self) -> None:
        """Stop taking jobs; the running one finishes."""
        self._pool.shutdown(wait=False, cancel_futures=True)


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
        if state.unfinished and (state.owner is None or not is_running(state.owner)):
            orphans.append(state)
    return orphans


def fail_orphaned_jobs(folder: Path) -> list[JobState]:
    """Mark every orphaned job of ``folder`` failed, saying why (asking again runs it anew);
    return them as they are now."""
    failed = []
    for state in orphaned_jobs(folder):
        pid = state.owner.pid if state.owner is not None else "unknown"
        state.status, state.error_kind = "failed", ORPHANED_KIND
        state.error = (
            f"the server process that ran this job (pid {pid}) stopped before it ended;"
            " ask again to run it anew"
        )
        _write_state(folder, state)
        failed.append(state)
    return failed


def _write_state(folder: Path, state: JobState) -> None:
    """Write a job's state into ``folder`` atomically (readers never see half a file)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{state.id}.json"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    tmp.write_bytes(msgspec.json.encode(state))
    tmp.replace(path)
