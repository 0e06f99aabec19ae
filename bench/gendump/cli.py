"""The command line of ``python -m bench.gendump``: options, then generate or reuse the files.

Options::

    --size-mb N     target size of NAME.json in MiB (required)
    --out DIR       output directory (required)
    --formats F     comma-separated subset of json,gz,bz2,zst (default json,gz,bz2)
    --seed S        RNG seed (default 0)
    --name NAME     dump base name (default wikidata-20240101-all)
    --real-data D   the folder of real samples the entities are taken from (bench/README.md)

Prints one line per output file with its size, then the total time.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench.gendump.cache import make_dump
from bench.gendump.templates import REAL_DATA

FORMATS = {"json", "gz", "bz2", "zst"}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    from bench import gendump  # the package docstring, once the package is loaded

    summary = (gendump.__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m bench.gendump", description=summary)
    parser.add_argument("--size-mb", type=float, required=True, help="target size in MiB")
    parser.add_argument("--out", type=Path, required=True, help="output directory")
    parser.add_argument("--formats", default="json,gz,bz2", help="json,gz,bz2[,zst]")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--name", default="wikidata-20240101-all", help="dump base name")
    parser.add_argument(
        "--real-data", type=Path, default=REAL_DATA, help="real samples (see bench/README.md)"
    )
    args = parser.parse_args(argv)
    args.formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    unknown = set(args.formats) - FORMATS
    if unknown or args.size_mb <= 0:
        parser.error(f"bad --formats {sorted(unknown)} or --size-mb {args.size_mb}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(argv)
    start = time.perf_counter()
    entry = make_dump(args)
    for name, record in sorted(entry["files"].items()):
        print(f"{args.out / name}  {record['bytes']:,} bytes")
    print(f"total {time.perf_counter() - start:.1f} s")
    return 0
