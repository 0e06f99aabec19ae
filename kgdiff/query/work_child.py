"""A process that runs heavy works for the REST service (started by
:mod:`kgdiff.query.work_processes`), one at a time, on a graph of its own.

It ends with the service (:func:`~kgdiff.children.die_with_parent`), lowers its own CPU
priority before DuckDB starts a thread (DuckDB's threads inherit it), and bounds DuckDB's
memory. Each work is a picklable callable taking the graph; what it returns goes back as it
is, a kgdiff error as that error (the service answers it as a problem), anything else as a
bug with its traceback.
"""

from __future__ import annotations

import os
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import duckdb

from kgdiff.children import die_with_parent
from kgdiff.errors import KgdiffError
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.jobs import JobOutOfMemoryError
from kgdiff.query.sql_errors import one_line
from kgdiff.query.work_limits import MEMORY_ENV, WorkLimits
from kgdiff.store.layout import StoreLayout


def serve(root: str, limits: WorkLimits, pipe: Connection) -> None:
    """Answer the works sent through ``pipe`` until the parent closes it."""
    die_with_parent()
    if limits.nice:
        os.nice(limits.nice)
    graph = KnowledgeGraph(StoreLayout(Path(root)), settings=limits.duckdb_settings())
    try:
        while True:
            try:
                work = pipe.recv()
            except (EOFError, OSError):
                return
            outcome = _outcome(work, graph)
            try:
                pipe.send(outcome)
            except Exception:  # an answer or an error that does not pickle: a bug
                pipe.send(("bug", traceback.format_exc()))
    finally:
        graph.close()


def _outcome(work: Any, graph: KnowledgeGraph) -> tuple[str, object]:
    """``("ok", value)``, ``("error", a kgdiff error)`` or ``("bug", a traceback)``."""
    try:
        return "ok", work(graph)
    except KgdiffError as exc:
        return "error", exc
    except duckdb.OutOfMemoryException as exc:  # the work is too large for its memory
        limit = graph.settings.get("memory_limit", "its")
        return "error", JobOutOfMemoryError(
            f"the work ran out of its {limit} of memory ({one_line(str(exc))}): give the "
            f"service's heavy works more ({MEMORY_ENV}, see docs/rest.md)"
        )
    except Exception:  # a bug: its traceback goes to the server's log
        return "bug", traceback.format_exc()
