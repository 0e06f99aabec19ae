"""The process that parse workers are forked from, started as early as a command likes.

Workers come from a ``forkserver``: a fresh interpreter that imports the worker code
(pyarrow, the native row builder: ~0.5 s) once, then forks one worker per process the
pool asks for, so workers never inherit the main process's decompression threads or
DuckDB state. Its imports run on the other core, so a command that will ingest a dump
calls :func:`start_worker_server` first thing and the server is ready by the time the
main process has imported what it needs. This module imports nothing heavy itself.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing import forkserver
from multiprocessing.context import BaseContext

WORKER_MODULES = ["kgdiff.ingest.worker"]
"""What the server imports before it forks workers."""


def worker_context() -> BaseContext:
    """The multiprocessing context of the parse workers (forkserver, worker code preloaded)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(WORKER_MODULES)
    return context


def start_worker_server() -> None:
    """Start the worker server now, in the background (a no-op when it already runs)."""
    worker_context()
    forkserver.ensure_running()
