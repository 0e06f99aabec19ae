"""Work too long for one request, done once in the background and shared by whoever asks.

A job is named by what it computes (its key): asking again for the same work while it runs
joins the running job instead of starting another. At most ``workers`` jobs run at once,
each in a thread of their own (the REST service's threads hand the work to a process each:
:mod:`kgdiff.query.work_processes`), and at most ``queue`` more wait: one more is refused
(:class:`JobsBusyError`), so that a crowd of heavy requests neither queues without end nor
takes the threads the point lookups answer from. Each job's state is also written to
``STORE/builds/jobs/<id>.json``, and the answer of a job whose work returned one (the JSON
of a heavy route) to ``<id>.answer``, so that another worker process of the same service can
tell a client polling it how it stands and answer it.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from kgdiff.errors import KgdiffError
from kgdiff.query.job_files import (
    ANSWER_SUFFIX,
    JobState,
    fail_orphan,
    fail_orphaned_jobs,
    orphaned,
    orphaned_jobs,
    prune_job_files,
    write_answer,
    write_state,
)
from kgdiff.store.liveness import this_process

__all__ = [
    "Job",
    "JobFailedError",
    "JobState",
    "Jobs",
    "JobsBusyError",
    "Pending",
    "fail_orphaned_jobs",
    "job_id",
    "orphaned_jobs",
    "prune_job_files",
]
LOG = logging.getLogger(__name__)
KEPT = 1000
"""Finished jobs remembered in memory (the oldest are forgotten first)."""
PRUNE_SECONDS = 60.0
"""How often at most a submission prunes the folder of finished jobs' files."""
DEFAULT_WORKERS = 1
"""Jobs running at once (``kgdiff serve --heavy-workers``)."""
DEFAULT_QUEUE = 8
"""Jobs waiting for a free worker, at most (``kgdiff serve --heavy-queue``); more are refused
(:class:`JobsBusyError`)."""
ANSWER_MEMORY = 64 << 20
"""Bytes of the latest jobs' answers a process keeps in memory (older: read from files)."""


class JobsBusyError(KgdiffError):
    """As many jobs are queued or running as the service takes: ask again later."""


class JobFailedError(KgdiffError):
    """A job ended with an internal error (the server's log has its traceback)."""


class JobOutOfMemoryError(JobFailedError):
    """A job's DuckDB ran out of the memory it may take (which the service's settings set)."""


@dataclass
class Job:
    """A piece of work and its state (``queued``, ``running``, ``done`` or ``failed``);
    ``done`` completes when it finishes (an asyncio route awaits it without holding a
    thread), ``answer`` is what its work returned when that was bytes."""

    state: JobState
    failure: KgdiffError | None = None
    finished: threading.Event = field(default_factory=threading.Event)
    done: Future[None] = field(default_factory=Future)
    answer: bytes | None = None


@dataclass(frozen=True)
class Pending:
    """A job a request answers from once it is done: it may wait ``wait_seconds`` for it
    (0: a job too large to wait for), then it answers 202 with the job to poll."""

    job: Job
    wait_seconds: float


def job_id(key: str) -> str:
    """The id of the job computing ``key`` (the same in every process)."""
    return hashlib.sha256(key.encode()).hexdigest()[:20]


class Jobs:
    """The jobs of one process, their states also kept in ``folder``: at most ``workers``
    of them running at once and ``queue`` more waiting."""

    def __init__(
        self, folder: Path, workers: int = DEFAULT_WORKERS, queue: int = DEFAULT_QUEUE
    ) -> None:
        self.folder, self.workers = folder, max(1, workers)
        self.max_waiting = self.workers + max(0, queue)
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="kgdiff-job")
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
                    f"this service is making {waiting} heavy answers already ({self.workers}"
                    f" at once, {self.max_waiting - self.workers} waiting), as many as it takes"
                    " (kgdiff serve --heavy-workers, --heavy-queue); ask again after Retry-After"
                )
            job = Job(JobState(ident, "queued", result, time.time(), owner=this_process()))
            self._jobs[ident] = job
            self._forget_old()
        self._save(job.state)
        self._pool.submit(self._run, job, work)
        return job

    def answer(self, key: str) -> bytes | None:
        """The answer of the job computing ``key`` once it is done (this process's, or
        another worker's from its file); None while there is none."""
        ident = job_id(key)
        with self._lock:
            job = self._jobs.get(ident)
        if job is not None and job.finished.is_set() and job.answer is not None:
            return job.answer
        state = self.state(ident)
        if state is None or state.status != "done":
            return None
        try:
            return (self.folder / f"{ident}{ANSWER_SUFFIX}").read_bytes()
        except OSError:  # pruned meanwhile, or a job without an answer
            return None

    def busy(self) -> int:
        """Jobs queued or running now."""
        with self._lock:
            return sum(not job.finished.is_set() for job in self._jobs.values())

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
        if orphaned(state):  # its server stopped (another worker, killed): nobody ends it
            fail_orphan(self.folder, state)
        return state

    def _run(self, job: Job, work: Callable[[], object]) -> None:
        self._prune_now_and_then()  # here, not where a request submits it: it reads files
        job.state.status = "running"
        self._save(job.state)
        try:
            value = work()
            if isinstance(value, bytes):
                write_answer(self.folder, job.state.id, value)
                job.answer = value
                self._keep_answers_within(ANSWER_MEMORY)
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
            job.done.set_result(None)

    def _save(self, state: JobState) -> None:
        write_state(self.folder, state)

    def _keep_answers_within(self, budget: int) -> None:
        """Drop from memory the answers of the oldest jobs past ``budget`` bytes (their
        files keep them)."""
        with self._lock:
            kept = 0
            for job in reversed(list(self._jobs.values())):
                if job.answer is not None:
                    kept += len(job.answer)
                    if kept > budget:
                        job.answer = None

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
        """Stop taking jobs; the running ones finish."""
        self._pool.shutdown(wait=False, cancel_futures=True)
