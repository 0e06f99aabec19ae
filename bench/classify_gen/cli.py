"""Command line: ``python -m bench.classify_gen --statements N --snapshots K --out DIR``."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from bench.classify_gen.generate import generate
from bench.classify_gen.model import GenParams


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.classify_gen",
        description="Generate a synthetic kgdiff store (Parquet snapshots) to benchmark classify.",
    )
    parser.add_argument("--statements", type=int, required=True, help="rows of the first snapshot")
    parser.add_argument("--snapshots", type=int, default=3)
    parser.add_argument("--out", type=Path, required=True, help="store directory to write")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--start", default="2022-01-01", help="date of the first snapshot")
    parser.add_argument("--months-between", type=int, default=6)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--memory-limit", default="6GB", help="DuckDB limit while generating")
    parser.add_argument(
        "--check", action="store_true", help="print shape and churn figures of the store"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Generate (or reuse) the store and print a one-line JSON summary."""
    args = parse_args(argv)
    if args.snapshots < 1 or args.statements < 1:
        raise SystemExit("--statements and --snapshots must be positive")
    params = GenParams(
        statements=args.statements,
        snapshots=args.snapshots,
        seed=args.seed,
        start=args.start,
        months_between=args.months_between,
    )
    start = time.perf_counter()
    report = generate(args.out, params, args.threads, args.memory_limit)
    summary = {
        "out": str(args.out),
        "reused": report["reused"],
        "seconds": round(time.perf_counter() - start, 1),
        "snapshots": report["snapshots"],
        "timings": report["timings"],
    }
    print(json.dumps(summary, indent=2))
    if args.check:
        from bench.classify_gen.check import print_checks, print_shapes

        print_checks(args.out)
        print_shapes(args.out)
    return 0
