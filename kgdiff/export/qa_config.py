"""The ``qa`` config: single-hop questions about the groups of a classification, one split
per level (stable, evolved, uncharted), with what was left out counted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import polars as pl
import pyarrow as pa

from kgdiff.export.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.contexts import group_contexts, subject_popularity
from kgdiff.export.dataset_schema import QA_SCHEMA, arrow_type
from kgdiff.export.names import Names
from kgdiff.export.noise import NoisePool
from kgdiff.export.qa_records import QaItem, QaSetting, qa_item
from kgdiff.export.relation_model import RelationCatalogue
from kgdiff.export.seeded import seeded_rank
from kgdiff.query.graph import KnowledgeGraph

QA_SPLITS = ("stable", "evolved", "uncharted")
QA_DESCRIPTION = (
    "Single-hop questions, one per (subject, property) group of the classification, split by"
    " level: `stable` (the same objects at init, cutoff and current), `evolved` (established"
    " before init and changed since: `outdated` holds what no longer holds), `uncharted` (new"
    " after the cutoff). Each record asks its fact four ways: an open question, a cloze, a"
    " multiple-choice item and a true/false statement."
)


def answer_pairs(groups: pl.DataFrame) -> pl.DataFrame:
    """Every (``pid``, ``value``) of the groups' answers, distinct: the distractors' pool."""
    exploded = groups.select("pid", pl.col("all_answers").alias("value")).explode("value")
    return exploded.drop_nulls().unique()


def _value_ids(pairs: pl.DataFrame, subjects: pl.Series) -> pl.Series:
    """The values to name, the units of their quantities and the subjects."""
    values = pairs.get_column("value")
    units = values.filter(values.str.count_matches("|", literal=True) == 1)
    units = units.str.split("|").list.get(1)
    return pl.concat([values, units, subjects]).unique()


def _setting(
    kg: KnowledgeGraph,
    groups: pl.DataFrame,
    chosen: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
) -> QaSetting:
    snapshot = groups.get_column("current_snapshot")[0] if groups.height else None
    pairs = answer_pairs(groups)
    subjects = chosen.get_column("subject")
    with kg.connection() as connection:
        ids = _value_ids(pairs, subjects).to_list()
        names = Names.read(connection, ids, snapshot, request.lang)
        contexts = group_contexts(connection, kg.layout, chosen, catalogue)
        wiki = f"{request.lang}wiki"
        popularity = subject_popularity(
            connection, kg.layout, subjects.to_list(), wiki, dates.current
        )
    noise = NoisePool.of(pairs, names, catalogue)
    return QaSetting(dates.iso(), request.seed, request.options, names, noise, contexts, popularity)


def balance_truth(items: list[QaItem], seed: int) -> list[QaItem]:
    """The items with both true/false labels occurring (when there are two items or more
    and one can change): if all agree, the first in the seed's order that can be swapped
    takes its other statement."""
    if len(items) < 2 or len({item.record["tf_label"] for item in items}) == 2:
        return items
    swappable = [item for item in items if item.other_statement is not None]
    if not swappable:
        return items
    pick = min(swappable, key=lambda item: seeded_rank(seed, item.record["id"]))
    record = dict(pick.record)
    record["tf_statement"], record["tf_label"] = pick.other_statement, not record["tf_label"]
    swapped = replace(pick, record=record, other_statement=pick.record["tf_statement"])
    return [swapped if item is pick else item for item in items]


def split_frame(
    items: Iterable[QaItem], request: BenchmarkRequest, schema: pl.Schema = QA_SCHEMA
) -> pl.DataFrame:
    """A split's records: at most ``--limit`` (the first in the seed's order), both
    true/false labels when they can be, sorted by id, in ``schema``."""
    kept = list(items)
    if request.limit is not None:
        kept.sort(key=lambda item: seeded_rank(request.seed, item.record["id"]))
        kept = kept[: request.limit]
    kept = balance_truth(kept, request.seed)
    records = sorted((item.record for item in kept), key=lambda record: record["id"])
    return columns_frame(records, schema)


def columns_frame(records: list[dict[str, Any]], schema: pl.Schema) -> pl.DataFrame:
    """``records`` as a frame of ``schema``, built column by column through Arrow (polars
    would build a Series for every list of every record: ~10 times slower)."""
    arrays = {
        name: pa.array([record[name] for record in records], type=arrow_type(dtype))
        for name, dtype in schema.items()
    }
    frame = pl.from_arrow(pa.table(arrays))
    assert isinstance(frame, pl.DataFrame)
    return frame.cast(schema)


def qa_config(
    kg: KnowledgeGraph,
    frame: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    on_step: Callable[[str], None] = lambda _: None,
) -> ConfigExport:
    """The ``qa`` config of a classification (``frame``: every group, as
    :func:`kgdiff.export.groups.classified_groups` reads them)."""
    levels = Counter(frame.get_column("level").to_list())
    in_splits = frame.filter(pl.col("level").is_in(QA_SPLITS))
    chosen = in_splits.filter(pl.col("pid").is_in(catalogue.pids))
    on_step(f"qa: naming the answers of {chosen.height:,} groups")
    setting = _setting(
        kg, frame.filter(pl.col("pid").is_in(catalogue.pids)), chosen, request, dates, catalogue
    )
    left_out: Counter[str] = Counter(
        {"relation_not_in_catalogue": in_splits.height - chosen.height}
    )
    built: dict[str, int] = {}
    splits: dict[str, pl.DataFrame] = {}
    for name in QA_SPLITS:  # a split at a time: only one split's records are ever in memory
        items = []
        for row in chosen.filter(pl.col("level") == name).iter_rows(named=True):
            item = qa_item(row, catalogue[row["pid"]], setting)
            if isinstance(item, str):
                left_out[item] += 1
            else:
                items.append(item)
        built[name] = len(items)
        splits[name] = split_frame(items, request)
    counts = {
        "groups_by_level": dict(sorted(levels.items())),
        "levels_left_out": sorted(set(levels) - set(QA_SPLITS)),
        "left_out": dict(sorted(left_out.items())),
        "built": built,
    }
    return ConfigExport("qa", QA_SCHEMA, splits, counts, QA_DESCRIPTION)
