"""Reading an exported benchmark folder: its configs' splits and their records.

The folder's layout (``kgdiff export benchmark``): ``data/<config>/<split>.parquet`` with a
JSON lines mirror ``data/<config>/<split>.jsonl`` beside each, ``README.md`` (the dataset card)
and ``kgdiff_build.json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.errors import InputError, UsageError

SPLIT_ORDER = ("stable", "evolved", "uncharted")
"""The ``qa`` splits in the order reports list them; other splits follow by name."""


def config_folder(dataset_dir: Path, config: str) -> Path:
    """``DIR/data/<config>``, or an error naming what the folder holds instead."""
    folder = dataset_dir / "data" / config
    if folder.is_dir():
        return folder
    if not dataset_dir.is_dir():
        raise UsageError(f"{dataset_dir}: no such folder; give the folder of an exported benchmark")
    found = sorted(p.name for p in (dataset_dir / "data").glob("*") if p.is_dir())
    held = f"its configs are {', '.join(found)}" if found else "it has no data/<config>/ folder"
    raise UsageError(f"{dataset_dir}: no {config} config ({held})")


def split_order(name: str) -> tuple[int, str]:
    """Sort key of a split: stable, evolved and uncharted first, then by name."""
    rank = SPLIT_ORDER.index(name) if name in SPLIT_ORDER else len(SPLIT_ORDER)
    return rank, name


def dataset_splits(dataset_dir: Path, config: str) -> list[str]:
    """The splits of ``config`` (its Parquet files), in :func:`split_order`."""
    names = [path.stem for path in config_folder(dataset_dir, config).glob("*.parquet")]
    if not names:
        raise InputError(f"{dataset_dir / 'data' / config}: no split (no *.parquet file)")
    return sorted(names, key=split_order)


def split_path(dataset_dir: Path, config: str, split: str, suffix: str = ".parquet") -> Path:
    """The file of one split; a usage error naming the splits there are when it is missing."""
    path = config_folder(dataset_dir, config) / f"{split}{suffix}"
    if path.is_file():
        return path
    if suffix == ".parquet":
        known = ", ".join(dataset_splits(dataset_dir, config))
        raise UsageError(f"{path}: the {config} config has no split {split!r} (it has {known})")
    raise InputError(f"{path}: missing; every split has a Parquet file and a JSON lines mirror")


def parquet_schema(path: Path) -> tuple[list[str], int]:
    """The column names and the row count of a Parquet file (read from its footer)."""
    try:
        metadata = pq.read_metadata(path)
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"{path}: not a readable Parquet file ({exc})") from exc
    return list(metadata.schema.to_arrow_schema().names), metadata.num_rows


def read_records(
    dataset_dir: Path,
    config: str,
    splits: Sequence[str] | None = None,
    required: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """The records of ``splits`` of ``config`` (every split when none is named), split after
    split in the order given, each as a dict of Python values. A file without one of the
    ``required`` columns is an :class:`~kgdiff.errors.InputError` naming the file."""
    chosen = list(splits) if splits else dataset_splits(dataset_dir, config)
    rows: list[dict[str, Any]] = []
    for split in chosen:
        path = split_path(dataset_dir, config, split)
        columns, _ = parquet_schema(path)
        missing = [name for name in required if name not in columns]
        if missing:
            raise InputError(f"{path}: no {', '.join(missing)} column; scoring reads it")
        try:
            rows += pq.read_table(path).to_pylist()
        except (pa.ArrowException, OSError) as exc:
            raise InputError(f"{path}: not a readable Parquet file ({exc})") from exc
    return rows
