"""The multiprocessing context of the parse workers, and starting its server early.

forkserver: workers never inherit the decompression threads or DuckDB state. The server
imports the worker module once; each worker is forked from it ready to parse.
"""

from __future__ import annotations

import multiprocessing
from contextlib import suppress
from multiprocessing import forkserver
from multiprocessing.context import ForkServerContext

WORKER_MODULE = "kgdiff.ingest.worker"


def worker_context() -> ForkServerContext:
    """The forkserver context that preloads the worker module."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([WORKER_MODULE])
    return context


def start_worker_server() -> None:
    """Start the server now, so that its imports overlap the caller's (~0.2 s per run).

    Harmless when no worker is ever needed: the server exits with this process. If it cannot
    start (no temporary folder for its socket, say), the pool will try again and report why.
    """
    worker_context()
    with suppress(OSError):
        forkserver.ensure_running()
