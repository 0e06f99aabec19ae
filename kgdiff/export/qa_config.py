"""The ``qa`` config: single-hop questions about the groups of a classification, one split
per level (stable, evolved, uncharted), with what was left out counted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import polars as pl

from kgdiff.export.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.contexts import group_contexts, subject_popularity
from kgdiff.export.dataset_schema import QA_SCHEMA
from kgdiff.export.frame_chunks import frame_chunks
from kgdiff.export.groups import Groups
from kgdiff.export.qa_frames import FrameSetting, context_frame, popularity_frame, qa_frame
from kgdiff.export.relation_model import RelationCatalogue
from kgdiff.export.word_frames import subject_labels
from kgdiff.query.graph import KnowledgeGraph

QA_SPLITS = ("stable", "evolved", "uncharted")
ROW_COLUMNS = ("subject", "pid", "level", "change_kind", "latest", "outdated", "all_answers")
"""The columns of a group that its record is built from."""
QA_DESCRIPTION = (
    "Single-hop questions, one per (subject, property) group of the classification, split by"
    " level: `stable` (the same objects at init, cutoff and current), `evolved` (established"
    " before init and changed since: `outdated` holds what no longer holds), `uncharted` (new"
    " after the cutoff). Each record asks its fact four ways: an open question, a cloze, a"
    " multiple-choice item and a true/false statement."
)


def value_ids(pairs: pl.DataFrame, subjects: pl.Series) -> pl.Series:
    """The values to name, the units of their quantities and the subjects."""
    values = pairs.get_column("value")
    units = values.filter(values.str.count_matches("|", literal=True) == 1)
    units = units.str.split("|").list.get(1)
    return pl.concat([values, units, subjects]).unique()


def _setting(
    kg: KnowledgeGraph,
    groups: Groups,
    chosen: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
) -> FrameSetting:
    frame = groups.frame
    snapshot = frame.get_column("current_snapshot")[0] if frame.height else None
    subjects = chosen.get_column("subject")
    names = groups.naming.names(value_ids(groups.naming.pairs(), subjects).to_list(), snapshot)
    with kg.connection() as connection:
        contexts = group_contexts(connection, kg.layout, chosen, catalogue)
        wiki = f"{request.lang}wiki"
        popularity = subject_popularity(
            connection, kg.layout, subjects.to_list(), wiki, dates.current
        )
    return FrameSetting(
        choices=groups.naming.choices(snapshot, request.seed, request.options),
        dates=dates.iso(),
        labels=subject_labels(names, subjects),
        contexts=context_frame(contexts),
        popularity=popularity_frame(popularity),
    )


def qa_config(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    on_step: Callable[[str], None] = lambda _: None,
) -> ConfigExport:
    """The ``qa`` config of a classification's groups."""
    frame = groups.frame
    chosen = frame.filter(pl.col("level").is_in(QA_SPLITS))
    on_step(f"qa: naming the answers of {chosen.height:,} groups")
    setting = _setting(kg, groups, chosen, request, dates, catalogue)
    left_out: Counter[str] = Counter({"relation_not_in_catalogue": groups.uncatalogued(QA_SPLITS)})
    splits = {
        name: frame_chunks(
            chosen.filter(pl.col("level") == name).select(ROW_COLUMNS),
            pl.concat_str(pl.lit("qa/"), "subject", pl.lit("/"), "pid"),
            lambda rows, tally: qa_frame(rows, setting, tally),
            request,
            QA_SCHEMA,
            left_out,
        )
        for name in QA_SPLITS
    }
    counts = {
        "groups_by_level": groups.by_level(),
        "levels_left_out": sorted(set(groups.counts) - set(QA_SPLITS)),
        "left_out": left_out,  # filled as the splits are written
    }
    return ConfigExport("qa", QA_SCHEMA, splits, counts, QA_DESCRIPTION)
