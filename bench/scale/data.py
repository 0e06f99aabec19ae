"""The ladder's inputs, made once per size and kept under ``DIR``:

- ``DIR/stores/3xSIZE``: the generated store (``bench.classify_gen``: three snapshots of SIZE
  statements, six months apart), reused while its parameters are the same;
- ``DIR/dumps/SIZE/wikidata-YYYYMMDD-all.json.gz``: the JSON dump of its first snapshot
  (:mod:`bench.scale.dump`), what the ``ingest`` step reads;
- ``DIR/wikipedia/SIZE/enwiki-YYYYMMDD-pages-articles.xml.gz``: the synthetic Wikipedia of its
  latest snapshot (:mod:`bench.scale.wikipedia`), what ``ingest-wikipedia`` reads.

A dump or Wikipedia file is remade when the store it came from changed (its ``gen.json``
digest, recorded in ``made.json`` beside the file). The work store a run measures is
fresh each time: the generated snapshots hard-linked into ``DIR/work/3xSIZE`` (no copy, no
builds: nothing a previous run made is reused).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

from bench.scale.dump import write_dump
from bench.scale.sizes import label
from bench.scale.wikipedia import write_wikipedia
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots, refresh_catalog

RECORD = "made.json"
VERSION = 1
"""Bump when the dump or Wikipedia writers change what they write."""


GEN_MEMORY = "12GB"
"""DuckDB's limit while a rung's store is generated (half of the 24 GB machine)."""


def store_path(data: Path, size: int) -> Path:
    """Where the generated store of ``size`` lives."""
    return data / "stores" / f"3x{label(size)}"


def ensure_store(data: Path, size: int, seed: int) -> Path:
    """Generate (or reuse) the store of ``size``; return its folder."""
    store = store_path(data, size)
    # the generator is not measured; its entities table aggregates the P31 list of every
    # subject, which DuckDB cannot spill: 3 GB ran out at 3 x 100 M (25 M subjects)
    command = [
        sys.executable, "-m", "bench.classify_gen", "--statements", str(size),
        "--snapshots", "3", "--out", str(store), "--seed", str(seed), "--memory-limit", GEN_MEMORY,
    ]  # fmt: skip
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return store


def digest(store: Path) -> str:
    """The generated store's parameters digest (``gen.json``)."""
    return str(json.loads((store / "gen.json").read_text())["digest"])


def snapshot_dates(store: Path) -> list[tuple[str, date]]:
    """(name, date) of every snapshot of a store, oldest first."""
    found = list_snapshots(StoreLayout(store.resolve()))
    return [(m.name, date.fromisoformat(m.date)) for m in found]


def _made(path: Path, store: Path) -> bool:
    """True when ``path`` exists and was made from the store as it is now."""
    record = path.parent / RECORD
    if not path.is_file() or not record.is_file():
        return False
    made = json.loads(record.read_text())
    return bool(made.get("digest") == digest(store) and made.get("version") == VERSION)


def _record(path: Path, store: Path, **figures: object) -> None:
    record = {"digest": digest(store), "version": VERSION, "file": path.name, **figures}
    (path.parent / RECORD).write_text(json.dumps(record, indent=2) + "\n")


def ensure_dump(data: Path, size: int, store: Path) -> Path:
    """The JSON dump of the store's first snapshot (made unless current)."""
    name, day = snapshot_dates(store)[0]
    path = data / "dumps" / label(size) / f"wikidata-{day:%Y%m%d}-all.json.gz"
    if _made(path, store):
        return path
    _clear(path.parent)
    started = time.monotonic()
    written = write_dump(StoreLayout(store.resolve()).snapshot_dir(name), path)
    _record(path, store, json_bytes=written, seconds=round(time.monotonic() - started, 1))
    return path


def ensure_wikipedia(data: Path, size: int, store: Path) -> Path:
    """The synthetic Wikipedia of the store's latest snapshot (made unless current)."""
    name, day = snapshot_dates(store)[-1]
    path = data / "wikipedia" / label(size) / f"enwiki-{day:%Y%m%d}-pages-articles.xml.gz"
    if _made(path, store):
        return path
    _clear(path.parent)
    started = time.monotonic()
    snapshot = StoreLayout(store.resolve()).snapshot_dir(name)
    pages, written = write_wikipedia(snapshot, day, path)
    seconds = round(time.monotonic() - started, 1)
    _record(path, store, pages=pages, xml_bytes=written, seconds=seconds)
    return path


def _clear(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)


def work_store(data: Path, store: Path, name: str) -> Path:
    """A fresh store ``DIR/work/NAME`` holding the generated snapshots as hard links."""
    work = data / "work" / name
    shutil.rmtree(work, ignore_errors=True)
    (work / "snapshots").mkdir(parents=True)
    for folder in sorted((store / "snapshots").iterdir()):
        if folder.name.startswith("snapshot="):
            shutil.copytree(folder, work / "snapshots" / folder.name, copy_function=_link)
    refresh_catalog(StoreLayout(work.resolve()))
    return work


def _link(source: str, target: str) -> None:
    Path(target).hardlink_to(source)


def tree_bytes(path: Path, skip: str | None = None) -> int:
    """Bytes of the files under ``path`` (a file: its size), leaving out the top-level
    folder named ``skip`` (a work store's hard-linked snapshots)."""
    if path.is_file():
        return path.stat().st_size
    if not path.is_dir():
        return 0
    total = 0
    for child in path.iterdir():
        if child.name == skip:
            continue
        if child.is_dir() and not child.is_symlink():
            total += tree_bytes(child)
        elif child.is_file():
            total += child.stat().st_size
    return total
