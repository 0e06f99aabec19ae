"""The benchmark export at scale (issues 24 and 36): ``kgdiff export benchmark`` timed with the
CPU seconds and peak RSS of its process tree (bench/rss.py), on bench stores of several sizes,
and, with ``--base REV``, the same export of another git revision beside it, in one run.

    .venv/bin/python -m bench.export_bench --store DIR [--store DIR ...] [--base REV]
        [--configs qa] [--init D] [--cutoff D] [--current D] [--runs 1] [--nice 10]
        [--out /tmp/export-bench] [--json F.json]

``--store`` exports a store where it is (only the classification build the first export
makes, under its ``builds/``, is written into it; give stores a classification already
exists for, or expect the first run to make it); ``--data`` copies a store to a temporary
folder first (as before). With ``--base`` the base revision (a temporary git worktree, with
this tree's native extension) and this working tree export each store in turn, base first,
``--runs`` rounds; each run writes its folder under ``--out`` and the two revisions' data
files are compared by SHA-256 (``identical``). Prints one JSON line per run, then a table:
store, statements, revision, records, wall and CPU seconds, peak RSS.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.revisions_ab import checkout
from bench.rss import run_measured

ROOT = Path(__file__).resolve().parent.parent
HEAD = "this tree"


@dataclass(frozen=True)
class Run:
    """One export measured."""

    store: str
    statements: int
    revision: str
    configs: str
    run: int
    seconds: float
    cpu_seconds: float
    peak_rss_mb: int
    records: int
    returncode: int
    identical: bool | None = None
    """Whether its data files equal the base revision's (None: no base, or not compared)."""


def statements(store: Path) -> int:
    """The statements of the store's largest snapshot (its manifests' counts)."""
    counts = [
        json.loads(path.read_text()).get("counts", {}).get("statements", 0)
        for path in store.glob("snapshots/*/manifest.json")
    ]
    return max(counts, default=0)


def data_digests(folder: Path) -> dict[str, str]:
    """The SHA-256 of every file under ``folder/data``, by relative path."""
    found: dict[str, str] = {}
    for path in sorted((folder / "data").rglob("*")):
        if path.is_file():
            digest = hashlib.sha256()
            with path.open("rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
            found[str(path.relative_to(folder))] = digest.hexdigest()
    return found


def records(folder: Path) -> int:
    """The records the export wrote (its ``kgdiff_build.json``), 0 without one."""
    build = folder / "kgdiff_build.json"
    if not build.is_file():
        return 0
    configs = json.loads(build.read_text()).get("configs", {})
    return sum(
        split.get("records", 0)
        for config in configs.values()
        for split in config.get("splits", {}).values()
    )


def export_command(args: argparse.Namespace, store: Path, out: Path) -> list[str]:
    """``kgdiff export benchmark`` of ``store`` into ``out``, niced."""
    command = ["nice", "-n", str(args.nice)] if args.nice else []
    command += [sys.executable, "-m", "kgdiff", "export", "benchmark", "--cutoff", args.cutoff]
    for flag in ("init", "current"):
        if getattr(args, flag):
            command += [f"--{flag}", getattr(args, flag)]
    command += ["--configs", args.configs, "--store", str(store), "--out", str(out), "--force"]
    return command


def measure(
    args: argparse.Namespace, tree: Path, revision: str, store: Path, out: Path, run: int
) -> Run:
    """One export of ``store`` by the code of ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    # no PSS: nothing forks, and sampling it stalls the export (bench/rss.py)
    measured = run_measured(export_command(args, store, out), cwd=tree, env=env, pss=False)
    if measured.returncode != 0:
        print(measured.stderr.strip()[-2000:], file=sys.stderr)
    return Run(
        str(store), statements(store), revision, args.configs, run, round(measured.seconds, 1),
        round(measured.cpu_seconds, 1), round(measured.peak_rss_bytes / 2**20),
        records(out), measured.returncode,
    )  # fmt: skip


@contextmanager
def stores(args: argparse.Namespace) -> Iterator[list[Path]]:
    """The stores to export: ``--store`` as they are, ``--data`` copied to a temporary
    folder."""
    with tempfile.TemporaryDirectory(prefix="export-bench-") as work:
        copies = []
        for index, data in enumerate(args.data):
            copy = Path(work) / f"store-{index}"
            shutil.copytree(data, copy)
            copies.append(copy)
        yield [*args.store, *copies]


def table(runs: list[Run]) -> str:
    """The runs as a Markdown table."""
    lines = [
        "| store | statements | revision | configs | records | s | CPU s | peak RSS MB"
        " | same data |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        same = "" if r.identical is None else ("yes" if r.identical else "no")
        lines.append(
            f"| {r.store} | {r.statements:,} | {r.revision} | {r.configs} | {r.records:,} |"
            f" {r.seconds:,.0f} | {r.cpu_seconds:,.0f} | {r.peak_rss_mb:,} | {same} |"
        )
    return "\n".join(lines)


def bench(args: argparse.Namespace, trees: list[tuple[str, Path]]) -> list[Run]:
    """Every run, base before this tree for each store and round."""
    runs: list[Run] = []
    args.out.mkdir(parents=True, exist_ok=True)
    with stores(args) as found:
        for run in range(1, args.runs + 1):
            for index, store in enumerate(found):
                folders: dict[str, Path] = {}
                for revision, tree in trees:
                    out = args.out / f"{index}-{'base' if revision != HEAD else 'head'}"
                    done = measure(args, tree, revision, store, out, run)
                    folders[revision] = out
                    if args.base and revision == HEAD and done.returncode == 0:
                        same = data_digests(folders[args.base]) == data_digests(out)
                        done = Run(**{**asdict(done), "identical": same})
                    print(json.dumps(asdict(done)), flush=True)
                    runs.append(done)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", type=Path, action="append", default=[])
    parser.add_argument("--data", type=Path, action="append", default=[])
    parser.add_argument("--base", help="a git revision exported beside this tree")
    parser.add_argument("--configs", default="qa")
    parser.add_argument("--init")
    parser.add_argument("--cutoff", default="2022-07-01")
    parser.add_argument("--current")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--nice", type=int, default=10)
    parser.add_argument("--out", type=Path, default=Path("/tmp/export-bench"))
    parser.add_argument("--json", type=Path, help="also write the runs to this file")
    args = parser.parse_args()
    if not args.store and not args.data:
        parser.error("give a store: --store DIR (exported in place) or --data DIR (copied)")
    with tempfile.TemporaryDirectory(prefix="export-bench-trees-") as scratch:
        trees = [(HEAD, ROOT)]
        if args.base:
            trees.insert(0, (args.base, checkout(args.base, Path(scratch))))
        try:
            runs = bench(args, trees)
        finally:
            for revision, tree in trees:
                if revision != HEAD:
                    remove = ["git", "worktree", "remove", "--force", str(tree)]
                    subprocess.run(remove, cwd=ROOT, check=False, capture_output=True)
    print(table(runs))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in runs], indent=1))


if __name__ == "__main__":
    main()
