"""What every ``temporal`` record shares (dates, seed, names, catalogue, snapshot, choices),
and the columns every record has: its subject's label, its relation, its popularity, its
dates (docs/benchmark-export.md#the-temporal-config)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import polars as pl

from kgdiff.export.choice_frames import ChoiceSetting
from kgdiff.export.dataset_schema import TEMPORAL_SCHEMA
from kgdiff.export.names import Names
from kgdiff.export.relation_model import RelationCatalogue


@dataclass(frozen=True)
class TemporalSetting:
    """What every temporal record shares: the dates, the seed, the options' count, the
    names, the subjects' popularity, the catalogue, the snapshot read, and the words and
    distractor tiers the options are chosen from."""

    dates: Mapping[str, str]
    seed: int
    options: int
    names: Names
    popularity: Mapping[str, float]
    catalogue: RelationCatalogue
    snapshot: str | None
    choices: ChoiceSetting


def mapped(values: pl.Expr, frame: pl.DataFrame, word: Callable[[str], str | None]) -> pl.Expr:
    """``values`` (a string column of ``frame``) through ``word``, worked out once per
    distinct value (the names are Python dictionaries; the rows may be many)."""
    distinct = frame.select(values.unique().drop_nulls()).to_series().to_list()
    return values.replace_strict(
        distinct, [word(value) for value in distinct], default=None, return_dtype=pl.String
    )


def named(frame: pl.DataFrame, setting: TemporalSetting) -> pl.DataFrame:
    """``frame`` with ``subject_label`` (null when the store has none, or an empty one),
    ``relation`` (the catalogue's label) and ``popularity``."""
    names, catalogue = setting.names, setting.catalogue
    popularity = setting.popularity
    return frame.with_columns(
        subject_label=mapped(pl.col("subject"), frame, lambda qid: names.label(qid) or None),
        relation=mapped(pl.col("pid"), frame, lambda pid: catalogue[pid].label),
        popularity=pl.col("subject").replace_strict(
            list(popularity), list(popularity.values()), default=None, return_dtype=pl.Float64
        ),
    )


def records(frame: pl.DataFrame, kind: str, setting: TemporalSetting) -> pl.DataFrame:
    """The records of ``frame`` in :data:`TEMPORAL_SCHEMA` (what a kind does not fill is
    null; ``outdated_answers`` and ``outdated`` empty; ``id`` is ``_id``), with
    ``_other_statement``."""
    frame = frame.with_columns(id=pl.col("_id"))
    given = {"kind": kind, "snapshot": setting.snapshot, **setting.dates}
    empty = {"outdated_answers", "outdated"}
    columns = []
    for name, dtype in TEMPORAL_SCHEMA.items():
        if name in frame.columns:
            columns.append(pl.col(name).cast(dtype))
        elif name in given:
            columns.append(pl.lit(given[name], dtype).alias(name))
        else:
            columns.append(pl.lit([] if name in empty else None, dtype).alias(name))
    return frame.select(*columns, "_other_statement")
