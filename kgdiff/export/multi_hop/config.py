"""The ``multi_hop`` config: chains of two or three hops valid at the cutoff (``kg.chains``),
each asked as one question composed from its relations' templates, with every hop's own
question and Wikipedia context (docs/benchmark-export.md#the-multi_hop-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import polars as pl

from kgdiff.export.core.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.core.drop_counts import split_tallies
from kgdiff.export.core.duckdb_bounds import bounded_duckdb
from kgdiff.export.core.seeded import seeded_rank
from kgdiff.export.dataset import frame_chunks
from kgdiff.export.dataset.schema import MULTI_HOP_SCHEMA
from kgdiff.export.dataset.splits import columns_frame
from kgdiff.export.inputs.groups import Groups
from kgdiff.export.multi_hop.setting import ChainsRead
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.temporal.dates import check_answerable

MULTI_HOP_SPLITS = {2: "hops_2", 3: "hops_3"}
"""The splits, by the number of hops."""
CHAINS_DUCKDB_MEMORY = "1536MB"
"""DuckDB's limit while the export finds its chains (the export's own, at most 1 GB, around
them): at 3 × 100 M statements the last stage, which labels the 431,737 chains, ran out of
1 GB (1.79 GB of RSS, 32 s under 1.5 GB). A stopgap: chains found a range of start subjects at
a time would fit any limit."""
PART_CHAINS = 50_000
"""Chains whose records share one setting (names, contexts, what the store says of their hops)
read for them alone, in id order: the setting of every chain at once, its names as Python
objects, grew with the store (431,737 chains at 3 × 100 M statements)."""
MULTI_HOP_DESCRIPTION = (
    "Multi-hop questions: chains of two or three facts valid at the cutoff (each hop's object"
    " is the next hop's subject; middle hops single-valued), asked as one question composed"
    " from the relations' templates, with each hop's own question and, when the store has"
    " Wikipedia evidence, each hop's context. Split by the number of hops."
)


CHAIN_DATE_HINT = (
    "The multi_hop config reads its chains at the cutoff in record time: choose a cutoff the"
    " snapshots answer, leave multi_hop out of --configs, or pass --allow-gap or --max-gap DAYS"
)


def check_chain_date(kg: KnowledgeGraph, request: BenchmarkRequest, dates: Dates) -> None:
    """Refuse, before any work, a cutoff the chains cannot be read at: they are read in record
    time whatever ``--mode`` (a ``valid`` export's cutoff may precede every snapshot)."""
    with kg.connection() as connection:
        check_answerable(
            connection, {"cutoff": dates.cutoff}, "record", request.gap, hint=CHAIN_DATE_HINT
        )


def _with_ids(chains: pl.DataFrame) -> pl.DataFrame:
    """``chains`` with their records' ids (``_id``: ``multi_hop``, the start subject, then
    each hop's relation, joined by "/"), sorted by them."""
    pids = pl.col("hops").list.eval(pl.element().struct.field("pid")).list.join("/")
    made = pl.concat_str(pl.lit("multi_hop/"), "start_subject", pl.lit("/"), pids)
    return chains.with_columns(made.alias("_id")).sort("_id")


def _split_frames(
    read: ChainsRead, chains: pl.DataFrame, dropped: Counter[str], built: Counter[str], name: str
) -> Iterator[pl.DataFrame]:
    """The records of a split's ``chains`` (sorted by id), built a part of :data:`PART_CHAINS`
    at a time, in frames of :data:`~kgdiff.export.dataset.frame_chunks.CHUNK` records (the
    Parquet row groups, whatever the parts); with ``--limit`` the first in the seed's order of
    all, in one frame. Counted in ``built``."""
    limit, seed = read.request.limit, read.request.seed
    pending: list[dict[str, Any]] = []
    written = 0
    for offset in range(0, chains.height, PART_CHAINS):
        pending += read.records(chains.slice(offset, PART_CHAINS), dropped)
        if limit is not None:
            pending = sorted(pending, key=lambda record: seeded_rank(seed, record["id"]))[:limit]
            continue
        while len(pending) >= frame_chunks.CHUNK:
            chunk, pending = pending[: frame_chunks.CHUNK], pending[frame_chunks.CHUNK :]
            written += len(chunk)
            yield columns_frame(chunk, MULTI_HOP_SCHEMA)
    if pending or not written:
        written += len(pending)
        yield columns_frame(sorted(pending, key=lambda record: record["id"]), MULTI_HOP_SCHEMA)
    built[name] += written


def read_chains(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
) -> pl.DataFrame:
    """The chains of two or three hops valid at the cutoff (``kg.chains``; the classified
    ``groups`` are not needed)."""
    del groups
    with bounded_duckdb(kg, CHAINS_DUCKDB_MEMORY):
        chains = kg.chains(
            dates.cutoff, relations=catalogue.hop_map(), lang=request.lang, gap=request.gap
        )
    return chains.filter(pl.col("n_hops").is_in(list(MULTI_HOP_SPLITS)))


def multi_hop_config(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    on_step: Callable[[str], None] = lambda _: None,
) -> ConfigExport:
    """The ``multi_hop`` config: the chains valid at the cutoff, in record time (as ``kgdiff
    chains``), along the catalogue's next hops (read ahead by the export: ``groups.ahead``)."""
    chains = groups.ahead.take(
        "multi_hop", lambda: read_chains(kg, groups, request, dates, catalogue)
    )
    on_step(f"multi_hop: naming {chains.height:,} chains")
    left_out: Counter[str] = Counter()
    dropped = split_tallies(MULTI_HOP_SPLITS.values(), left_out)
    chains = _with_ids(chains)
    read = ChainsRead(
        kg,
        request,
        dates,
        catalogue,
        groups.naming.states.existence,
        groups.naming.states.ended,
        chains,
        groups.naming.spill,
    )
    built = Counter[str]()
    splits = {
        name: _split_frames(
            read, chains.filter(pl.col("n_hops") == hops), dropped[name], built, name
        )
        for hops, name in MULTI_HOP_SPLITS.items()
    }
    counts = {
        "chains": chains.height,
        "left_out": left_out,  # filled as the splits are written
        "built": built,
        "dropped": dropped,
    }
    return ConfigExport("multi_hop", MULTI_HOP_SCHEMA, splits, counts, MULTI_HOP_DESCRIPTION)
