"""The classified groups a benchmark is built from, read straight from the classification
build's Parquet files (only the columns the configs use), without the labels and evidence
columns ``kg.classify`` joins: the export names what it needs itself
(:mod:`kgdiff.export.names`), which keeps an export of millions of groups within memory."""

from __future__ import annotations

import polars as pl

from kgdiff.evidence.supported import evidence_wiki
from kgdiff.export.benchmark_model import BenchmarkRequest, Dates
from kgdiff.export.contexts import wikipedia_at
from kgdiff.query.graph import KnowledgeGraph

GROUP_COLUMNS = (
    "subject",
    "pid",
    "level",
    "change_kind",
    "latest",
    "outdated",
    "all_answers",
    "init_snapshot",
    "cutoff_snapshot",
    "current_snapshot",
)
"""The columns of a classification build the configs read."""


def classified_groups(kg: KnowledgeGraph, request: BenchmarkRequest, dates: Dates) -> pl.DataFrame:
    """Every group of the classification for the request's dates and mode (built once and
    reused, as ``kgdiff classify`` does), with ``wikipedia_current``: the Wikipedia snapshot
    whose evidence gives contexts (as the ``supported`` columns choose it; null without)."""
    build = kg.answers.classification(
        dates.cutoff, dates.init, dates.current, request.mode, request.gap
    )
    files = sorted(build.path.parent.glob(build.path.name))
    frame = pl.scan_parquet(files).select(GROUP_COLUMNS).collect() if files else _empty()
    with kg.connection() as connection:
        snapshot = wikipedia_at(connection, evidence_wiki(kg.layout), dates.current)
    return frame.with_columns(pl.lit(snapshot, dtype=pl.String()).alias("wikipedia_current"))


def _empty() -> pl.DataFrame:
    texts = pl.List(pl.String())
    kinds = [pl.String()] * 4 + [texts] * 3 + [pl.String()] * 3
    return pl.DataFrame(schema=dict(zip(GROUP_COLUMNS, kinds, strict=True)))
