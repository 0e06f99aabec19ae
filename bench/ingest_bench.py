"""Ingest benchmark: kgdiff against qwikidata and plain decompression, side by side in one run.

Run with ``make bench`` (or ``.venv/bin/python -m bench.ingest_bench``). It generates (once,
cached in ``--data``) a ≥ 1 GB Wikidata JSON dump in the real layout from the real samples, as
``.json``, ``.json.gz`` and ``.json.bz2``, and a 3× larger ``.json`` for the memory check, then
prints one table and a JSON summary:

- end-to-end ``kgdiff ingest wikidata`` throughput (MB/s of uncompressed JSON, entities/s,
  statements/s) with 1 and 2 workers on ``.json`` and ``.json.gz``, and 2 workers on ``.bz2``;
- the qwikidata baseline (same rows, single process) on the ``.json``;
- ``lbzip2 -dc -n2`` alone, the floor for ``.bz2``;
- the peak RSS of the whole process tree, for the 1 GB and the 3 GB input;
- the 3 GB input also pinned to one CPU: the scaling from one core to two once the fixed
  start-up and publishing steps weigh less, and the marginal rate from 1 GB to 3 GB;
- the same 1-worker ``.json`` ingest on the pure-Python row builder (``KGDIFF_NATIVE=0``);
- the 1-worker ``.json`` ingest with its whole process tree pinned to one CPU (``taskset``),
  against which the 2-worker run gives the scaling from one core to two;
- the 2-worker ``.json`` ingest with LZ4-compressed staging, which ``auto`` picks for a full
  dump (its staging does not fit in memory): the projected full-dump time comes from it;
- per ingest, the parse phase and the sort (finalize) phase from the manifest's timings;
- per run, the CPU time of its whole process tree and MB per CPU-second: throughput per
  core in the strict sense (a 1-worker ingest already keeps more than one core busy: the
  main process reads, hashes and sorts while the worker parses).

Ratios are what to read (they hold on a noisy machine); absolute times vary. This machine's
speed drifts by up to 2.5× over minutes (same command, same input), so ``--repeat N`` runs
every measurement N times, in rounds (each round runs them all once), and keeps the fastest
run of each: the one least slowed by whatever else the host was doing.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from bench.rss import Measured, run_measured

FULL_DUMP_BYTES = 1.5e12
FULL_DUMP_BZ2_BYTES = 1.5e12 / 8.5  # the .bz2 dumps compress about 8.5×
MB = 1e6


@dataclass(frozen=True)
class Row:
    """One measured run."""

    name: str
    seconds: float
    input_bytes: int
    entities: int
    statements: int
    peak_rss: int
    parse_seconds: float | None = None
    finalize_seconds: float | None = None
    cpu_seconds: float = 0.0

    @property
    def mb_per_s(self) -> float:
        return self.input_bytes / MB / self.seconds

    @property
    def mb_per_cpu_s(self) -> float:
        return self.input_bytes / MB / self.cpu_seconds if self.cpu_seconds else 0.0


def generate(data: Path, size_mb: int, name: str, formats: str) -> None:
    """Create (or reuse) the synthetic dump files."""
    cmd = [sys.executable, "-m", "bench.gendump", "--size-mb", str(size_mb), "--out", str(data)]
    subprocess.run([*cmd, "--name", name, "--formats", formats], check=True)


def ingest(
    path: Path,
    workers: int,
    uncompressed: int,
    label: str,
    native: bool = True,
    one_cpu: bool = False,
    staging: str = "auto",
) -> Row:
    """Time one ``kgdiff ingest wikidata`` into a fresh store.

    ``native=False`` runs the pure-Python row builder (``KGDIFF_NATIVE=0``), for comparison;
    ``one_cpu=True`` pins the whole process tree to one CPU (``taskset``): what one core
    does on its own, the base of the scaling from one to two cores; ``staging`` is the
    ``--staging-compression`` (``auto`` leaves the bench inputs' staging uncompressed, a
    full dump's gets ``lz4``).
    """
    pin = ["taskset", "--cpu-list", "0"] if one_cpu else []
    with tempfile.TemporaryDirectory(prefix="kgdiff-bench-") as store:
        cmd = [
            *pin,
            sys.executable,
            "-m",
            "kgdiff",
            "ingest",
            "wikidata",
            str(path),
            "--store",
            store,
            "--snapshot",
            "bench",
            "--workers",
            str(workers),
            "--staging-compression",
            staging,
            "--quiet",
        ]
        measured = run_measured(cmd, env={**os.environ, "KGDIFF_NATIVE": "1" if native else "0"})
        _check(measured, cmd)
        manifest = json.loads((Path(store) / "snapshots/snapshot=bench/manifest.json").read_text())
    counts, timings = manifest["counts"], manifest["timings"]
    return Row(
        label,
        measured.seconds,
        uncompressed,
        counts["entities"],
        counts["statements"],
        measured.peak_rss_bytes,
        timings["parse_seconds"],
        timings["finalize_seconds"],
        measured.cpu_seconds,
    )


def baseline(path: Path, limit: int) -> Row:
    """The qwikidata baseline on the first ``limit`` entities."""
    cmd = [sys.executable, "-m", "bench.qwikidata_baseline", str(path), "--limit", str(limit)]
    measured = run_measured(cmd)
    _check(measured, cmd)
    result = json.loads(measured.stdout.strip().splitlines()[-1])
    return Row(
        "qwikidata baseline (1 process)",
        result["seconds"],
        result["bytes"],
        result["entities"],
        result["statements"],
        measured.peak_rss_bytes,
        cpu_seconds=measured.cpu_seconds,
    )


def decompress_only(path: Path, uncompressed: int) -> Row:
    """``lbzip2 -dc -n2 FILE > /dev/null``."""
    cmd = ["lbzip2", "-dc", "-n2", str(path)]
    measured = run_measured(cmd, stdout_path="/dev/null")
    _check(measured, cmd)
    return Row(
        "lbzip2 -dc -n2 > /dev/null",
        measured.seconds,
        uncompressed,
        0,
        0,
        measured.peak_rss_bytes,
        cpu_seconds=measured.cpu_seconds,
    )


def _check(measured: Measured, cmd: list[str]) -> None:
    if measured.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({measured.returncode}): {measured.stderr}")


def print_rows(rows: list[Row]) -> None:
    """The side-by-side table."""
    head = f"{'run':44} {'s':>7} {'MB/s':>7} {'ent/s':>9} {'stmt/s':>10} {'peak RSS':>9}"
    print(f"{head} {'CPU s':>6} {'MB/CPU-s':>9} {'parse s':>8} {'sort s':>7}")
    for r in rows:
        phases = (
            "" if r.parse_seconds is None else f" {r.parse_seconds:8.1f} {r.finalize_seconds:7.1f}"
        )
        print(
            f"{r.name:44} {r.seconds:7.1f} {r.mb_per_s:7.1f} {r.entities / r.seconds:9.0f}"
            f" {r.statements / r.seconds:10.0f} {r.peak_rss / 2**20:7.0f}MB"
            f" {r.cpu_seconds:6.1f} {r.mb_per_cpu_s:9.1f}{phases}"
        )


def summary(rows: dict[str, Row]) -> dict[str, float]:
    """The ratios the targets are about."""
    one, two = rows["json-1"], rows["json-2"]
    return {
        "json_mb_s_per_core_1_worker": round(one.mb_per_s, 1),
        "json_mb_s_2_workers": round(two.mb_per_s, 1),
        "gz_mb_s_per_core_1_worker": round(rows["gz-1"].mb_per_s, 1),
        "gz_mb_s_2_workers": round(rows["gz-2"].mb_per_s, 1),
        "gz_mb_per_cpu_second_2_workers": round(rows["gz-2"].mb_per_cpu_s, 1),
        "speedup_1_to_2_workers_json": round(two.mb_per_s / one.mb_per_s, 2),
        "speedup_1_to_2_workers_gz": round(rows["gz-2"].mb_per_s / rows["gz-1"].mb_per_s, 2),
        "json_mb_s_1_worker_on_1_cpu": round(rows["json-1-cpu"].mb_per_s, 1),
        "speedup_1_to_2_cpus_json": round(two.mb_per_s / rows["json-1-cpu"].mb_per_s, 2),
        "vs_qwikidata_per_core": round(one.mb_per_s / rows["qwikidata"].mb_per_s, 1),
        "json_mb_per_cpu_second_1_worker": round(one.mb_per_cpu_s, 1),
        "json_mb_per_cpu_second_2_workers": round(two.mb_per_cpu_s, 1),
        "vs_qwikidata_per_cpu_second": round(
            two.mb_per_cpu_s / (rows["qwikidata"].mb_per_cpu_s or 1), 1
        ),
        "native_over_python_rows_1_worker": round(one.mb_per_s / rows["json-1-python"].mb_per_s, 2),
        "bz2_time_over_decompression": round(rows["bz2-2"].seconds / rows["lbzip2"].seconds, 2),
        **_steady_state(rows),
        "peak_rss_mb_1x": round(two.peak_rss / 2**20),
        "peak_rss_mb_3x": round(rows["json-2-3x"].peak_rss / 2**20),
        "peak_rss_3x_over_1x": round(rows["json-2-3x"].peak_rss / two.peak_rss, 2),
        "json_mb_per_cpu_second_2_workers_lz4_staging": round(rows["json-2-lz4"].mb_per_cpu_s, 1),
        "projected_full_dump_hours_json_2_workers": round(
            FULL_DUMP_BYTES / MB / rows["json-2-lz4"].mb_per_s / 3600, 1
        ),
        "projected_full_dump_hours_bz2_2_workers": round(
            FULL_DUMP_BYTES / MB / rows["bz2-2"].mb_per_s / 3600, 1
        ),
    }


def _steady_state(rows: dict[str, Row]) -> dict[str, float]:
    """The 3x input's figures: start-up and the last serial steps (imports, publishing,
    ~1 s per ingest) weigh a third as much there as on the 1x input, so they are closer to
    what a full dump sees; the marginal rate leaves them out entirely."""
    one, big, big_one_cpu = rows["json-2"], rows["json-2-3x"], rows["json-1-cpu-3x"]
    extra_mb = (big.input_bytes - one.input_bytes) / MB
    return {
        "speedup_1_to_2_cpus_json_3x": round(big.mb_per_s / big_one_cpu.mb_per_s, 2),
        "json_mb_per_cpu_second_2_workers_3x": round(big.mb_per_cpu_s, 1),
        "vs_qwikidata_per_cpu_second_3x": round(
            big.mb_per_cpu_s / (rows["qwikidata"].mb_per_cpu_s or 1), 1
        ),
        "json_marginal_mb_s_2_workers": round(extra_mb / max(big.seconds - one.seconds, 1e-9), 1),
    }


TARGETS: list[tuple[str, str, str, float]] = [
    ("end to end on .json, 2 workers", "json_mb_per_cpu_second_2_workers", ">=", 120),
    ("end to end on .json.gz, 2 workers", "gz_mb_per_cpu_second_2_workers", ">=", 120),
    ("from one CPU to two on .json", "speedup_1_to_2_cpus_json", ">=", 1.7),
    ("the qwikidata baseline per CPU-second", "vs_qwikidata_per_cpu_second", ">=", 5),
    (".bz2 time over lbzip2 -dc -n2 alone", "bz2_time_over_decompression", "<=", 1.25),
    ("peak RSS (MiB) of the 3x input", "peak_rss_mb_3x", "<=", 1536),
    ("bounded: 3x input's peak RSS over the 1x input's", "peak_rss_3x_over_1x", "<", 1.5),
]
"""The issue's targets for this 2-core machine: what, the summary figure, how, the bound."""
_HOLDS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "<": operator.lt,
}


def print_verdicts(figures: dict[str, float]) -> None:
    """One line per target: met or not, with the figure it was judged on."""
    for what, key, relation, bound in TARGETS:
        verdict = "met    " if _HOLDS[relation](figures[key], bound) else "NOT met"
        print(f"{verdict}  {key} = {figures[key]} ({relation} {bound}: {what})")


def measurements(
    base: Path, big: Path, size: int, baseline_entities: int
) -> dict[str, Callable[[], Row]]:
    """Every measurement of the table, by key, not yet run."""
    gz, bz2 = base.with_suffix(".json.gz"), base.with_suffix(".json.bz2")
    return {
        "json-1-python": lambda: ingest(base, 1, size, ".json, 1 worker, Python rows", False),
        "json-1": lambda: ingest(base, 1, size, ".json, 1 worker"),
        "json-1-cpu": lambda: ingest(
            base, 1, size, ".json, 1 worker, pinned to 1 CPU", one_cpu=True
        ),
        "json-2": lambda: ingest(base, 2, size, ".json, 2 workers"),
        "json-2-lz4": lambda: ingest(
            base, 2, size, ".json, 2 workers, LZ4 staging (a full dump's)", staging="lz4"
        ),
        "gz-1": lambda: ingest(gz, 1, size, ".json.gz, 1 worker"),
        "gz-2": lambda: ingest(gz, 2, size, ".json.gz, 2 workers"),
        "bz2-2": lambda: ingest(bz2, 2, size, ".json.bz2, 2 workers"),
        "lbzip2": lambda: decompress_only(bz2, size),
        "qwikidata": lambda: baseline(base, baseline_entities),
        "json-2-3x": lambda: ingest(big, 2, big.stat().st_size, ".json (3x), 2 workers"),
        "json-1-cpu-3x": lambda: ingest(
            big, 1, big.stat().st_size, ".json (3x), 1 worker, pinned to 1 CPU", one_cpu=True
        ),
    }


def best_of(runs: dict[str, Callable[[], Row]], repeat: int) -> dict[str, Row]:
    """Run every measurement ``repeat`` times in rounds; keep each one's fastest run
    (with the highest peak RSS of all its runs: memory is not noisy, and the worst counts)."""
    best: dict[str, Row] = {}
    for round_no in range(1, repeat + 1):
        for key, run in runs.items():
            row = run()
            print(f"round {round_no}/{repeat}: {row.name}: {row.seconds:.1f} s", flush=True)
            previous = best.get(key, row)
            fastest = row if row.seconds < previous.seconds else previous
            best[key] = replace(fastest, peak_rss=max(row.peak_rss, previous.peak_rss))
    return best


def main(argv: list[str] | None = None) -> int:
    """Run every measurement and print the table and the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("bench/.cache"))
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--baseline-entities", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=1, help="rounds; the fastest run counts")
    args = parser.parse_args(argv)
    if not shutil.which("lbzip2"):
        raise SystemExit("lbzip2 is needed for the .bz2 reference: apt-get install lbzip2")
    generate(args.data, args.size_mb, "wikidata-20240101-all", "json,gz,bz2")
    generate(args.data, 3 * args.size_mb, "wikidata-20240102-all", "json")
    base = args.data / "wikidata-20240101-all.json"
    big = args.data / "wikidata-20240102-all.json"
    size = base.stat().st_size
    rows = best_of(measurements(base, big, size, args.baseline_entities), args.repeat)
    print_rows(list(rows.values()))
    figures = summary(rows)
    print(json.dumps(figures, indent=2))
    print_verdicts(figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
