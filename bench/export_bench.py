"""The benchmark export at scale (issue 24): ``kgdiff export benchmark`` on a copy of a bench
store (the store is copied so that the classification build and nothing else lands beside the
shared one), timed with the peak RSS of its process tree (bench/rss.py).

    .venv/bin/python -m bench.export_bench [--data /work/bench-data/classify/3x5M]
        [--configs qa,multi_hop,updates] [--cutoff 2022-07-01] [--runs 2]

The first run builds the classification if the copy has none for the dates; later runs reuse
it, so they measure the export alone. Prints one JSON line per run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from bench.rss import run_measured

DEFAULT_DATA = Path("/work/bench-data/classify/3x5M")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--configs", default="qa,multi_hop,updates")
    parser.add_argument("--cutoff", default="2022-07-01")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="export-bench-") as work:
        store = Path(work) / "store"
        shutil.copytree(args.data, store)
        command = [
            sys.executable, "-m", "kgdiff", "export", "benchmark", "--cutoff", args.cutoff,
            "--configs", args.configs, "--store", str(store), "--out", str(Path(work) / "out"),
            "--force",
        ]  # fmt: skip
        for run in range(args.runs):
            # no PSS: nothing forks, and sampling it stalls the export (bench/rss.py)
            measured = run_measured(command, pss=False)
            figures = {
                "data": str(args.data),
                "configs": args.configs,
                "run": run + 1,
                "seconds": round(measured.seconds, 1),
                "peak_rss_mb": round(measured.peak_rss_bytes / 2**20),
                "cpu_seconds": round(measured.cpu_seconds, 1),
                "returncode": measured.returncode,
            }
            print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
