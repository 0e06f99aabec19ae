"""What a part of the chains' records is built with (:class:`ChainsRead`): its names, read
once for every chain (:class:`~kgdiff.export.words.names_file.NamesFile`), and what the store
says of its hops, read for the part alone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl

from kgdiff.evidence.supported import evidence_wiki
from kgdiff.export.core.benchmark_model import BenchmarkRequest, Dates
from kgdiff.export.inputs.contexts import (
    WANTED,
    contexts_of,
    subject_popularity,
    wikipedia_at,
)
from kgdiff.export.multi_hop.records import ChainSetting, chain_record
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.existence import dated_pids
from kgdiff.export.rules.salience import Salience
from kgdiff.export.rules.subject_state import changed_hops, several_valued
from kgdiff.export.words.names import Names
from kgdiff.export.words.names_file import NamesFile
from kgdiff.query.graph import KnowledgeGraph

Ended = Callable[[Iterable[str], str | None, date], frozenset[str]]
"""The ids that no longer exist on a day, as the snapshots up to one record it (the export's
:meth:`~kgdiff.export.inputs.entity_states.EntityStates.ended`)."""


@dataclass(frozen=True)
class HopState:
    """What the store says of the hop groups (``subject``, ``pid``) of every chain read in a
    snapshot: a property of each group, read once for all of them (a store query a part
    before: a scan of the statements each time, the parts growing with the store)."""

    ended: frozenset[str] = frozenset()
    """The hops' subjects that no longer exist at the cutoff (asked in the past tense)."""
    several: frozenset[tuple[str, str]] = frozenset()
    """The groups of subjects ended by the cutoff that held more than one value."""
    changed: frozenset[tuple[str, str]] = frozenset()
    """The groups a later snapshot shows to have changed by the cutoff."""


def hop_state(
    kg: KnowledgeGraph, chains: pl.DataFrame, snapshot: str | None, day: date, ended: Ended
) -> HopState:
    """The :class:`HopState` of the hops of ``chains`` read in ``snapshot`` at ``day``."""
    if snapshot is None:
        return HopState()
    hops = chains.select("hops").explode("hops").unnest("hops")
    hops = hops.select("subject", "pid", "object").unique()
    gone = ended(hops.get_column("subject").unique(), snapshot, day)
    past = hops.filter(pl.col("subject").is_in(list(gone))).select("subject", "pid").unique()
    with kg.connection() as connection:
        several = several_valued(connection, past.iter_rows(), snapshot)
        changed = changed_hops(connection, hops, snapshot, day)
    return HopState(gone, several, changed)


def _setting(
    kg: KnowledgeGraph,
    chains: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    read_existence: Callable[[Iterable[str]], pl.DataFrame],
    names_of: Callable[[list[str], str | None], Names],
    snapshot: str | None,
    state: HopState,
) -> ChainSetting:
    hops = chains.select("hops").explode("hops").unnest("hops").unique(["subject", "pid"])
    answers = chains.get_column("answers").explode().drop_nulls().unique().to_list()
    entities = hops.get_column("subject").to_list() + hops.get_column("object").to_list()
    with kg.connection() as connection:
        names = names_of([*answers, *entities], snapshot)
        dated = hops.filter(pl.col("pid").is_in(dated_pids(catalogue)))
        ids = [*dated.get_column("subject"), *dated.get_column("object")]
        days = read_existence(ids).with_columns(pl.col("began", "ended").cast(pl.Int32))
        existence = {qid: (began, end) for qid, began, end in days.iter_rows()}
        # as the qa config's: the Wikipedia of the present states the facts that still hold
        wiki = wikipedia_at(connection, evidence_wiki(kg.layout), dates.current)
        wanted = [
            (s, p, o, 0, catalogue[p].context.value, wiki)
            for s, p, o in hops.select("subject", "pid", "object").iter_rows()
            if wiki is not None and p in catalogue
        ]
        frame = pl.DataFrame(wanted, schema=WANTED, orient="row")
        contexts = contexts_of(connection, frame)
        starts = chains.get_column("start_subject").unique().to_list()
        popularity = subject_popularity(
            connection, kg.layout, starts, f"{request.lang}wiki", dates.current
        )
    return ChainSetting(
        dates.iso(), names, contexts, popularity, Salience.of(request), state.ended, existence,
        state.several, state.changed,
    )  # fmt: skip


@dataclass(frozen=True)
class ChainsRead:
    """What the records of a split's chains are built with."""

    kg: KnowledgeGraph
    request: BenchmarkRequest
    dates: Dates
    catalogue: RelationCatalogue
    existence: Callable[[Iterable[str]], pl.DataFrame]
    """The existence dates of ids (the export's :meth:`EntityStates.existence`)."""
    ended: Ended
    """The ids that no longer exist on a day (the export's :meth:`EntityStates.ended`)."""
    chains: pl.DataFrame
    """Every chain of the config: their entities are named once per snapshot."""
    spill: Path | None = None
    """The folder the names are kept in (None: the system's temporary one)."""
    _names: dict[str | None, NamesFile] = field(default_factory=dict)
    _states: dict[str | None, HopState] = field(default_factory=dict)

    def state(self, snapshot: str | None) -> HopState:
        """The :class:`HopState` of every chain's hops as of ``snapshot`` (read when first
        asked)."""
        if snapshot not in self._states:
            self._states[snapshot] = hop_state(
                self.kg, self.chains, snapshot, self.dates.cutoff, self.ended
            )
        return self._states[snapshot]

    def names_of(self, ids: list[str], snapshot: str | None) -> Names:
        """The names of ``ids`` as of ``snapshot``, from those of every chain's entities
        (:class:`~kgdiff.export.words.names_file.NamesFile`, written when first asked)."""
        if snapshot not in self._names:  # a part is named as of its first chain's snapshot
            self._names[snapshot] = NamesFile(
                self.kg, _chain_ids(self.chains), snapshot, self.request.lang, self.spill
            )
        return self._names[snapshot].names(ids)

    def records(self, part: pl.DataFrame, dropped: Counter[str]) -> list[dict[str, Any]]:
        """The records of a part of a split's chains (in id order), the setting read for
        them alone; why a chain has none counted in ``dropped``."""
        snapshot = part.get_column("snapshot")[0] if part.height else None
        setting = _setting(
            self.kg, part, self.request, self.dates, self.catalogue, self.existence,
            self.names_of, snapshot, self.state(snapshot),
        )  # fmt: skip
        found = []
        for row in part.iter_rows(named=True):
            built = chain_record(row, self.catalogue, setting)
            if isinstance(built, str):
                dropped[built] += 1
            else:
                found.append(built)
        return found


def _chain_ids(chains: pl.DataFrame) -> pl.Series:
    """The entities of ``chains``: their answers and every hop's subject and object."""
    hops = chains.select("hops").explode("hops").unnest("hops")
    found = [chains.get_column("answers").explode(), hops.get_column("subject")]
    return pl.concat([*found, hops.get_column("object")]).drop_nulls().unique()
