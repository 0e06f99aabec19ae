"""Time ``kgdiff refresh`` against a full ingest of the same state, and size the delta.

Usage (after ``python -m bench.refresh_gen ... --out DUMPS``)::

    .venv/bin/python -m bench.refresh_bench --dumps DUMPS --store STORE [--repeat N]
        [--changes xml|json] [--no-classify]

In one run, into ``STORE``: ingest ``DUMPS/base.json`` as the snapshot ``base`` (once);
then, ``--repeat`` rounds of: ``kgdiff refresh`` of the daily incremental dump (or of
``changes.json``) and ``deleted.txt`` on ``base`` (snapshot ``refreshed``) and a ``kgdiff
classify`` whose current date reads it; then, ``refreshed`` removed, ``kgdiff ingest wikidata
DUMPS/target.json`` (snapshot ``full``, the same state) and the same classification on it;
last, an ingest of ``changes.json`` alone into a scratch store: what parsing and sorting the
changed entities costs by itself, against which the refresh's own overhead shows. Each
command is measured with :mod:`bench.rss` (wall, CPU of the whole process tree, peak RSS),
beside the cores the rest of the machine kept busy meanwhile (``others_cores``: on a shared
machine the wall time stretches with them; the CPU time much less).

The report: the sizes; the churn, counted four ways (the share of the base's entities the
changes touch; the share of the target's statements, of all its rows and of its bytes that
belong to the changed entities: the bytes of ``changes.json`` ingested whole over those of the
full snapshot. A refresh stores every row of a changed entity, so the delta follows the
bytes' share); whether the refreshed snapshot reads row for row as the full one (a hash of
every table's rows but ``source_line``); and the targets of issue 37: the delta at most the
churn times the base's size plus 5 % (by the entities' churn, and by the bytes'), the refresh
at least 20 times faster than the full ingest. Prints one JSON document.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from bench.rss import Measured, run_measured
from bench.scale.measure import busy_ticks, others_cores
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog

TABLE_KEYS = ("entities", "labels", "sitelinks", "statements", "qualifiers")
TARGET_SPEEDUP = 20
STORAGE_MARGIN = 1.05


@dataclass(frozen=True)
class Options:
    """What to measure, where."""

    dumps: Path
    store: Path
    repeat: int = 1
    workers: int = 2
    changes: str = "xml"
    classify: bool = True
    base: str = "base"
    """The store's snapshot the refresh starts from (ingested from ``base.json`` if missing)."""
    full_from: str | None = None
    """A store's snapshot of the target state (the generator's own) to compare the refresh
    with instead of a full ingest of ``target.json`` (a store too large for that dump): its
    bytes and rows stand for the full snapshot's, and no speed-up is measured."""


def kgdiff(*args: str) -> list[str]:
    """The command line of ``kgdiff ARGS`` in this interpreter."""
    return [sys.executable, "-m", "kgdiff", *args]


def _measured(command: list[str]) -> dict[str, Any]:
    busy, total = busy_ticks()
    found: Measured = run_measured(command)
    if found.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({found.returncode}): {found.stderr[-2000:]}")
    return {
        "seconds": round(found.seconds, 2),
        "cpu_seconds": round(found.cpu_seconds, 2),
        "peak_rss_mb": round(found.peak_rss_bytes / 1e6),
        "peak_pss_mb": round(found.peak_pss_bytes / 1e6),
        # what the rest of the machine ran meanwhile: the wall time stretches with it
        "others_cores": others_cores(busy, total, found.cpu_seconds, found.seconds),
    }


def folder_bytes(folder: Path) -> int:
    """The bytes of every file below ``folder``."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def table_digests(
    store: Path, snapshot: str, left_out: tuple[str, ...] = ()
) -> dict[str, list[int]]:
    """Per table: the rows and an order-free hash of them (``source_line`` and the columns
    ``left_out`` left out)."""
    found = {}
    with open_catalog(StoreLayout.resolve(store)) as connection:
        for table in TABLE_KEYS:
            described = connection.execute(f"DESCRIBE SELECT * FROM {table}").fetchall()
            skipped = ("snapshot", "source_line", *left_out)
            columns = [r[0] for r in described if r[0] not in skipped]
            packed = ", ".join(f'"{name}" := "{name}"' for name in columns)
            row = connection.execute(
                f"SELECT count(*), bit_xor(hash(struct_pack({packed}))) FROM {table}"
                " WHERE snapshot = $s",
                {"s": snapshot},
            ).fetchall()[0]
            found[table] = [int(row[0]), int(row[1] or 0)]
    return found


def _snapshot(store: Path, name: str) -> Path:
    return store / "snapshots" / f"snapshot={name}"


def _remove(store: Path, name: str) -> None:
    if _snapshot(store, name).exists():
        done = run_measured(kgdiff("snapshots", "rm", name, "-y", "--store", str(store)))
        if done.returncode != 0:
            raise SystemExit(done.stderr)


def _manifest(store: Path, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((_snapshot(store, name) / "manifest.json").read_text())
    return loaded


def _stored_rows(store: Path, name: str) -> int:
    """The rows a snapshot's folder holds, every table (a delta's own rows only)."""
    manifest = _manifest(store, name)
    stored = (manifest.get("delta") or {}).get("stored") or manifest["counts"]
    return sum(int(stored.get(table, 0)) for table in TABLE_KEYS)


def _classify(options: Options, gen: dict[str, Any]) -> list[str]:
    """The classification whose current date reads the refreshed (or full) snapshot."""
    first, last = date.fromisoformat(gen["base_date"]), date.fromisoformat(gen["date"])
    cutoff = (first + (last - first) / 2).isoformat()
    command = ["classify", "--init", gen["base_date"], "--cutoff", cutoff, "--current"]
    out = options.store / "classified.parquet"
    return kgdiff(*command, gen["date"], "--store", str(options.store), "--out", str(out))


def _refresh(options: Options, gen: dict[str, Any], found: dict[str, Any]) -> dict[str, Any]:
    """Refresh ``base`` into ``refreshed`` (then classify on it); its digest."""
    dumps, store = options.dumps, options.store
    incr = (
        dumps / "changes.json"
        if options.changes == "json"
        else next(dumps.glob("wikidatawiki-*-pages-meta-hist-incr.xml*"))
    )
    command = ["refresh", str(incr), "--base", options.base, "--snapshot", "refreshed", "--date"]
    command += [gen["date"], "--deletions", str(dumps / "deleted.txt"), "--store", str(store)]
    found["refresh"] = _measured(kgdiff(*command, "--quiet", "--workers", str(options.workers)))
    if options.classify:
        found["classify_on_refreshed"] = _measured(_classify(options, gen))
    found["refreshed_bytes"] = folder_bytes(_snapshot(store, "refreshed"))
    found["refreshed_rows"] = _stored_rows(store, "refreshed")
    found["refresh_timings"] = _manifest(store, "refreshed").get("timings", {})
    return table_digests(store, "refreshed")


def _ingest(options: Options, gen: dict[str, Any], found: dict[str, Any]) -> dict[str, Any]:
    """Ingest the target state as ``full`` (then classify on it); its digest."""
    store = options.store
    command = ["ingest", "wikidata", str(options.dumps / "target.json"), "--snapshot", "full"]
    command += ["--date", gen["date"], "--store", str(store), "--quiet"]
    found["ingest"] = _measured(kgdiff(*command, "--workers", str(options.workers)))
    if options.classify:
        found["classify_on_full"] = _measured(_classify(options, gen))
    found["full_bytes"] = folder_bytes(_snapshot(store, "full"))
    found["full_rows"] = _stored_rows(store, "full")
    return table_digests(store, "full")


def _ingest_changes(options: Options, gen: dict[str, Any], found: dict[str, Any]) -> None:
    """Ingest ``changes.json`` alone, into a scratch store removed afterwards: its cost, and
    the bytes the changed entities take stored whole."""
    scratch = options.store.with_name(options.store.name + "-changes")
    shutil.rmtree(scratch, ignore_errors=True)
    command = ["ingest", "wikidata", str(options.dumps / "changes.json"), "--snapshot"]
    command += ["changes", "--date", gen["date"], "--store", str(scratch), "--quiet"]
    try:
        found["ingest_changes"] = _measured(kgdiff(*command, "--workers", str(options.workers)))
        found["changes_bytes"] = folder_bytes(_snapshot(scratch, "changes"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _round(options: Options, gen: dict[str, Any]) -> dict[str, Any]:
    """One round: the refresh, the full ingest of the same state, the changes alone."""
    found: dict[str, Any] = {}
    for name in ("refreshed", "full"):
        _remove(options.store, name)
    shutil.rmtree(options.store / "builds", ignore_errors=True)
    refreshed = _refresh(options, gen, found)
    if options.full_from is None:
        _remove(options.store, "refreshed")
        found["equal"] = refreshed == _ingest(options, gen, found)
    else:
        # the generator gives every entity a new revision at each snapshot (the refresh keeps
        # an unchanged entity's, the base's) and leaves gaps in a list's ordinals where it
        # removed a statement or qualifier (its JSON, read back, numbers them 0, 1, ...)
        revisions = ("lastrevid", "modified", "ordinal")
        found["full_bytes"] = folder_bytes(_snapshot(options.store, options.full_from))
        found["full_rows"] = _stored_rows(options.store, options.full_from)
        found["equal"] = table_digests(options.store, "refreshed", revisions) == table_digests(
            options.store, options.full_from, revisions
        )
        _remove(options.store, "refreshed")
    _ingest_changes(options, gen, found)
    return found


def _speedups(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The refresh against the full ingest (None each when no full ingest was timed, as with
    ``--full-from``), and against the ingest of the changes alone."""
    best = {
        k: min(r[k]["seconds"] for r in rounds) for k in ("refresh", "ingest") if k in rounds[0]
    }
    cpu = {
        k: min(r[k]["cpu_seconds"] for r in rounds)
        for k in ("refresh", "ingest", "ingest_changes")
        if k in rounds[0]
    }
    found: dict[str, Any] = {
        "refresh_over_ingest_of_changes_cpu": round(cpu["refresh"] / cpu["ingest_changes"], 2)
    }
    if "ingest" not in cpu:
        keys = ("speedup_wall", "speedup_cpu", "speedup_ceiling_cpu", "time_met", "time_met_cpu")
        return found | dict.fromkeys(keys)
    return found | {
        "speedup_wall": round(best["ingest"] / best["refresh"], 2),
        "speedup_cpu": round(cpu["ingest"] / cpu["refresh"], 2),
        "speedup_ceiling_cpu": round(cpu["ingest"] / cpu["ingest_changes"], 2),
        "time_met": best["ingest"] / best["refresh"] >= TARGET_SPEEDUP,
        "time_met_cpu": cpu["ingest"] / cpu["refresh"] >= TARGET_SPEEDUP,
    }


def _targets(report: dict[str, Any], gen: dict[str, Any]) -> dict[str, Any]:
    """The churn figures and issue 37's targets, from the rounds."""
    rounds = report["rounds"]
    base = report["base_bytes"]
    last = rounds[-1]
    delta = last["refreshed_bytes"]
    churn = (gen["changed"] + gen["added"] + gen["deleted"]) / gen["base_entities"]
    churn_bytes = last["changes_bytes"] / last["full_bytes"]
    return {
        "churn_entities": round(churn, 4),
        "churn_statements": round(gen["changes_statements"] / gen["target_statements"], 4),
        "churn_rows": round(last["refreshed_rows"] / last["full_rows"], 4),
        "churn_bytes": round(churn_bytes, 4),
        "delta_share_of_base": round(delta / base, 4),
        "delta_over_changes_stored_whole": round(delta / last["changes_bytes"], 4),
        "storage_bound_bytes": round(churn * base * STORAGE_MARGIN),
        "storage_met": delta <= churn * base * STORAGE_MARGIN,
        "storage_bound_plus_5_points": round((churn + STORAGE_MARGIN - 1) * base),
        "storage_met_plus_5_points": delta <= (churn + STORAGE_MARGIN - 1) * base,
        "storage_bound_by_bytes_churn": round(churn_bytes * base * STORAGE_MARGIN),
        "storage_met_by_bytes_churn": delta <= churn_bytes * base * STORAGE_MARGIN,
        **_speedups(rounds),
        "equal": all(r["equal"] for r in rounds),
    }


def run(options: Options) -> dict[str, Any]:
    """The measurements of the module docstring."""
    gen = json.loads((options.dumps / "refresh_gen.json").read_text())
    options.store.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"dumps": str(options.dumps), "changes": options.changes}
    report["generator"] = gen
    if not _snapshot(options.store, options.base).exists():
        base_json = str(options.dumps / "base.json")
        command = ["ingest", "wikidata", base_json, "--snapshot", options.base]
        command += ["--date", gen["base_date"], "--store", str(options.store), "--quiet"]
        report["base_ingest"] = _measured(kgdiff(*command, "--workers", str(options.workers)))
    report["rounds"] = [_round(options, gen) for _ in range(options.repeat)]
    report["base_bytes"] = folder_bytes(_snapshot(options.store, options.base))
    report["base_counts"] = _manifest(options.store, options.base)["counts"]
    report.update(_targets(report, gen))
    return report


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print its report."""
    parser = argparse.ArgumentParser(prog="python -m bench.refresh_bench")
    parser.add_argument("--dumps", type=Path, required=True, help="a bench.refresh_gen folder")
    parser.add_argument("--store", type=Path, required=True, help="the store to measure in")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of refresh and ingest")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--changes",
        choices=("xml", "json"),
        default="xml",
        help="refresh from the daily incremental XML dump, or from changes.json",
    )
    parser.add_argument(
        "--no-classify",
        dest="classify",
        action="store_false",
        help="leave out the classifications on the refreshed and the full snapshot",
    )
    parser.add_argument(
        "--base",
        default="base",
        help="the store's snapshot to refresh (ingested from DUMPS/base.json when missing; an"
        " existing one, e.g. the generator's own snapshot linked in, spares that dump)",
    )
    parser.add_argument(
        "--full-from",
        help="compare with this snapshot of the store (the generator's own of the target state)"
        " instead of ingesting DUMPS/target.json (see bench.refresh_gen --no-target-dump)",
    )
    args = parser.parse_args(argv)
    options = Options(
        args.dumps,
        args.store,
        max(1, args.repeat),
        args.workers,
        args.changes,
        args.classify,
        args.base,
        args.full_from,
    )
    print(json.dumps(run(options), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
