"""``kgdiff serve``: the REST service (the ``api`` package) under uvicorn.

kgdiff itself never imports ``api``: uvicorn loads it by its import string, as the factory
``api.app:create_app``, in each worker process; the store and the options travel in the
environment (:mod:`api.settings` reads them).
"""

from __future__ import annotations

import os
import socket
import threading
from typing import Annotated

import duckdb
import typer

from kgdiff.cli.common import StoreOption, console
from kgdiff.errors import StoreError, UsageError
from kgdiff.query.jobs import DEFAULT_QUEUE, DEFAULT_WORKERS
from kgdiff.store.layout import StoreLayout

APP = "api.app:create_app"


def serve_command(
    store: StoreOption = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option("--workers", help="Worker processes.")] = 1,
    enable_sql: Annotated[
        bool, typer.Option("--enable-sql", help="Answer POST /v1/sql (read-only SELECTs).")
    ] = False,
    sql_timeout: Annotated[
        float, typer.Option("--sql-timeout", min=0.1, help="Seconds a POST /v1/sql query may run.")
    ] = 10.0,
    sql_max_rows: Annotated[
        int, typer.Option("--sql-max-rows", min=0, help="Rows a POST /v1/sql answer holds at most.")
    ] = 10_000,
    sql_concurrency: Annotated[
        int,
        typer.Option(
            "--sql-concurrency",
            min=1,
            help="POST /v1/sql queries each worker runs at once (more get 429).",
        ),
    ] = 2,
    max_builds: Annotated[
        int,
        typer.Option(
            "--max-builds",
            min=1,
            help="Classification builds made because of requests that the store keeps; the"
            " least recently used beyond these are removed (builds the command line made are"
            " never removed).",
        ),
    ] = 32,
    max_body: Annotated[
        int,
        typer.Option(
            "--max-body", min=1, help="Bytes a request's body may hold (more: 413, unread)."
        ),
    ] = 64 * 1024,
    max_url: Annotated[
        int,
        typer.Option(
            "--max-url", min=64, help="Bytes a request's path and query string may hold (414)."
        ),
    ] = 8 * 1024,
    heavy_workers: Annotated[
        int,
        typer.Option(
            "--heavy-workers",
            min=1,
            help="Heavy requests (updates, pools, chains, evidence, revisions, staleness, a"
            " first classification) each worker runs at once, each in a process of its own"
            " at a lower CPU priority, so that point lookups keep answering.",
        ),
    ] = DEFAULT_WORKERS,
    heavy_queue: Annotated[
        int,
        typer.Option(
            "--heavy-queue",
            min=0,
            help="Heavy requests each worker keeps waiting beyond those running; more are"
            " answered 429 with Retry-After.",
        ),
    ] = DEFAULT_QUEUE,
    lookup: Annotated[
        bool,
        typer.Option(
            "--lookup/--no-lookup",
            help="Make the store's lookup copy in the background (if it has none of its"
            " present state): questions about one entity then answer several times sooner."
            " It takes more disk than the snapshots' Parquet files.",
        ),
    ] = True,
) -> None:
    """Serve the store's knowledge graph over HTTP (REST, OpenAPI at /docs)."""
    if workers < 1 or not 0 < port < 65536:
        raise UsageError(f"--workers {workers} --port {port}: give a port and at least 1 worker")
    layout = StoreLayout.resolve(store)
    if not layout.catalog.is_file():
        raise StoreError(
            f"no catalog at {layout.catalog}; ingest a snapshot first (or run 'kgdiff demo')"
        )
    if lookup:
        _make_lookup(layout)
    os.environ["KGDIFF_STORE"] = str(layout.root.resolve())
    os.environ["KGDIFF_API_ENABLE_SQL"] = "1" if enable_sql else "0"
    os.environ["KGDIFF_API_SQL_TIMEOUT"] = str(sql_timeout)
    os.environ["KGDIFF_API_SQL_MAX_ROWS"] = str(sql_max_rows)
    os.environ["KGDIFF_API_SQL_CONCURRENCY"] = str(sql_concurrency)
    os.environ["KGDIFF_API_MAX_BUILDS"] = str(max_builds)
    os.environ["KGDIFF_API_MAX_BODY"] = str(max_body)
    os.environ["KGDIFF_API_MAX_URL"] = str(max_url)
    os.environ["KGDIFF_API_HEAVY_WORKERS"] = str(heavy_workers)
    os.environ["KGDIFF_API_HEAVY_QUEUE"] = str(heavy_queue)
    _run(host, port, workers)


def _run(host: str, port: int, workers: int) -> None:
    """uvicorn, with TCP_NODELAY on the workers' connections."""
    import uvicorn  # only this command needs it
    from uvicorn.supervisors import Multiprocess

    if workers == 1:  # asyncio sets TCP_NODELAY on the connections it accepts itself
        uvicorn.run(APP, factory=True, host=host, port=port, log_level="info")
        return
    config = uvicorn.Config(APP, factory=True, host=host, port=port, workers=workers)
    listening = config.bind_socket()
    # The workers' connections do not get it from asyncio; on Linux they inherit it from the
    # listening socket. Without it, an answer written in two parts (headers, body) on a
    # kept-alive connection waits for the client's delayed ACK: 40 ms per request.
    listening.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    Multiprocess(config, sockets=[listening]).run()


def _make_lookup(layout: StoreLayout) -> None:
    """Make the lookup copy of the store as it is now in the background (the workers
    answer from the views meanwhile and read the copy once it is there), a line per table."""
    from kgdiff.query.graph import KnowledgeGraph

    def make() -> None:
        graph = KnowledgeGraph(layout)
        try:
            path = graph.build_lookup(
                lambda line: console.print(line, highlight=False, soft_wrap=True)
            )
            console.print(f"lookup copy: {path}", highlight=False, soft_wrap=True)
        except (OSError, duckdb.Error) as exc:
            console.print(
                f"lookup copy not made ({exc}); questions about one entity read the views",
                highlight=False,
                soft_wrap=True,
            )
        finally:
            graph.close()

    threading.Thread(target=make, name="lookup-copy", daemon=True).start()
