"""Command line: ``python -m bench.refresh_gen --store DIR --base A --target B --out DIR``."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from bench.refresh_gen.generate import RANGE_ENTITIES, Options, generate


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.refresh_gen",
        description="Write two snapshots of a synthetic store as JSON dumps, and the changes"
        " between them as a daily incremental XML dump and a list of deleted ids.",
    )
    parser.add_argument("--store", type=Path, required=True, help="a bench.classify_gen store")
    parser.add_argument("--base", required=True, help="the snapshot the refresh starts from")
    parser.add_argument("--target", required=True, help="the snapshot whose state it reaches")
    parser.add_argument("--out", type=Path, required=True, help="the folder to write")
    parser.add_argument(
        "--share", type=float, default=1.0, help="keep this share of the changes (0 to 1)"
    )
    parser.add_argument(
        "--texts",
        type=Path,
        help="the folder caching the snapshots' entity texts (default --out; share it between"
        " runs of one store at several --share)",
    )
    parser.add_argument(
        "--range-entities",
        type=int,
        default=RANGE_ENTITIES,
        help="entities a query for their texts takes at once (memory)",
    )
    parser.add_argument(
        "--no-base-dump",
        dest="write_base",
        action="store_false",
        help="leave out base.json (for a bench store that already holds the base)",
    )
    parser.add_argument(
        "--no-target-dump",
        dest="write_target",
        action="store_false",
        help="leave out target.json (only the refresh is measured: a store too large to write"
        " its full dump beside it)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Write the dumps and print their figures as JSON."""
    args = parse_args(argv)
    if not 0 < args.share <= 1:
        raise SystemExit("--share must be in (0, 1]")
    start = time.perf_counter()
    options = Options(
        args.share, args.texts, max(1, args.range_entities), args.write_base, args.write_target
    )
    figures = generate(args.store, args.base, args.target, args.out, options)
    summary = {"seconds": round(time.perf_counter() - start, 1), **figures.__dict__}
    print(json.dumps(summary, indent=2))
    return 0
