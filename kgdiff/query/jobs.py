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
FILES_KEPT = 1000
"""Job files kept in the folder at most (the oldest finished jobs' removed first)."""
FILE_SECONDS = 3600.0
"""How long a finished job's file is kept (a client polling it reads it within seconds)."""
PRUNE_SECONDS = 60.0
"""How often at most a submission prunes the folder of finished jobs' files."""
DEFAULT_WAITING = 32
"""Jobs queued or running at once, at most (more are refused: :class:`JobsBusyError`)."""


class JobsBusyError(KgdiffError):
    """As many jobs are queued or running as the service takes: ask again later."""


class JobFailedError(KgdiffError):
    """A job ended with an internal error (the server's log has its traceback)."""


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
    """The jobs of one process, their states also kept in ``folder``; at most
    ``max_waiting`` of them queued or running at once."""

    def __init__(self, folder: Path, max_waiting: int = DEFAULT_WAITING) -> None:
        self.folder, self.max_waiting = folder, max_waiting
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgdiff-job")
        self._pruned = time.monotonic()

    def submit(self, key: str, result: str, work: Callable[[], object]) -> Job:
        """The job computing ``key``: the running or finished one, or a new one running
        ``work`` (a failed job is tried again). ``result`` is where its result is read: a
        link made from the key, never a client's text (any client may read a job). A
        :class:`JobsBusyError` when ``max_waiting`` jobs are queued or running already."""
        ident = job_id(key)
        with self._lock:
            job = self._jobs.get(ident)
            if job is not None and job.state.status != "failed":
                return job
            waiting = sum(not other.finished.is_set() for other in self._jobs.values())
            if waiting >= self.max_waiting:
                raise JobsBusyError(
                    f"this service is making {waiting} results already, as many as it takes"
                    " at once; ask again in a minute"
                )
            job = Job(JobState(ident, "queued", result, time.time(), owner=this_process()))
            self._jobs[ident] = job
            self._forget_old()
        self._save(job.state)
        self._pool.submit(self._run, job, work)
        self._prune_now_and_then()
        return job

    def forget_finished(self, key: str) -> None:
        """Forget the finished job computing ``key``, whose result is gone (a build evicted):
        the next submission runs it again."""
        with self._lock:
            job = self._jobs.get(job_id(key))
            if job is not None and job.finished.is_set():
                del self._jobs[job.state.id]

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
            state = msgspec.json.decode(path.read_bytes(), type=JobState)
        except (OSError, msgspec.DecodeError):
            return None
        if _orphaned(state):  # its server stopped (another worker, killed): nobody ends it
            _fail_orphan(self.folder, state)
        return state

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
        except Exception:  # a bug: logged, and told as such (never a failure without why)
            LOG.exception("job %s failed", job.state.id)
            job.failure = JobFailedError(
                "the job ended with an internal error; see the server's log"
            )
            job.state.status, job.state.error_kind = "failed", "InternalError"
            job.state.error = str(job.failure)
        finally:
            self._save(job.state)
            job.finished.set()

    def _save(self, state: JobState) -> None:
        _write_state(self.folder, state)

    def _forget_old(self) -> None:
        finished = [i for i, job in self._jobs.items() if job.finished.is_set()]
        for ident in finished[: max(0, len(self._jobs) - KEPT)]:
            del self._jobs[ident]

    def _prune_now_and_then(self) -> None:
        """Prune the folder (:func:`prune_job_files`) unless it was pruned lately."""
        if time.monotonic() - self._pruned >= PRUNE_SECONDS:
            self._pruned = time.monotonic()
            prune_job_files(self.folder)

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
        if _orphaned(state):
            orphans.append(state)
    return orphans


def fail_orphaned_jobs(folder: Path) -> list[JobState]:
    """Mark every orphaned job of ``folder`` failed, saying why (asking again runs it anew);
    return them as they are now."""
    failed = []
    for state in orphaned_jobs(folder):
        _fail_orphan(folder, state)
        failed.append(state)
    return failed


def _orphaned(state: JobState) -> bool:
    return state.unfinished and (state.owner is None or not is_running(state.owner))


def _fail_orphan(folder: Path, state: JobState) -> None:
    """Mark the orphaned job ``state`` failed, saying why, in its file too."""
    pid = state.owner.pid if state.owner is not None else "unknown"
    state.status, state.error_kind = "failed", ORPHANED_KIND
    state.error = (
        f"the server process that ran this job (pid {pid}) stopped before it ended;"
        " ask again to run it anew"
    )
    _write_state(folder, state)


def prune_job_files(
    folder: Path, keep_seconds: float = FILE_SECONDS, keep_files: int = FILES_KEPT
) -> int:
    """Remove from ``folder`` the files of finished jobs older than ``keep_seconds`` or
    past the ``keep_files`` newest, and writers' temporary files older than
    ``keep_seconds`` (left by a killed server); an unfinished job's file is kept. Return
    how many job files were removed."""
    now, files = time.time(), []
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
    removed = 0
    for rank, (age, path) in enumerate(sorted(files)):
        if (rank >= keep_files or age > keep_seconds) and not _unfinished_file(path):
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def _unfinished_file(path: Path) -> bool:
    """Whether the job file ``path`` says queued or running (unreadable: it says neither)."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=JobState).unfinished
    except (OSError, msgspec.DecodeError):
        return False


def _write_state(folder: Path, state: JobState) -> None:
    """Write a job's state into ``folder`` atomically (readers never see half a file)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{state.id}.json"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    tmp.write_bytes(msgspec.json.encode(state))
    tmp.replace(path)
