"""Reading an exported folder for the audit: its splits' records and ``kgdiff_build.json``.

Only the columns the checks read are loaded; a column a config does not have is simply not
there (the checks that need it say "not applicable").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.errors import InputError, UsageError

BUILD_FILE = "kgdiff_build.json"
CONFIG_ORDER = ("qa", "multi_hop", "updates", "temporal", "pools")
"""The configs in the order the export writes them; others follow by name."""
SPLIT_ORDER = (
    "stable",
    "evolved",
    "uncharted",
    "hops_2",
    "hops_3",
    "updates",
    "timestamp",
    "interval",
    "implicit",
    "unanswerable",
    "dynamic",
    "static",
)
"""The splits in the order docs/benchmark-export.md lists them; others follow by name."""
AUDITED_COLUMNS = (
    "id",
    "subject",
    "subject_label",
    "pid",
    "level",
    "kind",
    "state",
    "change_nature",
    "question",
    "cloze",
    "hop_questions",
    "tf_statement",
    "tf_label",
    "answers",
    "answer_labels",
    "latest",
    "outdated",
    "objects",
    "object_labels",
    "earlier_objects",
    "later_objects",
    "outdated_answers",
    "options",
    "choice_types",
    "gold",
    "date_precision",
    "duration_unit",
    "hop_subject_labels",
    "hop_object_labels",
    "context",
    "hop_contexts",
    "supported",
)
"""Every column a check reads."""


@dataclass(frozen=True)
class Split:
    """One split of one config: where its Parquet file is."""

    config: str
    split: str
    path: Path


def _rank(name: str, order: tuple[str, ...]) -> tuple[int, str]:
    return (order.index(name) if name in order else len(order), name)


def read_build(folder: Path) -> dict[str, Any]:
    """``kgdiff_build.json`` of an export ({} when there is none); an error naming the file
    when it is not a JSON object."""
    path = folder / BUILD_FILE
    if not path.is_file():
        return {}
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not readable JSON ({exc}); export the folder again") from exc
    if not isinstance(document, dict):
        raise InputError(f"{path}: not a JSON object; export the folder again")
    return document


def export_splits(folder: Path) -> Iterator[Split]:
    """The splits of the folder (``data/<config>/<split>.parquet``): configs and splits in
    the export's order (:data:`CONFIG_ORDER`, :data:`SPLIT_ORDER`), others by name."""
    data = folder / "data"
    if not data.is_dir():
        what = "no such folder" if not folder.is_dir() else "no data/ folder in it"
        raise UsageError(f"{folder}: {what}; give the folder of an exported benchmark")
    configs = sorted(
        (p.name for p in data.iterdir() if p.is_dir()), key=lambda c: _rank(c, CONFIG_ORDER)
    )
    for config in configs:
        names = [p.stem for p in (data / config).glob("*.parquet")]
        for split in sorted(names, key=lambda s: _rank(s, SPLIT_ORDER)):
            yield Split(config, split, data / config / f"{split}.parquet")


def read_split(split: Split) -> pl.DataFrame:
    """The audited columns of a split that it has, one row per record."""
    try:
        names = pq.read_schema(split.path).names
        wanted = [name for name in AUDITED_COLUMNS if name in names]
        return pl.read_parquet(split.path, columns=wanted)
    except (pa.ArrowException, pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(
            f"{split.path}: not a readable Parquet file ({exc}); export the folder again"
        ) from exc
