"""Cache bookkeeping: ``DIR/gendump.json`` records what was generated, so re-runs reuse it.

The manifest maps each dump name to its parameters (size, seed, generator version), its
files with their sizes, and the generation stats. A file is reused when the parameters
match and it exists with the recorded size; anything else is (re)generated.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from bench.gendump.common import MIB
from bench.gendump.compress import compress
from bench.gendump.emit import write_dump
from bench.gendump.stats import print_stats, summary
from bench.gendump.templates import build_pool

GENERATOR_VERSION = 1
MANIFEST = "gendump.json"


def load_manifest(out_dir: Path) -> dict[str, Any]:
    """The ``gendump.json`` of ``out_dir`` (empty if absent or unreadable)."""
    path = out_dir / MANIFEST
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_manifest(out_dir: Path, manifest: dict[str, Any]) -> None:
    """Write ``gendump.json`` atomically."""
    tmp = out_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    tmp.replace(out_dir / MANIFEST)


def is_current(path: Path, record: dict[str, Any] | None) -> bool:
    """Whether ``path`` exists with the size its manifest ``record`` gives."""
    return record is not None and path.exists() and path.stat().st_size == record.get("bytes")


def make_dump(args: argparse.Namespace) -> dict[str, Any]:
    """Generate (or reuse) ``NAME.json`` and its compressed variants; return the manifest entry."""
    out_dir: Path = args.out
    out_dir.mkdir(parents=True, exist_ok=True)
    params = {"size_mb": args.size_mb, "seed": args.seed, "version": GENERATOR_VERSION}
    manifest = load_manifest(out_dir)
    json_path = out_dir / f"{args.name}.json"
    entry = manifest.get(args.name)
    if (
        entry
        and entry.get("params") == params
        and is_current(json_path, entry.get("files", {}).get(json_path.name))
    ):
        print(f"reusing {json_path} ({entry['files'][json_path.name]['bytes']:,} bytes)")
    else:
        entry = _generate(json_path, params, args)
        manifest[args.name] = entry
        save_manifest(out_dir, manifest)
    _compress_missing(json_path, args.formats, entry, manifest)
    return dict(entry)


def _compress_missing(
    json_path: Path, formats: list[str], entry: dict[str, Any], manifest: dict[str, Any]
) -> None:
    """Compress ``json_path`` into each asked format whose file is not current."""
    out_dir = json_path.parent
    for fmt in (f for f in formats if f != "json"):
        dst = out_dir / f"{json_path.name}.{fmt}"
        if is_current(dst, entry["files"].get(dst.name)):
            print(f"reusing {dst} ({entry['files'][dst.name]['bytes']:,} bytes)")
            continue
        print(f"compressing {dst.name} ...", flush=True)
        record = compress(json_path, fmt)
        print(f"  {record['bytes']:,} bytes in {record['seconds']} s with {record['tool']}")
        entry["files"][dst.name] = record
        save_manifest(out_dir, manifest)


def _generate(json_path: Path, params: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    start = time.perf_counter()
    pool = build_pool(args.real_data)
    print(
        f"templates: {len(pool.items)} items, {len(pool.properties)} properties, "
        f"{len(pool.lexemes)} lexemes, {len(pool.mediainfo)} mediainfo "
        f"({time.perf_counter() - start:.1f} s)"
    )
    stats = write_dump(json_path, int(args.size_mb * MIB), pool, args.seed)
    print_stats(stats, pool)
    record = {"bytes": stats.bytes, "seconds": round(stats.seconds, 2), "tool": "gendump"}
    return {"params": params, "files": {json_path.name: record}, "stats": summary(stats)}
