"""``kgdiff export benchmark``: a classification turned into a Hugging Face dataset folder of
questions (docs/benchmark-export.md).

:func:`export_benchmark` classifies the store for the request's dates (reusing a build when
there is one), builds each config asked for, and writes the folder atomically.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import polars as pl

import kgdiff
from kgdiff.errors import UsageError
from kgdiff.export.benchmark_model import (
    BenchmarkRequest,
    BuildFacts,
    ConfigExport,
    Dates,
)
from kgdiff.export.dataset_writer import check_target, write_dataset
from kgdiff.export.groups import Groups, classified_groups
from kgdiff.export.multi_hop_config import check_chain_date, multi_hop_config, read_chains
from kgdiff.export.pool_sample import pools_static_policy
from kgdiff.export.pools_config import pools_config, read_pools
from kgdiff.export.qa_config import qa_config
from kgdiff.export.relation_model import RelationCatalogue
from kgdiff.export.relations import dump_catalogue, load_catalogue
from kgdiff.export.temporal_config import read_dated, temporal_config
from kgdiff.export.updates_config import read_updates, updates_config
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.lookup import store_tag
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.classify import check_dates

ConfigBuilder = Callable[..., ConfigExport]
CONFIGS: dict[str, ConfigBuilder] = {
    "qa": qa_config,
    "multi_hop": multi_hop_config,
    "updates": updates_config,
    "temporal": temporal_config,
    "pools": pools_config,
}
"""The configs that can be exported, in the order they are written."""
READS_AHEAD: dict[str, Callable[..., Any]] = {
    "multi_hop": read_chains,
    "updates": read_updates,
    "temporal": read_dated,
    "pools": read_pools,
}
"""The configs whose DuckDB reads start in the background as an export begins, one after the
other in this order (the order they are needed in: :mod:`kgdiff.export.read_ahead`), while
the ``qa`` records and the next configs' are built."""
EXPORT_MODES = ("record", "valid")
DUCKDB_MEMORY_FLOOR = 512 * 2**20
DUCKDB_BYTES_PER_STATEMENT = 64
"""DuckDB's memory limit while an export runs: the floor, or this many bytes per statement of
the largest snapshot if more. Its window queries over every statement (``kg.updates``,
``kg.chains``, the pools) spill to disk beyond it instead of taking most of the machine,
leaving room for the records built meanwhile (the reads run beside the configs:
:mod:`kgdiff.export.read_ahead`); but some of their operators cannot spill, and ``kg.chains``
ran out of 384 and 512 MB on 20 M statements (1 GB was enough). Every config of 3 × 5 M
statements: peak RSS 1.80–1.83 GB with 512 MB, 2.17–2.22 GB with 1 GB."""


def duckdb_memory(kg: KnowledgeGraph) -> str:
    """The export's DuckDB memory limit for ``kg``'s snapshots (:data:`DUCKDB_MEMORY_FLOOR`)."""
    counts = [m.counts.get("statements", 0) for m in list_snapshots(kg.layout)]
    wanted = max([DUCKDB_MEMORY_FLOOR, *(DUCKDB_BYTES_PER_STATEMENT * n for n in counts)])
    return f"{wanted // 2**20}MB"


@dataclass(frozen=True)
class BenchmarkExport:
    """What an export wrote: the folder, and per config its records per split."""

    out: Path
    configs: dict[str, dict[str, int]]
    facts: BuildFacts
    notes: tuple[str, ...] = ()
    """What the configs say of their records (e.g. the ``pools`` static split sampled)."""


def check_configs(names: Sequence[str]) -> tuple[str, ...]:
    """The configs asked for, in the order of :data:`CONFIGS`; a usage error naming the ones
    that exist for any other."""
    unknown = [name for name in names if name not in CONFIGS]
    if unknown or not names:
        shown = repr(unknown[0]) if unknown else "(none)"
        raise UsageError(
            f"--configs {shown}: not a config this kgdiff exports; the ones it exports are"
            f" {', '.join(CONFIGS)}"
        )
    return tuple(name for name in CONFIGS if name in names)


def resolve_dates(kg: KnowledgeGraph, request: BenchmarkRequest) -> Dates:
    """The request's dates, init and current defaulting to the first and latest snapshots'."""
    first, latest = (None, None)
    if request.init is None or request.current is None:
        first, latest = kg.answers.span()
    dates = Dates(request.init or first, request.cutoff, request.current or latest)  # type: ignore[arg-type]
    check_dates(dates.init, dates.cutoff, dates.current)
    return dates


def _facts(
    kg: KnowledgeGraph,
    frame: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    configs: tuple[str, ...],
) -> BuildFacts:
    dumped = dump_catalogue(catalogue, replace=True).encode("utf-8")
    parameters: dict[str, Any] = {
        **dates.iso(),
        "mode": request.mode,
        "seed": request.seed,
        "limit": request.limit,
        "lang": request.lang,
        "options": request.options,
        "pools_static": request.pools_static,
        "max_gap": request.gap.max_gap,
        "allow_gap": request.gap.allow,
        "configs": list(configs),
        "relations": "shipped" if request.relations is None else request.relations.name,
        "relations_sha256": hashlib.sha256(dumped).hexdigest(),
    }
    with kg.connection() as connection:
        store: dict[str, Any] = {"fingerprint": store_tag(connection)}
    for role in ("init", "cutoff", "current"):
        column = f"{role}_snapshot"
        store[f"{role}_snapshot"] = frame.get_column(column)[0] if frame.height else None
    return BuildFacts(parameters, store, kgdiff.__version__)


@contextmanager
def bounded_duckdb(kg: KnowledgeGraph, limit: str) -> Iterator[None]:
    """The catalog's DuckDB held to ``limit`` of memory, its own limit back afterwards."""
    with kg.connection() as connection:
        row = connection.execute("SELECT current_setting('memory_limit')").fetchone()
        connection.execute(f"SET memory_limit = '{limit}'")
    try:
        yield
    finally:
        if row is not None:
            with kg.connection() as connection:
                connection.execute(f"SET memory_limit = '{row[0]}'")


def _built(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    configs: Sequence[str],
    on_step: Callable[[str], None],
) -> Iterator[ConfigExport]:
    """The configs, each set up when the writer asks for it; once the first is set up (its
    names read), the later configs' DuckDB reads start in the background."""
    for index, name in enumerate(configs):
        config = CONFIGS[name](kg, groups, request, dates, catalogue, on_step)
        if index == 0:
            for later in (later for later in READS_AHEAD if later in configs[1:]):
                read = partial(READS_AHEAD[later], kg, groups, request, dates, catalogue)
                groups.ahead.submit(later, read)
        yield config


def export_benchmark(
    kg: KnowledgeGraph,
    request: BenchmarkRequest,
    out: Path,
    force: bool = False,
    on_step: Callable[[str], None] = lambda _: None,
) -> BenchmarkExport:
    """Classify, build the request's configs and write the dataset folder ``out``."""
    configs = check_configs(request.configs)
    if request.mode not in EXPORT_MODES:
        raise UsageError(f"--mode {request.mode!r}: choose one of {', '.join(EXPORT_MODES)}")
    if request.limit is not None and request.limit < 1:
        raise UsageError(f"--limit {request.limit}: give a number of records, at least 1")
    if not 2 <= request.options <= 26:
        raise UsageError(f"--options {request.options}: an item takes 2 to 26 options")
    pools_static_policy(request.pools_static)
    check_target(out, force)
    catalogue = load_catalogue(request.relations)
    dates = resolve_dates(kg, request)
    if "multi_hop" in configs:
        check_chain_date(kg, request, dates)
    on_step(f"classifying for init {dates.init}, cutoff {dates.cutoff}, current {dates.current}")
    with bounded_duckdb(kg, duckdb_memory(kg)):
        groups = classified_groups(kg, request, dates, catalogue)
        try:
            facts = _facts(kg, groups.frame, request, dates, catalogue, configs)
            built = _built(kg, groups, request, dates, catalogue, configs, on_step)
            on_step(f"writing {out}")
            written = write_dataset(out, built, facts, force)
        finally:
            groups.ahead.close()
    notes = tuple(note for config in written for note in config.notes)
    return BenchmarkExport(out, {config.name: config.records() for config in written}, facts, notes)
