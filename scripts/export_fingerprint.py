"""The benchmark export's fingerprint on the demo's store (tests/test_export_fingerprint.py).

Per export, config and split: the number of records and the SHA-256 of the records as canonical
JSON lines (keys sorted), read from the split's Parquet file. The committed fingerprint,
``tests/data/export_fingerprint.json``, is what the export made when it was last changed on
purpose; the test exports the demo's store again and compares, so that a change meant to move
code (a new layout, a refactoring) is seen to leave every record as it was.

    .venv/bin/python scripts/export_fingerprint.py [--store DIR]            print it
    .venv/bin/python scripts/export_fingerprint.py [--store DIR] --write    rewrite the file

Without ``--store`` the demo's store is built in a temporary folder (``kgdiff demo``, half a
minute); a given store is copied first, as an export adds its classifications to it.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

import orjson
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
FINGERPRINT = ROOT / "tests" / "data" / "export_fingerprint.json"
CONFIGS = ("qa", "multi_hop", "updates", "temporal", "pools")
EXPORTS: dict[str, dict[str, Any]] = {
    "demo": {"cutoff": date(2014, 10, 11)},
    "samples": {
        "init": date(2013, 12, 21),
        "cutoff": date(2013, 12, 25),
        "current": date(2014, 10, 11),
        "allow_gap": True,
    },
}
"""The exports fingerprinted, every config at seed 0: ``kgdiff export benchmark --cutoff
2014-10-11`` at the demo's dates, and the blind reads' window over the first two dumps (whose
``qa`` has records in every split)."""

Fingerprint = dict[str, dict[str, dict[str, dict[str, int | str]]]]


def split_fingerprint(parquet: Path) -> dict[str, int | str]:
    """The records of one split's Parquet file: their number and the SHA-256 of their
    canonical JSON lines."""
    rows = pq.read_table(parquet).to_pylist()
    digest = hashlib.sha256()
    for row in rows:
        digest.update(orjson.dumps(row, option=orjson.OPT_SORT_KEYS) + b"\n")
    return {"records": len(rows), "sha256": digest.hexdigest()}


def folder_fingerprint(folder: Path) -> dict[str, dict[str, dict[str, int | str]]]:
    """Every config and split of an exported benchmark folder."""
    return {
        config.name: {
            split.stem: split_fingerprint(split) for split in sorted(config.glob("*.parquet"))
        }
        for config in sorted((folder / "data").iterdir())
        if config.is_dir()
    }


def export_fingerprint(store: Path, work: Path) -> Fingerprint:
    """Export every entry of :data:`EXPORTS` from a copy of ``store`` (a demo store) into
    ``work`` and fingerprint the folders."""
    import kgdiff
    from kgdiff.export.benchmark import export_benchmark
    from kgdiff.export.core.benchmark_model import BenchmarkRequest
    from kgdiff.temporal.dates import GapPolicy

    found: Fingerprint = {}
    for name, fields in EXPORTS.items():
        copy = shutil.copytree(store, work / name / "store")
        dates = {key: value for key, value in fields.items() if key != "allow_gap"}
        gap = GapPolicy(allow=bool(fields.get("allow_gap")))
        request = BenchmarkRequest(seed=0, configs=CONFIGS, gap=gap, **dates)
        done = export_benchmark(kgdiff.open(copy), request, work / name / "bench")
        found[name] = folder_fingerprint(done.out)
    return found


def render(found: Fingerprint) -> str:
    """The fingerprint as the committed file holds it."""
    return orjson.dumps(found, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode() + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the export's fingerprint, or rewrite the committed file with ``--write``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, help="a demo store (default: build one)")
    parser.add_argument("--write", action="store_true", help=f"rewrite {FINGERPRINT.name}")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="export-fingerprint-") as scratch:
        work = Path(scratch)
        store = args.store or _demo_store(work / "demo")
        text = render(export_fingerprint(store, work))
    if args.write:
        FINGERPRINT.write_text(text, encoding="utf-8")
        print(f"written to {FINGERPRINT.relative_to(ROOT)}")
    else:
        sys.stdout.write(text)
    return 0


def _demo_store(store: Path) -> Path:
    from kgdiff.demo import run_demo

    run_demo(store)
    return store


if __name__ == "__main__":
    sys.exit(main())
