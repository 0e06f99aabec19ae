"""Point requests at several store sizes (issue 36): an entity, its timeline and its facts at a
cutoff, each asked through the Python API on the store's lookup and facts copies, and the
timelines of the entities with the most statements (asked first, then again), in CPU
milliseconds per request, with the exponent of their growth between sizes; with
``--checkout DIR``, the kgdiff of that source tree (a worktree of an older commit) beside this
one, store by store, in the same run.

    .venv/bin/python -m bench.point_bench --store SMALL --store LARGE [--checkout DIR]
        [--cutoff 2022-07-01] [--subjects 40] [--rounds 3]

Each kgdiff runs bench/point_once.py in a process of its own on the same subjects. A kgdiff
makes the copies of its own layout when they are missing and removes another layout's: the
copies present before each run are kept aside (hard links) and put back after it, so that two
layouts' copies are each made once, not at every run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import shutil
import subprocess
from pathlib import Path

from bench.serve_load import checkout_env, checkout_python
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("entity", "timeline", "facts", "largest_first", "largest_again")
HEAD = "this tree"


def statements(store: Path) -> int:
    """The statements of the store's largest snapshot."""
    return max(m.counts.get("statements", 0) for m in list_snapshots(StoreLayout.resolve(store)))


def run_once(store: Path, checkout: Path | None, args: argparse.Namespace) -> dict[str, object]:
    """bench/point_once.py on ``store`` by the kgdiff of ``checkout`` (None: this tree)."""
    copies = store / "builds" / "lookup"
    aside = store / "builds" / ".point-bench-aside"
    shutil.rmtree(aside, ignore_errors=True)
    aside.mkdir(parents=True)
    for made in copies.glob("*.duckdb") if copies.is_dir() else ():
        os.link(made, aside / made.name)
    script = str(ROOT / "bench" / "point_once.py")
    command = [checkout_python(checkout), script, str(store), args.cutoff]
    command += [str(args.subjects), str(args.rounds)]
    try:
        done = subprocess.run(
            command, env=checkout_env(checkout), capture_output=True, text=True, check=True
        )
    finally:
        for kept in aside.iterdir():
            if not (copies / kept.name).exists():
                os.link(kept, copies / kept.name)
        shutil.rmtree(aside, ignore_errors=True)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, action="append", required=True)
    parser.add_argument("--checkout", type=Path, help="also run the kgdiff of this tree")
    parser.add_argument("--cutoff", default="2022-07-01")
    parser.add_argument("--subjects", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees: list[tuple[str, Path | None]] = [(HEAD, None)]
    if args.checkout is not None:
        trees.insert(0, (str(args.checkout), args.checkout))
    rows = []
    for store in sorted(args.store, key=statements):
        for name, checkout in trees:
            row = {"store": str(store), "statements": statements(store), "kgdiff": name}
            row |= run_once(store, checkout, args)
            print(json.dumps(row), flush=True)
            rows.append(row)
    report(rows, [name for name, _ in trees])


def report(rows: list[dict[str, object]], trees: list[str]) -> None:
    """The table of every run, then each kgdiff's growth exponent per request kind."""
    print("| statements | kgdiff | layout | " + " | ".join(f"{k} ms" for k in KINDS) + " |")
    print("|---:|---|---:|" + "---:|" * len(KINDS))
    for row in rows:
        cells = [f"{row['statements']:,}", str(row["kgdiff"]), str(row["layout"])]
        cells += [f"{row[k]}" for k in KINDS]
        print("| " + " | ".join(cells) + " |")
    for tree in trees:
        runs = [row for row in rows if row["kgdiff"] == tree]
        for small, large in itertools.pairwise(runs):
            ratio = math.log(float(str(large["statements"])) / float(str(small["statements"])))
            growth = {
                kind: round(math.log(float(str(large[kind])) / float(str(small[kind]))) / ratio, 2)
                for kind in KINDS
            }
            print(f"exponent {tree}, {small['statements']:,} → {large['statements']:,}: {growth}")


if __name__ == "__main__":
    main()
