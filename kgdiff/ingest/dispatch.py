"""Run parse tasks on a pool of worker processes, a bounded number at a time."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from kgdiff.errors import WorkerDiedError
from kgdiff.ingest.progress import Progress
from kgdiff.ingest.slots import ChunkSlots
from kgdiff.ingest.tally import Tally
from kgdiff.ingest.worker import Task, init_worker, run_task
from kgdiff.ingest.worker_context import worker_context
from kgdiff.ingest.xml_chunk_parse import XmlChunk
from kgdiff.readers.chunking import ChunkView, FileChunk
from kgdiff.readers.json_dump import Chunk
from kgdiff.store.staging import PartMeta


@contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """Parse workers that are always stopped, whatever ends the run.

    Not ``multiprocessing.Pool``: its ``terminate()`` can hang for good when its
    task-feeding thread starts sending a chunk (larger than a pipe buffer) just
    as the pool stops, which a reader error at the end of a stream can trigger.
    Shutting the executor down waits for the few chunks workers already hold
    (a second or two) and cancels the rest.
    """
    executor = ProcessPoolExecutor(workers, mp_context=worker_context(), initializer=init_worker)
    try:
        yield executor
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _result(future: Future[PartMeta]) -> PartMeta:
    try:
        return future.result()
    except BrokenProcessPool as exc:
        raise WorkerDiedError(
            "a parse worker died (killed, or out of memory?); finished chunks are kept: "
            "run the same command again to resume (fewer --workers or a smaller --chunk-mb "
            "if memory is short)"
        ) from exc


class TaskRunner:
    """Keeps at most ``in_flight`` tasks submitted; decompressed chunks go through slot files."""

    def __init__(self, pool: ProcessPoolExecutor, in_flight: int, slot_dir: Path) -> None:
        self.pool = pool
        self.in_flight = in_flight
        self.slot_dir = slot_dir
        self._slots: ChunkSlots | None = None
        self._pending: deque[tuple[Future[PartMeta], Path | None]] = deque()

    def _stage(self, chunk: Chunk | ChunkView) -> tuple[FileChunk, Path]:
        if self._slots is None:
            self._slots = ChunkSlots(self.slot_dir, self.in_flight)
        return self._slots.stage(chunk)

    def _submit(self, task: Task) -> None:
        slot = None
        payload = task.payload
        if isinstance(payload, Chunk | ChunkView):
            staged, slot = self._stage(payload)
            task = replace(task, payload=staged)
        elif isinstance(payload, XmlChunk) and isinstance(payload.where, ChunkView):
            staged, slot = self._stage(payload.where)
            task = replace(task, payload=replace(payload, where=staged))
        self._pending.append((self.pool.submit(run_task, task), slot))

    def _collect(self) -> PartMeta:
        future, slot = self._pending.popleft()
        meta = _result(future)
        if slot is not None and self._slots is not None:
            self._slots.release(slot)
        return meta

    def run(
        self, tasks: Iterator[Task], tally: Tally, progress: Progress, position: Callable[[], int]
    ) -> None:
        """Submit every task, adding each finished one to ``tally`` in order."""
        try:
            for task in tasks:
                self._submit(task)
                pending = self._pending
                while len(pending) >= self.in_flight or (pending and pending[0][0].done()):
                    tally.add(self._collect())
                    progress.update(position(), tally.entities, tally.statements)
            while self._pending:
                tally.add(self._collect())
                progress.update(position(), tally.entities, tally.statements)
        finally:
            if self._slots is not None:
                self._slots.close()
