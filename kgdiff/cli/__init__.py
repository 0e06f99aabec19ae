"""The ``kgdiff`` command line (typer + rich); a thin layer over the library.

Each command's module is imported only when the command runs (see :mod:`kgdiff.cli.lazy`).
"""

from __future__ import annotations

import os
import sys
from contextlib import AbstractContextManager, nullcontext

import typer

from kgdiff.cli.common import print_library_warnings, run_guarded
from kgdiff.cli.exit import exit_without_teardown
from kgdiff.cli.lazy import CommandGroup, build_app
from kgdiff.collector import bulk_allocations
from kgdiff.ingest.worker_context import start_worker_server
from kgdiff.no_pandas import keep_pandas_out

COMMANDS: dict[str, str | CommandGroup] = {
    "ingest": CommandGroup(
        "Load dumps into the snapshot store.",
        {
            "wikidata": "kgdiff.cli.ingest:ingest_wikidata_command",
            "pageviews": "kgdiff.cli.pageviews:ingest_pageviews",
            "wikipedia": "kgdiff.cli.ingest_wikipedia:ingest_wikipedia_command",
            "api": "kgdiff.cli.ingest_api:ingest_api_command",
            "rdf": "kgdiff.cli.ingest_rdf:ingest_rdf_command",
        },
    ),
    "refresh": "kgdiff.cli.refresh:refresh_command",
    "snapshots": "kgdiff.cli.snapshots:snapshots_app",
    "store": CommandGroup(
        "Check the store and mend it (docs/store.md).",
        {"check": "kgdiff.cli.store:check_command"},
    ),
    "classify": "kgdiff.cli.classify:classify_command",
    "audit": "kgdiff.cli.classify:audit_command",
    "timeline": "kgdiff.cli.timeline:timeline_command",
    "plot": CommandGroup(
        "Pictures for papers (SVG or PNG, with their data inside).",
        {
            "timeline": "kgdiff.cli.plot:plot_timeline_command",
            "staleness": "kgdiff.cli.plot:plot_staleness_command",
        },
    ),
    "pools": "kgdiff.cli.pools:pools_command",
    "chains": "kgdiff.cli.chains:chains_command",
    "updates": "kgdiff.cli.updates:updates_command",
    "score": "kgdiff.cli.score:score_command",
    "evidence": "kgdiff.cli.evidence:evidence_app",
    "revisions": "kgdiff.cli.revisions:revisions_command",
    "page": "kgdiff.cli.page:page_command",
    "fetch": "kgdiff.cli.fetch:fetch_app",
    "popularity": "kgdiff.cli.pageviews:popularity_command",
    "pageviews": CommandGroup(
        "Page views from the Wikimedia REST API.",
        {"fetch": "kgdiff.cli.pageviews:pageviews_fetch_command"},
    ),
    "export": "kgdiff.cli.export:export_app",
    "demo": "kgdiff.cli.demo:demo",
    "serve": "kgdiff.cli.serve:serve_command",
    "spark": CommandGroup(
        # help is rich markup: "\\[" keeps the brackets of the extra's name
        "Ingest and classify on Apache Spark (pip install 'kgdiff\\[spark]'; docs/spark.md).",
        {
            "ingest": CommandGroup(
                "Load dumps into the snapshot store with Spark.",
                {"wikidata": "kgdiff.cli.spark:spark_ingest_command"},
            ),
            "classify": "kgdiff.cli.spark:spark_classify_command",
        },
    ),
}


def app_for(args: list[str]) -> typer.Typer:
    """The ``kgdiff`` app holding what the command line ``args`` needs (all commands for help)."""
    return build_app(
        COMMANDS,
        args,
        name="kgdiff",
        help="Temporal knowledge graph from Wikidata and Wikipedia dumps.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=False,
    )


def _run(args: list[str], ingest: bool) -> None:
    """Build the app for ``args`` and run it (typer ends it with ``SystemExit``)."""
    if ingest:
        # before the command's own imports, which the workers' server then runs alongside
        start_worker_server()
    app_for(args)()


def collector_for(args: list[str]) -> AbstractContextManager[None]:
    """How Python's cyclic collector runs for the command line ``args``: rarely
    (:func:`~kgdiff.collector.bulk_allocations`, no collection at the end: the process ends)
    for every command, which is bulk work, but ``serve``, which runs for days."""
    return nullcontext() if args[:1] == ["serve"] else bulk_allocations(collect=False)


def main() -> None:
    """Entry point of the ``kgdiff`` script."""
    args = sys.argv[1:]
    # numpy's OpenBLAS starts a thread per core that spins after each use; kgdiff makes no
    # BLAS call worth a thread, and the spinning took ~1 % of an ingest's CPU (perf).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # Arrow's allocator (mimalloc) hands freed memory back to the system 10 ms later, so the
    # next bucket's sort faults the same pages in again and the kernel zeroes them: ~5 % of
    # an ingest's CPU. A second covers the gap between buckets; memory never reused goes
    # back (never returning it cost ~230 MiB more peak RSS on a 9.7 GB dump). Read when
    # pyarrow loads, hence here (the command line imports no pyarrow itself).
    os.environ.setdefault("MIMALLOC_PURGE_DELAY", "1000")
    ingest = (
        args[:2] == ["ingest", "wikidata"] or args[:1] == ["refresh"]
    ) and "--help" not in args
    if ingest:
        keep_pandas_out()  # its import cost each process of an ingest 0.8 s (no_pandas.py)
    print_library_warnings()
    try:
        with collector_for(args):
            code = run_guarded(lambda: _run(args, ingest))
    except SystemExit as exc:  # how typer ends every command
        if not (ingest and exc.code in (0, None)):
            raise
        code = 0
    if ingest and code == 0:
        exit_without_teardown()
    sys.exit(code)
