"""The classified groups a benchmark is built from, read straight from the classification
build's Parquet files (only the columns the configs use), without the labels and evidence
columns ``kg.classify`` joins: the export names what it needs itself
(:mod:`kgdiff.export.words.names`), which keeps an export of millions of groups within memory."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from kgdiff.evidence.supported import evidence_wiki
from kgdiff.export.core.benchmark_model import BenchmarkRequest, Dates
from kgdiff.export.inputs.contexts import wikipedia_at
from kgdiff.export.inputs.read_ahead import ReadAhead
from kgdiff.export.inputs.shared_naming import SharedNaming
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.query.graph import KnowledgeGraph

GROUP_COLUMNS = (
    "subject",
    "pid",
    "level",
    "change_kind",
    "change_nature",
    "latest",
    "outdated",
    "all_answers",
    "init_snapshot",
    "cutoff_snapshot",
    "current_snapshot",
)
"""The columns of a classification build the configs read."""
SNAPSHOT_COLUMNS = ("init_snapshot", "cutoff_snapshot", "current_snapshot")
"""The snapshots each group was read from: the same few names on every row, held as
categoricals (at 3 × 25 M statements, 14.5 M groups, as strings they were a third of the frame)."""
NOT_SUBSTANTIVE = ("reformatted", "refined")
"""The change natures that change nothing a model knew: such a group is exported stable."""
FIXED_FACT_CORRECTED = "fixed_fact_corrected"
"""Why a change of a fact that does not change once it holds (the catalogue's ``fixed``: an
inception, a date of death, a parent) is not asked as one: it corrects the record (Wikidata's
inception 29 → 30 October 2012), nothing changed in the world."""


def corrected(catalogue: RelationCatalogue, changed: pl.Expr) -> pl.Expr:
    """Whether a group whose change is ``changed`` is of a ``fixed`` relation: a correction."""
    return changed & pl.col("pid").is_in([relation.pid for relation in catalogue if relation.fixed])


@dataclass(frozen=True)
class Groups:
    """The groups of a classification whose relation is in the catalogue (the others are
    only counted), with the Wikipedia snapshot whose evidence gives contexts."""

    frame: pl.DataFrame
    """One row per catalogued group: :data:`GROUP_COLUMNS` and ``wikipedia_current``."""
    counts: dict[str, tuple[int, int]]
    """Level → (groups of catalogued relations, groups of the others)."""
    naming: SharedNaming = field(compare=False)
    """The names and distractors the configs share (read once per export)."""

    @property
    def ahead(self) -> ReadAhead:
        """DuckDB reads of later configs, started once the first config is set up."""
        return self.naming.ahead

    def by_level(self) -> dict[str, int]:
        """Every group of the classification, per level (sorted)."""
        return {level: sum(pair) for level, pair in sorted(self.counts.items())}

    def uncatalogued(self, levels: Collection[str]) -> int:
        """Groups of ``levels`` whose relation has no entry in the catalogue."""
        return sum(other for level, (_, other) in self.counts.items() if level in levels)


def classified_groups(
    kg: KnowledgeGraph,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    spill: Path | None = None,
) -> Groups:
    """The classification for the request's dates and mode (built once and reused, as
    ``kgdiff classify`` does): its catalogued groups, read with the Parquet files' filter
    pushed down, and the counts of all; ``wikipedia_current`` is the Wikipedia snapshot whose
    evidence gives contexts (as the ``supported`` columns choose it; null without). What the
    configs name is kept in a temporary folder in ``spill`` (None: the system's), removed by
    ``naming.close()``."""
    build = kg.answers.classification(
        dates.cutoff, dates.init, dates.current, request.mode, request.gap
    )
    files = sorted(build.path.parent.glob(build.path.name))
    if not files:
        empty = _empty()
        return Groups(empty, {}, SharedNaming(kg, empty, catalogue, request.lang, spill))
    scan = substantive_only(pl.scan_parquet(files))
    catalogued = pl.col("pid").is_in(catalogue.pids)
    as_categories = [pl.col(name).cast(pl.Categorical()) for name in SNAPSHOT_COLUMNS]
    frame = scan.filter(catalogued).select(GROUP_COLUMNS).with_columns(as_categories).collect()
    tally = scan.group_by("level", catalogued.alias("known")).len().collect()
    counts: dict[str, list[int]] = {}
    for level, known, count in tally.iter_rows():
        counts.setdefault(level, [0, 0])[0 if known else 1] += count
    with kg.connection() as connection:
        snapshot = wikipedia_at(connection, evidence_wiki(kg.layout), dates.current)
    wiki = pl.lit(snapshot, dtype=pl.String()).cast(pl.Categorical()).alias("wikipedia_current")
    frame = frame.with_columns(wiki)
    naming = SharedNaming(kg, frame, catalogue, request.lang, spill)
    return Groups(frame, {level: (pair[0], pair[1]) for level, pair in counts.items()}, naming)


def substantive_only(groups: pl.LazyFrame) -> pl.LazyFrame:
    """The groups with each evolved one whose change is not substantive (reformatted or
    refined) made stable: no change kind or outdated values, its ``change_nature`` kept
    (docs/classification.md#substantive-changes-only)."""
    moved = (pl.col("level") == "evolved") & pl.col("change_nature").is_in(NOT_SUBSTANTIVE)
    return groups.with_columns(
        pl.when(moved).then(pl.lit("stable")).otherwise(pl.col("level")).alias("level"),
        pl.when(moved).then(None).otherwise(pl.col("change_kind")).alias("change_kind"),
        pl.when(moved).then(pl.lit([], pl.List(pl.String()))).otherwise(pl.col("outdated"))
        .alias("outdated"),
    )  # fmt: skip


def _empty() -> pl.DataFrame:
    texts = pl.List(pl.String())
    kinds = [pl.String()] * 5 + [texts] * 3 + [pl.String()] * 4
    return pl.DataFrame(schema=dict(zip([*GROUP_COLUMNS, "wikipedia_current"], kinds, strict=True)))
