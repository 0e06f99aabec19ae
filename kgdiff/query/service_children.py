"""The forkserver the REST service's child processes are forked from: the ``POST /v1/sql``
query processes (:mod:`kgdiff.query.safe_sql`) and the heavy requests' work processes
(:mod:`kgdiff.query.work_processes`).

One server per process (multiprocessing's rule), which preloads both kinds' modules
(DuckDB, polars, the graph), so that a child starts in milliseconds rather than importing
them for seconds. Whichever starts the server first sets what it preloads, so both kinds ask
for it here, with the same list.
"""

from __future__ import annotations

import multiprocessing
from functools import cache
from multiprocessing import forkserver
from multiprocessing.context import ForkServerContext

PRELOADED = ("kgdiff.query.sql_child", "kgdiff.query.work_child")


@cache
def service_forkserver() -> ForkServerContext:
    """The forkserver context, its server preloading :data:`PRELOADED`.

    Every child also imports the program's main script as ``__mp_main__`` (multiprocessing's
    rule; Python 3.11's forkserver ignores ``"__main__"`` in its preload list), so a service
    should start from a small script or ``python -m package`` (a ``__main__`` module is
    never imported again)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOADED))
    return context


def start_service_forkserver() -> None:
    """Start the server now (a service's start-up) rather than at its first child."""
    service_forkserver()
    forkserver.ensure_running()
