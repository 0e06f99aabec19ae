"""What every ``temporal`` record shares (dates, seed, subjects, catalogue, snapshot, choices),
and the columns every record has: its subject's label, its relation, its popularity, its
dates (docs/benchmark-export.md#the-temporal-config)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import polars as pl

from kgdiff.export.dataset.schema import TEMPORAL_SCHEMA
from kgdiff.export.records.choice_frames import ChoiceSetting
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.existence import EXISTENCE_SCHEMA
from kgdiff.export.rules.salience import Salience, with_subject_reason


@dataclass(frozen=True)
class TemporalSetting:
    """What every temporal record shares: the dates, the seed, the options' count, the
    subjects and which are asked about, the catalogue, the snapshot read, the words and
    distractor tiers the options are chosen from, and the existence dates of the subjects and
    objects of dated relations."""

    dates: Mapping[str, str]
    seed: int
    options: int
    subjects: pl.DataFrame
    """The subjects' labels, sitelinks, classes and popularity
    (:func:`~kgdiff.export.rules.salience.with_standing`)."""
    salience: Salience
    catalogue: RelationCatalogue
    snapshot: str | None
    choices: ChoiceSetting
    existence: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=EXISTENCE_SCHEMA))
    """When the subjects and objects of dated relations began and ended
    (:mod:`kgdiff.export.rules.existence`)."""


def mapped(values: pl.Expr, frame: pl.DataFrame, word: Callable[[str], str | None]) -> pl.Expr:
    """``values`` (a string column of ``frame``) through ``word``, worked out once per
    distinct value (the names are Python dictionaries; the rows may be many)."""
    distinct = frame.select(values.unique().drop_nulls()).to_series().to_list()
    return values.replace_strict(
        distinct, [word(value) for value in distinct], default=None, return_dtype=pl.String
    )


def with_words(frame: pl.DataFrame, setting: TemporalSetting) -> pl.DataFrame:
    """``frame`` with its object's (``value``) main text (``text``, null when it has no
    words) and how it reads in a sentence (``_object``), from the values' words."""
    words = setting.choices.words.select(
        "value", pl.col("main").alias("text"), pl.col("phrase").alias("_object")
    )
    return frame.join(words, on="value", how="left", maintain_order="left")


def named(frame: pl.DataFrame, setting: TemporalSetting) -> pl.DataFrame:
    """``frame`` with ``subject_label`` (null when the store has none, or an empty one),
    ``subject_phrase`` (how it reads in a sentence: "the Netherlands"), ``relation`` (the
    catalogue's label), ``popularity`` and ``_subject_reason``, why its subject is not asked
    about (:func:`~kgdiff.export.rules.salience.subject_reason`; null when it is)."""
    catalogue = setting.catalogue
    frame = with_subject_reason(frame, setting.subjects, setting.salience, catalogue)
    return frame.with_columns(
        relation=mapped(pl.col("pid"), frame, lambda pid: catalogue[pid].label),
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
