"""Finalize benchmark: one sort per table against sorting in buckets, on the same parts.

Run with ``.venv/bin/python -m bench.finalize_bench --dump FILE [--dump FILE ...]``. Each
dump is parsed once into a staging folder (the real ingest, stopped before it publishes),
then the finalize step runs alternately as one sort per table (the layout before buckets)
and in buckets sized to the default 1 GB memory budget, ``--repeat`` times each.
Printed per dump and mode: the fastest and slowest wall time, the CPU seconds of the
fastest run, and the number of files per table. Use the dumps that ``bench.ingest_bench``
generates (1 GB and 3 GB) to see how the two scale.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

import kgdiff.ingest.pipeline as pipeline
from kgdiff.store import finalize as finalize_module
from kgdiff.store.layout import TABLES
from kgdiff.store.staging import Staging

ONE_BUCKET = 1 << 62
"""A bucket budget no table reaches: every table sorted in one statement."""


class _MeasuredStopError(Exception):
    """Raised from the patched finalize: the measurements are done, do not publish."""


def _time_finalize(staging: Staging, workers: int, budget: int | None) -> tuple[float, float, str]:
    before_cpu, before = os.times(), time.perf_counter()
    finalize_module.finalize(staging, threads=workers, bucket_bytes=budget)
    wall = time.perf_counter() - before
    after_cpu = os.times()
    cpu = after_cpu.user - before_cpu.user + after_cpu.system - before_cpu.system
    files = "/".join(str(len(list((staging.final / t).glob("*.parquet")))) for t in TABLES)
    return wall, cpu, files


def measure(dump: Path, workers: int, repeat: int) -> dict[str, list[tuple[float, float, str]]]:
    """Parse ``dump`` once, then time both finalize modes ``repeat`` times, alternating."""
    runs: dict[str, list[tuple[float, float, str]]] = {"one sort": [], "buckets": []}

    def compare(staging: Staging, threads: int, **_: object) -> tuple[dict[str, int], None]:
        for _round in range(repeat):
            runs["one sort"].append(_time_finalize(staging, threads, ONE_BUCKET))
            runs["buckets"].append(_time_finalize(staging, threads, None))
        raise _MeasuredStopError

    store = Path(tempfile.mkdtemp(prefix="kgdiff-finalize-bench-"))
    # The ingest's own finalize call is swapped for the comparison: the parts it measures
    # are exactly what a real ingest stages.
    original = getattr(pipeline, "finalize")  # noqa: B009
    setattr(pipeline, "finalize", compare)  # noqa: B010
    try:
        request = pipeline.IngestRequest(path=dump, snapshot="bench", store=store, workers=workers)
        pipeline.ingest_wikidata(request)
    except _MeasuredStopError:
        pass
    finally:
        setattr(pipeline, "finalize", original)  # noqa: B010
        shutil.rmtree(store, ignore_errors=True)
    return runs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=Path, action="append", required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{'dump':34} {'mode':9} {'best s':>7} {'worst s':>8} {'cpu s':>6}  files/table")
    for dump in args.dump:
        for mode, runs in measure(dump, args.workers, args.repeat).items():
            best = min(runs)
            print(
                f"{dump.name:34} {mode:9} {best[0]:7.2f} {max(runs)[0]:8.2f} {best[1]:6.1f}"
                f"  {best[2]}"
            )


if __name__ == "__main__":
    main()
