"""The ``qa`` config: single-hop questions about the groups of a classification, one split
per level (stable, evolved, uncharted), with what was left out counted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import polars as pl

from kgdiff.export.core.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.core.drop_counts import split_tallies
from kgdiff.export.dataset.frame_chunks import BuildFrame, ByParts, frame_chunks
from kgdiff.export.dataset.schema import QA_SCHEMA
from kgdiff.export.inputs.contexts import group_contexts, subject_popularity
from kgdiff.export.inputs.groups import Groups
from kgdiff.export.inputs.shared_naming import SharedNaming
from kgdiff.export.qa.frames import FrameSetting, context_frame, qa_frame
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.existence import dated_pids, existence_ids
from kgdiff.export.rules.salience import Salience, with_standing
from kgdiff.export.rules.series_years import counted_pids, series_years
from kgdiff.query.graph import KnowledgeGraph

QA_SPLITS = ("stable", "evolved", "uncharted")
ROW_COLUMNS = (
    "subject", "pid", "level", "change_kind", "change_nature", "latest", "outdated", "all_answers",
)  # fmt: skip
"""The columns of a group that its record is built from."""
VALUE_COLUMNS = ("latest", "outdated", "all_answers")
"""The lists of values whose words a record looks up."""
QA_DESCRIPTION = (
    "Single-hop questions, one per (subject, property) group of the classification, split by"
    " level: `stable` (the same objects at init, cutoff and current, up to a change that is"
    " not substantive: `change_nature` says `reformatted` or `refined` then), `evolved`"
    " (established before init and changed substantively since: `outdated` holds what no"
    " longer holds), `uncharted` (new after the cutoff). Each record asks its fact four ways:"
    " an open question, a cloze, a multiple-choice item and a true/false statement."
)


def _read_names(groups: Groups, chosen: pl.LazyFrame, snapshot: str | None) -> None:
    """Name every answer and every subject asked about in one pass over the store's names
    (kept on disk: :mod:`kgdiff.export.inputs.named_spill`), and make the distractor tiers."""
    # each subject once: its groups' rows would repeat it (14.5 M rows, 1.8 M subjects at
    # 3 × 25 M statements)
    subjects = chosen.select(pl.col("subject").unique()).collect().get_column("subject")
    groups.naming.read(snapshot, subjects=subjects, answers=True)
    groups.naming.tiers(snapshot)


def _part_values(rows: pl.DataFrame, naming: SharedNaming) -> pl.Series:
    """The values a part's records look up, among the groups' answers (the values named for
    them: a value outside them has no words, as in a whole-store setting)."""
    values = pl.concat([rows.get_column(name).explode() for name in VALUE_COLUMNS]).drop_nulls()
    return naming.among_answers(values.unique().cast(pl.String()))


def _setting(
    kg: KnowledgeGraph,
    groups: Groups,
    rows: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
) -> FrameSetting:
    """The setting of a part's records (``rows``: its groups), read for them alone."""
    snapshot = current_snapshot(groups)
    subjects = rows.get_column("subject").unique().sort()
    ended = groups.naming.states.ended(subjects, snapshot, dates.current)
    with kg.connection() as connection:
        # every group has the same Wikipedia snapshot (kgdiff.export.inputs.groups)
        wikipedia = pl.lit(groups.wikipedia, pl.String()).cast(pl.Categorical())
        contexts = group_contexts(
            connection, kg.layout, rows.with_columns(wikipedia.alias("wikipedia_current")),
            catalogue,
        )  # fmt: skip
        dated = rows.filter(pl.col("pid").is_in(dated_pids(catalogue)))
        existence = groups.naming.states.existence(existence_ids(dated, "latest", catalogue))
        counts = rows.filter(pl.col("pid").is_in(counted_pids(catalogue)))
        years = series_years(connection, counts.select("subject", "pid", "latest"), snapshot)
        wiki_name = f"{request.lang}wiki"
        popularity = subject_popularity(
            connection, kg.layout, subjects.to_list(), wiki_name, dates.current
        )
    words = groups.naming.words_named(_part_values(rows, groups.naming), snapshot)
    return FrameSetting(
        choices=groups.naming.choices(snapshot, request.seed, request.options, words),
        dates=dates.iso(),
        subjects=with_standing(groups.naming.subjects_named(subjects, snapshot), popularity, ended),
        salience=Salience.of(request),
        contexts=context_frame(contexts),
        existence=existence,
        years=years,
    )


def current_snapshot(groups: Groups) -> str | None:
    """The snapshot the groups' current state was read from (None: no group)."""
    return groups.snapshots.get("current")


def qa_config(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    on_step: Callable[[str], None] = lambda _: None,
) -> ConfigExport:
    """The ``qa`` config of a classification's groups."""
    # the groups asked about, and each split's, are read from their file when needed (three
    # copies of the classification at once before; then the classification held whole)
    chosen = groups.rows().filter(pl.col("level").is_in(QA_SPLITS))
    asked = chosen.select(pl.len()).collect().item()
    on_step(f"qa: naming the answers of {asked:,} groups")
    _read_names(groups, chosen, current_snapshot(groups))
    on_step(f"qa: {groups.naming.tiers(current_snapshot(groups)).summary()}")

    def builder_of(rows: pl.DataFrame) -> BuildFrame:
        setting = _setting(kg, groups, rows, request, dates, catalogue)
        return lambda batch, tally: qa_frame(batch, setting, tally)

    left_out: Counter[str] = Counter()
    dropped = split_tallies(QA_SPLITS, left_out)
    for level, (_, uncatalogued) in groups.counts.items():
        if level in dropped and uncatalogued:
            dropped[level]["relation_not_in_catalogue"] += uncatalogued
    splits = {
        name: frame_chunks(
            groups.rows().filter(pl.col("level") == name).select(ROW_COLUMNS),
            pl.concat_str(pl.lit("qa/"), "subject", pl.lit("/"), "pid"),
            ByParts(builder_of),
            request,
            QA_SCHEMA,
            dropped[name],
            within="subject",  # the groups' file is sorted by subject
        )
        for name in QA_SPLITS
    }
    counts = {
        "groups_by_level": groups.by_level(),
        "levels_left_out": sorted(set(groups.counts) - set(QA_SPLITS)),
        "left_out": left_out,  # filled as the splits are written
        "dropped": dropped,
    }
    return ConfigExport("qa", QA_SCHEMA, splits, counts, QA_DESCRIPTION)
