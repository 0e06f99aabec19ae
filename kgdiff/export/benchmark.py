"""``kgdiff export benchmark``: a classification turned into a Hugging Face dataset folder of
questions (docs/benchmark-export.md).

:func:`export_benchmark` classifies the store for the request's dates (reusing a build when
there is one), builds each config asked for, and writes the folder atomically.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import kgdiff
from kgdiff.collector import bulk_allocations
from kgdiff.errors import UsageError
from kgdiff.export.audit.report import AuditReport
from kgdiff.export.audit.run import audit_export
from kgdiff.export.audit.write import write_audit
from kgdiff.export.core.benchmark_model import (
    BenchmarkRequest,
    BuildFacts,
    ConfigExport,
    Dates,
)
from kgdiff.export.core.duckdb_bounds import bounded_duckdb, release_duckdb
from kgdiff.export.core.leftovers import sweep_leftovers
from kgdiff.export.dataset.writer import check_target, write_dataset
from kgdiff.export.distractors.tier_caps import tier_cap
from kgdiff.export.inputs.groups import Groups, classified_groups
from kgdiff.export.multi_hop.config import check_chain_date, multi_hop_config, read_chains
from kgdiff.export.pools.config import pools_config, read_pools
from kgdiff.export.pools.sample import pools_static_policy
from kgdiff.export.qa.config import qa_config
from kgdiff.export.relations.catalogue import dump_catalogue, load_catalogue
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.salience import Salience, check_salience
from kgdiff.export.tasks.writer import write_tasks
from kgdiff.export.temporal.config import read_dated, temporal_config
from kgdiff.export.updates.config import read_updates, updates_config
from kgdiff.export.words.names_cache import names_kept
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.lookup import store_tag
from kgdiff.store.snapshots import list_snapshots

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
"""The configs whose DuckDB reads start in the background once the config before them is set
up (:mod:`kgdiff.export.inputs.read_ahead`), while that config's records are built."""
READ_AHEAD_MAX_STATEMENTS = 10_000_000
"""The largest snapshot an export reads ahead for. A read beside a config's records adds
DuckDB's memory and the read's result to the config's own: at 3 × 2.5 M statements every
config in 1.69 GB with the reads ahead, 1.44 GB without; at 3 × 25 M the ``qa`` records
alone take more than 4 GB. Past this size each read runs when its config is set up: the
export takes longer on two cores, not more memory."""
EXPORT_MODES = ("record", "valid")
DUCKDB_MEMORY_FLOOR = 512 * 2**20
DUCKDB_MEMORY_CAP = 1 * 2**30
DUCKDB_BYTES_PER_STATEMENT = 64
"""DuckDB's memory limit while an export runs: the floor, or this many bytes per statement of
the largest snapshot if more, up to the cap. Its window queries over every statement
(``kg.updates``, ``kg.chains``, the pools) spill to disk beyond it instead of taking most of
the machine, leaving room for the records built meanwhile (the reads run beside the configs:
:mod:`kgdiff.export.inputs.read_ahead`). Every config of 3 × 5 M statements: peak RSS
1.80–1.83 GB with 512 MB, 2.17–2.22 GB with 1 GB. The cap keeps the export within the 4 GB an
export may take at any size (issue 36): without it a snapshot of 200 M statements asked for
12.8 GB. It was 2 GB while two queries could not run in less at 3 × 50 M statements (the
naming of 3.2 M answers in one query, the chains in one query); named by id ranges and
chained in stages they run in 1 GB, and all five configs at 3 × 50 M peaked at 5.53 GB
instead of 5.93 GB, the same records."""


def duckdb_limit(statements: Iterable[int]) -> str:
    """The export's DuckDB memory limit for snapshots of these many statements each: 64
    bytes a statement of the largest, within :data:`DUCKDB_MEMORY_FLOOR` and
    :data:`DUCKDB_MEMORY_CAP`."""
    wanted = max([DUCKDB_MEMORY_FLOOR, *(DUCKDB_BYTES_PER_STATEMENT * n for n in statements)])
    return f"{min(wanted, DUCKDB_MEMORY_CAP) // 2**20}MB"


def duckdb_memory(kg: KnowledgeGraph) -> str:
    """The export's DuckDB memory limit for ``kg``'s snapshots (:func:`duckdb_limit`)."""
    return duckdb_limit(m.counts.get("statements", 0) for m in list_snapshots(kg.layout))


def reads_ahead(statements: Iterable[int]) -> bool:
    """Whether an export of snapshots of these many statements reads ahead
    (:data:`READ_AHEAD_MAX_STATEMENTS`)."""
    return max(statements, default=0) <= READ_AHEAD_MAX_STATEMENTS


@dataclass(frozen=True)
class BenchmarkExport:
    """What an export wrote: the folder, and per config its records per split."""

    out: Path
    configs: dict[str, dict[str, int]]
    facts: BuildFacts
    notes: tuple[str, ...] = ()
    """What the configs say of their records (e.g. the ``pools`` static split sampled)."""
    audit: AuditReport | None = None
    """The audit of the records written (:mod:`kgdiff.export.audit`), also in the card."""


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
    """The request's dates, init and current defaulting to the first and latest snapshots',
    checked as every face checks them (:mod:`kgdiff.temporal.window`)."""
    given = {"init": request.init, "cutoff": request.cutoff, "current": request.current}
    window, _ = kg.answers.window(given, request.mode, request.gap)
    return Dates(*window.triple())


def _facts(
    kg: KnowledgeGraph,
    snapshots: dict[str, str | None],
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
        "distractor_tier_cap": tier_cap(),
        **Salience.of(request).filters(),
        "max_gap": request.gap.max_gap,
        "allow_gap": request.gap.allow,
        "configs": list(configs),
        "relations": "shipped" if request.relations is None else request.relations.name,
        "relations_sha256": hashlib.sha256(dumped).hexdigest(),
    }
    with kg.connection() as connection:
        store: dict[str, Any] = {"fingerprint": store_tag(connection)}
    for role in ("init", "cutoff", "current"):
        store[f"{role}_snapshot"] = snapshots.get(role)
    return BuildFacts(parameters, store, kgdiff.__version__)


def _built(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    configs: Sequence[str],
    on_step: Callable[[str], None],
) -> Iterator[ConfigExport]:
    """The configs, each set up when the writer asks for it; once one is set up (its names
    read), the next config's DuckDB read starts in the background while its records are
    written (on a store small enough: :func:`reads_ahead`). One read ahead at a time: a
    read's result waits in memory until its config takes it (all four beside the ``qa``
    records: 1.51 GB after ``qa`` at 3 × 2.5 M statements, one: 1.32 GB)."""
    ahead = reads_ahead(m.counts.get("statements", 0) for m in list_snapshots(kg.layout))
    for index, name in enumerate(configs):
        config = CONFIGS[name](kg, groups, request, dates, catalogue, on_step)
        following = configs[index + 1] if index + 1 < len(configs) else None
        if ahead and following in READS_AHEAD:
            read = partial(READS_AHEAD[following], kg, groups, request, dates, catalogue)
            groups.ahead.submit(following, read)
        yield config
        del config  # written: not held while the next config is built
        with groups.ahead.exclusive():
            release_duckdb(kg)  # the config's queries' memory, before the next one's
    # every config written: what they shared goes before the task files and the audit (at
    # 3 × 50 M statements the audit took 3.0 GB alone, 5.4 GB beside it)
    groups.naming.release()


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
    tier_cap()  # a bad KGDIFF_EXPORT_TIER_CAP is refused before any work
    check_salience(Salience.of(request), kg.layout)
    check_target(out, force)
    catalogue = load_catalogue(request.relations)
    dates = resolve_dates(kg, request)
    if "multi_hop" in configs:
        check_chain_date(kg, request, dates)
    for left in sweep_leftovers(out.absolute()):
        on_step(f"removed {left}, left by an export that was killed")
    on_step(f"classifying for init {dates.init}, cutoff {dates.cutoff}, current {dates.current}")
    with (
        bulk_allocations(),
        bounded_duckdb(kg, duckdb_memory(kg)),
        names_kept(kg, request.lang, out.absolute().parent),
    ):
        # what the configs name is kept beside the folder written (on the disk chosen for it)
        groups = classified_groups(kg, request, dates, catalogue, out.absolute().parent)
        naming = groups.naming
        try:
            facts = _facts(kg, groups.snapshots, request, dates, catalogue, configs)
            built = _built(kg, groups, request, dates, catalogue, configs, on_step)
            del groups  # the configs' builder holds them until the last config is written
            on_step(f"writing {out}")
            audits: list[AuditReport] = []
            finish = partial(_finish, kg, catalogue, configs, audits, on_step)
            written = write_dataset(out, built, facts, force, finish)
        finally:
            naming.ahead.close()
            naming.close()
    notes = tuple(note for config in written for note in config.notes)
    records = {config.name: config.records() for config in written}
    return BenchmarkExport(out, records, facts, notes, audits[0] if audits else None)


def _finish(
    kg: KnowledgeGraph,
    catalogue: RelationCatalogue,
    configs: Sequence[str],
    audits: list[AuditReport],
    on_step: Callable[[str], None],
    folder: Path,
) -> None:
    """Write the task files of the configs written into ``folder`` (every config asked for,
    in the order of :data:`CONFIGS`), audit their records and put the report into its card and
    ``kgdiff_build.json`` (before the folder is moved into place)."""
    write_tasks(folder, list(configs))
    on_step("auditing the records")
    report = audit_export(folder, kg, catalogue)
    write_audit(folder, report)
    audits.append(report)
