"""Wikipedia XML → text at scale: leads, whole pages and history revisions, side by side.

Run with ``.venv/bin/python -m bench.xml_bench [--data DIR] [--size-mb N] [--slice-mb N]``.
Generates the inputs with :mod:`bench.xml_data` the first time (about 10 s), then prints one
table, one line per run:

- on a slice (50 MB) with one worker: lxml ``iterparse`` alone, mwxml, our reader alone, our
  reader + fast leads, + fast whole pages and their sentences, + mwparserfromhell leads;
- on the ≥ 1 GB pages-articles file, with 1 and 2 workers: leads, and whole pages + sentences;
- on the history file (200 MB), with 1 and 2 workers: every revision's metadata and lead;
- ``lbzip2 -dc`` of a 100 MB slice with 1 and 2 threads (decompression alone).

Each run gets a fresh ``forkserver`` pool (so each has its own peak RSS), started and warmed
before the clock starts; N workers split the file into N page ranges. MB are 10⁶ bytes of
XML; ``MB/cpu-s`` is XML per CPU second of the workers, what one core does even when the
machine is shared. Then it prints the verdicts against the issue's targets, and writes
everything as JSON under ``DIR/results/``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.rss import run_measured
from bench.xml_data import DATA_DIR, ensure_inputs
from bench.xml_work import Done, Work, available, page_ranges, ready, run

LEAD_TARGET = 40.0
WHOLE_TARGET = 20.0
"""MB/s of XML per core the issue asks for (leads; whole pages with sentences)."""


@dataclass(frozen=True)
class Row:
    """One run: what, on which input, with how many workers, and the workers' reports."""

    label: str
    input: str
    workers: int
    seconds: float
    done: list[Done]
    machine_cpu: float = 0.0
    """CPU seconds the whole machine spent (every process) while the run was timed."""

    @property
    def megabytes(self) -> float:
        return sum(d.bytes for d in self.done) / 1e6

    @property
    def revisions(self) -> int:
        return sum(d.revisions for d in self.done)

    @property
    def rate(self) -> float:
        return self.megabytes / self.seconds

    @property
    def per_cpu_second(self) -> float:
        return self.megabytes / max(sum(d.cpu_seconds for d in self.done), 1e-9)

    @property
    def peak_rss(self) -> int:
        return max((d.peak_rss for d in self.done), default=0)

    @property
    def other_cores(self) -> float:
        """Cores other processes kept busy meanwhile (the machine's CPU less ours)."""
        return max(0.0, self.machine_cpu - sum(d.cpu_seconds for d in self.done)) / self.seconds


def loadavg() -> str:
    """The first three fields of ``/proc/loadavg``."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def machine_cpu() -> float:
    """CPU seconds every process of the machine has used since boot (``/proc/stat``)."""
    ticks = [int(field) for field in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and waiting for I/O
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def measure(label: str, path: str, mode: str, workers: int) -> Row:
    """Convert ``path`` by ``mode`` with ``workers`` processes, one page range each."""
    tasks = [Work(path, start, end, mode) for start, end in page_ranges(path, workers)]
    context = multiprocessing.get_context("forkserver")
    with context.Pool(workers) as pool:
        pool.map(ready, range(workers), chunksize=1)
        started, cpu = time.perf_counter(), machine_cpu()
        done = pool.map(run, tasks, chunksize=1)
        seconds, cpu = time.perf_counter() - started, machine_cpu() - cpu
    if len({d.pid for d in done}) != workers:
        print(f"  (warning: {label} ran its {workers} ranges in fewer processes)")
    return Row(label, Path(path).name, workers, seconds, done, cpu)


def decompression(label: str, path: Path, threads: int, xml_bytes: int) -> Row:
    """``lbzip2 -dc -nN`` to /dev/null, as a row (MB of XML it produced per second)."""
    measured = run_measured(["lbzip2", "-dc", f"-n{threads}", str(path)], stdout_path="/dev/null")
    done = Done(xml_bytes, 0, 0, 0, 0, measured.seconds, 0.0, measured.peak_rss_bytes, 0)
    return Row(label, path.name, threads, measured.seconds, [done])


HEADER = (
    f"{'run':38s} {'input':45s} {'w':>2s} {'MB':>7s} {'revisions':>10s} {'s':>6s} "
    f"{'MB/s':>6s} {'MB/s/w':>6s} {'MB/cpu-s':>8s} {'rev/s':>6s} {'RSS MB':>6s} {'chars out':>11s} "
    f"{'others':>6s}"
)
"""``others``: cores that other processes kept busy during the run (the machine is shared)."""


def show(row: Row) -> None:
    """Print one line of the table (RSS: the largest worker's peak)."""
    ours = any(d.cpu_seconds for d in row.done)
    cpu = f"{row.per_cpu_second:8.1f}" if ours else f"{'':8s}"
    others = f"{row.other_cores:6.2f}" if ours else ""
    print(
        f"{row.label:38s} {row.input:45s} {row.workers:2d} {row.megabytes:7.1f} "
        f"{row.revisions:10,d} {row.seconds:6.2f} {row.rate:6.1f} {row.rate / row.workers:6.1f} "
        f"{cpu} {row.revisions / row.seconds:6.0f} {row.peak_rss / 1e6:6.0f} "
        f"{sum(d.chars for d in row.done):11,d} {others}",
        flush=True,
    )


def slice_runs(path: str) -> list[tuple[str, str, str, int]]:
    """The reference runs on the slice, one worker each."""
    return [
        ("lxml iterparse alone", path, "lxml", 1),
        ("mwxml alone (text read)", path, "mwxml", 1),
        ("our reader alone", path, "reader", 1),
        ("reader + fast lead", path, "lead", 1),
        ("reader + fast whole + sentences", path, "whole", 1),
        ("reader + mwparserfromhell lead", path, "exact-lead", 1),
    ]


def scale_runs(articles: str, history: str) -> list[tuple[str, str, str, int]]:
    """The runs the targets are judged on."""
    return [
        *((f"leads, {w} worker(s)", articles, "lead", w) for w in (1, 2)),
        *((f"whole + sentences, {w} worker(s)", articles, "whole", w) for w in (1, 2)),
        *((f"history: metadata + lead, {w} worker(s)", history, "lead", w) for w in (1, 2)),
    ]


def verdicts(rows: list[Row]) -> list[str]:
    """One line per target: the figure it is judged on, and met or not."""
    by = {(r.label, r.workers): r for r in rows}
    lines = []
    for name, label, target in (
        ("leads", "leads", LEAD_TARGET),
        ("whole pages + sentences", "whole + sentences", WHOLE_TARGET),
    ):
        one, two = by[(f"{label}, 1 worker(s)", 1)], by[(f"{label}, 2 worker(s)", 2)]
        # per core with 2 workers: XML per CPU second of each, which other jobs on a shared
        # machine cannot lower the way they lower the wall-clock figure
        met = one.rate >= target and two.per_cpu_second >= target
        lines.append(
            f"{name}: 1 worker {one.rate:.1f} MB/s ({one.per_cpu_second:.1f} MB/cpu-s); "
            f"2 workers {two.per_cpu_second:.1f} MB/cpu-s each, {two.rate:.1f} MB/s in all "
            f"({two.rate / 2:.1f} per worker); target ≥ {target:.0f} MB/s per core: "
            f"{'MET' if met else 'NOT MET'}"
        )
    history = [r for r in rows if r.label.startswith("history")]
    lines += [
        f"history: {r.revisions / r.seconds:,.0f} revisions/s with {r.workers} worker(s)"
        for r in history
    ]
    big = [r for r in rows if r.label[0:5] in ("leads", "whole")]
    peak = max(r.peak_rss for r in big)
    lines.append(f"peak RSS of a worker on the {big[0].megabytes:.0f} MB file: {peak / 1e6:.0f} MB")
    return lines


def main() -> None:
    """Generate the inputs if missing, run everything, print the table and the verdicts."""
    parser = argparse.ArgumentParser(prog="python -m bench.xml_bench")
    parser.add_argument("--data", type=Path, default=DATA_DIR)
    parser.add_argument("--size-mb", type=int, default=1000)
    parser.add_argument("--slice-mb", type=int, default=50)
    args = parser.parse_args()
    inputs = ensure_inputs(args.data, args.size_mb, args.slice_mb)
    print(f"load average before: {loadavg()}", flush=True)
    print(HEADER)
    runs = slice_runs(inputs.slice.path) + scale_runs(inputs.articles.path, inputs.history.path)
    rows: list[Row] = []
    for label, path, mode, workers in runs:
        if available(mode):
            rows.append(measure(label, path, mode, workers))
            show(rows[-1])
    if inputs.compressed is not None and shutil.which("lbzip2"):
        xml_bytes = Path(str(inputs.compressed).removesuffix(".bz2")).stat().st_size
        for threads in (1, 2):
            label = f"lbzip2 -dc, {threads} thread(s)"
            rows.append(decompression(label, inputs.compressed, threads, xml_bytes))
            show(rows[-1])
    print(f"load average after: {loadavg()}")
    for line in verdicts(rows):
        print(line)
    results = args.data / "results"
    results.mkdir(exist_ok=True)
    out = results / time.strftime("xml_bench-%Y%m%d-%H%M%S.json")
    out.write_text(json.dumps([asdict(row) for row in rows], indent=1) + "\n")
    print(f"results: {out}")


if __name__ == "__main__":
    main()
