"""``bench/serve_load.py --mix realistic``: the service under point lookups and heavy
requests at once (bench/serve_mix.py), this kgdiff's and, with ``--compare-with DIR``, the
kgdiff of another source tree (a worktree of an older commit) the same way, one after the
other on the same store, printed side by side.

Each phase starts from the same store: what the previous service made for requests (its
builds, staleness curves and jobs) is removed first, and the phase's kgdiff makes the lookup
copy and the facts copy of the cutoff itself (``kgdiff snapshots lookup --facts-at``),
measured (wall, CPU, peak RSS of the process tree, the copies' sizes): the two copies are
compared too. The classification the facts pages read is made once, by the library, before
either phase (a build of the command line's: never evicted).
"""

from __future__ import annotations

import argparse
import json
import shutil
from datetime import date
from pathlib import Path

import httpx

import kgdiff
from bench.rss import run_measured
from bench.serve_load import (
    bench_dates,
    checkout_env,
    checkout_python,
    free_port,
    settle,
    start_server,
    stop_server,
    warm,
)
from bench.serve_mix import MixRun, MixSource, measure_mix, new_days, report_mix, run_json
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.served_builds import evict_served_builds
from kgdiff.temporal.staleness import curve_path


def realistic(args: argparse.Namespace) -> None:
    """``--mix realistic``: this kgdiff's service, and the one of ``--compare-with``, each
    under the same schedule of lookups and heavy requests (bench/serve_mix.py)."""
    store = args.store
    init, cutoff, current = bench_dates(store)
    kgdiff.open(store).answers.classification(cutoff, init, current)  # the pages' build
    phases: list[tuple[str, Path | None]] = [("this", None)]
    if args.compare_with is not None:
        phases.append(("compared", args.compare_with))
    runs, copies = [], []
    for label, checkout in phases:
        forget_requests(store)
        copies.append((label, make_copies(store, cutoff, checkout)))
        print(f"lookup and facts copies, {label}: {copies[-1][1]}", flush=True)
        runs.append(mix_phase(args, label, checkout, (init, cutoff, current)))
    for label, line in copies:
        print(f"lookup and facts copies, {label}: {line}")
    report_mix(runs, args.round_seconds)
    if args.json:
        args.json.write_text(json.dumps([run_json(run) for run in runs]))


def mix_phase(
    args: argparse.Namespace, label: str, checkout: Path | None, days: tuple[str, str, str]
) -> MixRun:
    """One server under the realistic mix."""
    options = ["--max-builds", "8"]
    if checkout is None:
        options += ["--heavy-workers", str(args.heavy_workers)]
        options += ["--heavy-queue", str(args.heavy_queue)]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(args.store, port, args.workers, options, checkout)
    run = MixRun(label)
    try:
        with httpx.Client(base_url=base, timeout=1800, trust_env=False) as client:
            source = mix_source(args.store, client, args.subjects, days)
            for request in source.schedule(200, seed=1):  # each worker reads a little first
                if request.group == "lookup":
                    client.get(request.path).raise_for_status()
        total = int(args.rate * args.round_seconds * args.rounds)
        settle(base)
        measure_mix(server, base, source.schedule(total, seed=7), args.rate, args.connections, run)
    finally:
        stop_server(server)
    report_mix([run], args.round_seconds)  # each phase as it ends; side by side at the end
    return run


def mix_source(
    store: Path, client: httpx.Client, sample: int, days: tuple[str, str, str]
) -> MixSource:
    """The entities of the mix, their labels' starts, and the pages of the bench's build."""
    init, cutoff, current = days
    kg = kgdiff.open(store)
    subjects = (
        kg.sql(
            f"SELECT DISTINCT subject FROM statements WHERE snapshot = (SELECT max(name) FROM "
            f"snapshots) USING SAMPLE reservoir({sample} ROWS) REPEATABLE (7)"
        )
        .get_column("subject")
        .to_list()
    )
    labels = kg.sql(
        "SELECT value FROM labels WHERE kind = 'label' AND lang = 'en' AND qid IN "
        f"(SELECT unnest({subjects!r}))"
    )
    prefixes = [text[: max(3, len(text) - 2)] for text in labels.get_column("value").to_list()]
    facts = f"/v1/facts?init={init}&cutoff={cutoff}&current={current}&limit=50"
    cursors = warm(client, facts)
    pages = [facts] + [f"{facts}&cursor={c}" for c in cursors]
    first, last = date.fromisoformat(init), date.fromisoformat(current)
    return MixSource(subjects, prefixes or subjects, pages, cutoff, new_days(first, last))


def forget_requests(store: Path) -> None:
    """What a service made for requests goes (the builds, the staleness curves, the jobs):
    each phase starts from the same store."""
    layout = StoreLayout.resolve(store)
    evict_served_builds(layout, 0)
    for mode in ("record", "valid"):
        curve_path(layout, mode).unlink(missing_ok=True)
    shutil.rmtree(layout.root / "builds" / "jobs", ignore_errors=True)


def make_copies(store: Path, cutoff: str, checkout: Path | None) -> str:
    """Make the lookup copy and the facts copy of ``cutoff`` with the kgdiff of
    ``checkout`` (measured: wall, CPU, peak RSS of the process); what was measured."""
    command = [checkout_python(checkout), "-m", "kgdiff", "snapshots", "lookup"]
    command += ["--store", str(store)]
    command += ["--facts-at", cutoff]
    measured = run_measured(command, env=checkout_env(checkout), cwd=checkout, pss=False)
    if measured.returncode != 0:
        raise SystemExit(f"the lookup copy was not made: {measured.stderr}")
    folder = StoreLayout.resolve(store).root / "builds" / "lookup"
    sizes = {path.name: path.stat().st_size / 1e6 for path in folder.glob("*.duckdb")}
    lookup = sum(mb for name, mb in sizes.items() if ".facts-" not in name)
    return (
        f"{measured.seconds:.0f} s, {measured.cpu_seconds:.0f} CPU-s, peak RSS"
        f" {measured.peak_rss_bytes / 1e9:.2f} GB, lookup copy {lookup:,.0f} MB,"
        f" facts copy {sum(sizes.values()) - lookup:,.0f} MB"
    )
