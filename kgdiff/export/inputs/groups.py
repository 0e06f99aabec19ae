"""The classified groups a benchmark is built from, read straight from the classification
build's Parquet files (only the columns the configs use), without the labels and evidence
columns ``kg.classify`` joins: the export names what it needs itself
(:mod:`kgdiff.export.words.names`), and keeps the groups on disk, sorted by subject
(:mod:`kgdiff.export.inputs.group_file`), which keeps an export of millions of groups within
memory."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import polars as pl

from kgdiff.evidence.supported import evidence_wiki
from kgdiff.export.core.benchmark_model import BenchmarkRequest, Dates
from kgdiff.export.inputs.contexts import wikipedia_at
from kgdiff.export.inputs.group_file import GroupFile, substantive_only
from kgdiff.export.inputs.read_ahead import ReadAhead
from kgdiff.export.inputs.shared_naming import SharedNaming
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.query.graph import KnowledgeGraph

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
    only counted), on disk (:class:`~kgdiff.export.inputs.group_file.GroupFile`), with the
    Wikipedia snapshot whose evidence gives contexts."""

    file: GroupFile = field(compare=False)
    """The catalogued groups, sorted by subject
    (:data:`~kgdiff.export.inputs.group_file.GROUP_COLUMNS`)."""
    counts: dict[str, tuple[int, int]]
    """Level → (groups of catalogued relations, groups of the others)."""
    naming: SharedNaming = field(compare=False)
    """The names and distractors the configs share (read once per export)."""
    wikipedia: str | None = None
    """The Wikipedia snapshot whose evidence gives contexts (None: the store has none)."""
    snapshots: dict[str, str | None] = field(default_factory=dict)
    """The snapshots the groups were read from: ``init``, ``cutoff``, ``current``."""

    @property
    def size(self) -> int:
        """How many groups there are."""
        return self.file.size

    def rows(self) -> pl.LazyFrame:
        """Every group (:data:`~kgdiff.export.inputs.group_file.GROUP_COLUMNS` and
        ``wikipedia_current``), read as collected."""
        wiki = pl.lit(self.wikipedia, dtype=pl.String()).cast(pl.Categorical())
        return self.file.rows().with_columns(wiki.alias("wikipedia_current"))

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

    def close(self) -> None:
        """Stop the read-ahead and remove the groups' file and what was named from disk: a
        frame of :meth:`rows` must be collected before."""
        self.naming.ahead.close()
        self.naming.close()

    def __enter__(self) -> Groups:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


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
        file = GroupFile(None, None, 0)
        naming = SharedNaming(kg, file, catalogue, request.lang, spill)
        return Groups(file, {}, naming, None, file.first())
    scan = pl.scan_parquet(files)
    file = GroupFile.written(kg, scan, catalogue, spill)
    catalogued = pl.col("pid").is_in(catalogue.pids)
    tally = substantive_only(scan).group_by("level", catalogued.alias("known")).len().collect()
    counts: dict[str, list[int]] = {}
    for level, known, count in tally.iter_rows():
        counts.setdefault(level, [0, 0])[0 if known else 1] += count
    with kg.connection() as connection:
        snapshot = wikipedia_at(connection, evidence_wiki(kg.layout), dates.current)
    naming = SharedNaming(kg, file, catalogue, request.lang, spill)
    found = {level: (pair[0], pair[1]) for level, pair in counts.items()}
    return Groups(file, found, naming, snapshot, file.first())
