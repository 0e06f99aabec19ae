"""Writing an exported benchmark folder: every file into a hidden sibling first, then one
rename into place, so a reader never sees half a dataset and a failed export leaves nothing.

Layout (docs/benchmark-export.md): ``README.md`` (the card), ``kgdiff_build.json``, and per
config and split ``data/<config>/<split>.parquet`` with a JSON lines copy beside it; the export
adds the task files of lm-eval and Inspect under ``tasks/`` (:mod:`kgdiff.export.tasks.writer`)
and its audit through ``finish``, before the folder is moved into place.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.errors import UsageError
from kgdiff.export.core.arrow_frames import arrow_type
from kgdiff.export.core.benchmark_model import BuildFacts, ConfigExport
from kgdiff.export.core.leftovers import replaced_folder, staging_folder
from kgdiff.export.dataset.card import BUILD_FILE, CARD_FILE, build_json, card_text, data_file
from kgdiff.temporal.writers import check_parent


def check_target(out: Path, force: bool) -> None:
    """A usage error, before any work, when ``out`` cannot receive the dataset: not a folder,
    a folder that is not empty (unless ``force``), or a parent that does not exist."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file; give a folder for the dataset")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise UsageError(
            f"--out {out} exists and is not empty; choose a new folder, or add --force to"
            " replace it"
        )
    check_parent(out)


def write_split(
    chunks: Iterable[pl.DataFrame], folder: Path, config: str, split: str, schema: pl.Schema
) -> int:
    """One split as Parquet (a row group per chunk) and JSON lines under ``folder``; the
    number of records written."""
    parquet = folder / data_file(config, split, "parquet")
    parquet.parent.mkdir(parents=True, exist_ok=True)
    arrow = pa.schema([(name, arrow_type(dtype)) for name, dtype in schema.items()])
    written = 0
    with (
        pq.ParquetWriter(parquet, arrow, compression="zstd") as writer,
        (folder / data_file(config, split, "jsonl")).open("wb") as jsonl,
    ):
        for frame in chunks:
            writer.write_table(frame.to_arrow().cast(arrow))
            frame.write_ndjson(jsonl)
            written += frame.height
    return written


def _fill(
    folder: Path,
    configs: Iterable[ConfigExport],
    facts: BuildFacts,
    finish: Callable[[Path], None] | None = None,
) -> list[ConfigExport]:
    written = []
    for config in configs:  # built one after the other, each written before the next is built
        for split, chunks in config.splits.items():
            config.sizes[split] = write_split(chunks, folder, config.name, split, config.schema)
        # what built the records (names, distractors, contexts) is let go before the next
        written.append(replace(config, splits={split: () for split in config.splits}))
        del config
    (folder / CARD_FILE).write_text(card_text(written, facts), encoding="utf-8")
    (folder / BUILD_FILE).write_text(build_json(written, facts), encoding="utf-8")
    if finish is not None:  # e.g. the task files and the audit, before the folder is shown
        finish(folder)
    return written


def _swap_in(staging: Path, out: Path) -> None:
    """Put ``staging`` where ``out`` is (an existing ``out`` leaves only once it is there)."""
    if not out.exists():
        staging.rename(out)
        return
    old = replaced_folder(out)
    out.rename(old)
    staging.rename(out)
    shutil.rmtree(old)


def write_dataset(
    out: Path,
    configs: Iterable[ConfigExport],
    facts: BuildFacts,
    force: bool = False,
    finish: Callable[[Path], None] | None = None,
) -> list[ConfigExport]:
    """Write the dataset folder ``out`` (replacing a non-empty one only with ``force``) and
    return the configs written. ``configs`` may be built lazily: each is written before the
    next is asked for, so one config's records and setting are in memory at a time.
    ``finish`` sees the complete folder before it is moved into place."""
    check_target(out, force)
    staging = staging_folder(out)
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        written = _fill(staging, configs, facts, finish)
        _swap_in(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return written
