"""Compare the end-to-end ingest of two git revisions, alternating, in one run.

Run with ``.venv/bin/python -m bench.revisions_ab --base REV [--head REV] --dump FILE
[--workers N] [--repeat N]``. Each revision is checked out into a temporary git worktree
(with the current ``kgdiff/_native*.so`` copied in, or, when the revision's ``native/``
differs, its own built there), then ``kgdiff ingest wikidata`` runs
from each in turn, ``--repeat`` rounds, into a fresh store every time. Printed per run:
wall seconds, MB/s, CPU seconds and peak RSS of the process tree, and the parse / sort
seconds of the manifest; then the best run of each revision and their ratio. Alternating makes the
ratio hold on a machine whose speed drifts.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from bench.rss import run_measured

ROOT = Path(__file__).resolve().parent.parent


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def _build_native(tree: Path, wheels: Path) -> None:
    """Build ``tree``'s wheel (pip's isolated build) and take its native extension."""
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(tree)]
    subprocess.run(build, check=True, capture_output=True)
    with zipfile.ZipFile(next(wheels.glob("*.whl"))) as wheel:
        for name in wheel.namelist():
            if name.startswith("kgdiff/_native"):
                (tree / name).write_bytes(wheel.read(name))


def checkout(rev: str, scratch: Path) -> Path:
    """A worktree of ``rev`` under ``scratch`` with its native extension: this tree's when
    ``native/`` is the same, else built there (a minute)."""
    tree = scratch / _git("rev-parse", "--short", rev)
    _git("worktree", "add", "--detach", str(tree), rev)
    _link_resources(tree)
    if _git("diff", "--stat", rev, "--", "native/", "setup.py"):
        _build_native(tree, scratch / f"wheel-{tree.name}")
        return tree
    for built in (ROOT / "kgdiff").glob("_native*.so"):
        shutil.copy2(built, tree / "kgdiff" / built.name)
    return tree


RESOURCES = {"sql": "sql", "snapshots": "snapshots"}
"""The folders setup.py installs as ``kgdiff.<name>`` (its RESOURCE_PACKAGES)."""


def _link_resources(tree: Path) -> None:
    """``kgdiff/sql`` → ``sql`` (and the samples) inside ``tree``: run with ``PYTHONPATH``
    set to it, its ``kgdiff`` would else import ``kgdiff.sql`` from the editable install,
    the SQL of this tree rather than of the revision measured."""
    for name, folder in RESOURCES.items():
        link = tree / "kgdiff" / name
        if (tree / folder).is_dir() and not link.exists():
            link.symlink_to(Path("..") / folder, target_is_directory=True)


def ingest_once(tree: Path, dump: Path, workers: int, store: Path) -> dict[str, float]:
    """One ingest from ``tree``; its wall time, peak RSS and manifest timings."""
    shutil.rmtree(store, ignore_errors=True)
    command = [sys.executable, "-m", "kgdiff", "ingest", "wikidata", str(dump)]
    command += ["--workers", str(workers), "--quiet", "--store", str(store)]
    measured = run_measured(command, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)})
    if measured.returncode != 0:
        sys.exit(f"{tree.name}: ingest failed: {measured.stderr.strip()[-500:]}")
    manifest = json.loads(next(store.glob("snapshots/*/manifest.json")).read_text())
    timings = manifest.get("timings", {})
    return {
        "seconds": measured.seconds,
        "cpu": measured.cpu_seconds,
        "rss_mb": measured.peak_rss_bytes / 2**20,
        "parse": timings.get("parse_seconds", 0.0),
        "sort": timings.get("finalize_seconds", 0.0),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--head", default="HEAD")
    parser.add_argument("--dump", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="kgdiff-ab-"))
    trees = {rev: checkout(rev, scratch) for rev in (args.base, args.head)}
    mb = args.dump.stat().st_size / 1e6
    best: dict[str, float] = {}
    best_cpu: dict[str, float] = {}
    try:
        for round_number in range(1, args.repeat + 1):
            for rev, tree in trees.items():
                run = ingest_once(tree, args.dump, args.workers, scratch / "store")
                best[rev] = min(best.get(rev, run["seconds"]), run["seconds"])
                best_cpu[rev] = min(best_cpu.get(rev, run["cpu"]), run["cpu"])
                print(
                    f"round {round_number} {rev:>12}: {run['seconds']:6.2f} s"
                    f" {mb / run['seconds']:6.1f} MB/s  cpu {run['cpu']:6.2f} s"
                    f"  RSS {run['rss_mb']:5.0f} MB"
                    f"  parse {run['parse']:5.2f} s  sort {run['sort']:5.2f} s",
                    flush=True,
                )
    finally:
        for tree in trees.values():
            _git("worktree", "remove", "--force", str(tree))
        shutil.rmtree(scratch, ignore_errors=True)
    base, head = best[args.base], best[args.head]
    cpu_base, cpu_head = best_cpu[args.base], best_cpu[args.head]
    print(
        f"best: {args.base} {base:.2f} s, {args.head} {head:.2f} s; {args.head} is "
        f"{base / head:.2f}x as fast"
    )
    print(
        f"least CPU (whole process tree): {args.base} {cpu_base:.2f} s, {args.head}"
        f" {cpu_head:.2f} s; {args.head} needs {cpu_head / cpu_base:.2f}x the CPU time"
    )


if __name__ == "__main__":
    main()
