"""The ``multi_hop`` config: chains of two or three hops valid at the cutoff (``kg.chains``),
each asked as one question composed from its relations' templates, with every hop's own
question and Wikipedia context (docs/benchmark-export.md#the-multi_hop-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from kgdiff.evidence.supported import evidence_wiki
from kgdiff.export.core.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.core.drop_counts import split_tallies
from kgdiff.export.core.duckdb_bounds import bounded_duckdb
from kgdiff.export.core.seeded import seeded_rank
from kgdiff.export.dataset import frame_chunks
from kgdiff.export.dataset.schema import MULTI_HOP_SCHEMA
from kgdiff.export.dataset.splits import columns_frame
from kgdiff.export.inputs.contexts import (
    WANTED,
    Context,
    contexts_of,
    subject_popularity,
    wikipedia_at,
)
from kgdiff.export.inputs.groups import Groups
from kgdiff.export.records.choice_frames import GOLD_PARTLY_UNNAMED
from kgdiff.export.relations.agreement import plural_subject
from kgdiff.export.relations.model import Relation, RelationCatalogue
from kgdiff.export.rules.existence import ANSWER_NOT_YET_EXISTING, dated_pids
from kgdiff.export.rules.salience import Salience, relation_reason, subject_reason_of
from kgdiff.export.rules.subject_echo import ANSWER_NAMES_SUBJECT, names_subject, subject_needles
from kgdiff.export.rules.subject_state import (
    HOP_CHANGED,
    PAST_HOP_HELD_SEVERAL,
    changed_hops,
    ended_subjects,
    several_valued,
)
from kgdiff.export.rules.tautology import TAUTOLOGY, judge
from kgdiff.export.words.answer_hygiene import PLACEHOLDERS, placeholder_reason_of
from kgdiff.export.words.names import Names, main_texts_of, texts_of
from kgdiff.export.words.names_file import NamesFile
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


@dataclass(frozen=True)
class ChainSetting:
    """What every chain record of an export shares."""

    dates: Mapping[str, str]
    names: Names
    contexts: Mapping[tuple[str, str], Context]
    popularity: Mapping[str, float]
    salience: Salience = field(default_factory=Salience)
    ended: frozenset[str] = frozenset()
    """The hop subjects that no longer existed at the chain's date (asked in the past tense)."""
    existence: Mapping[str, tuple[int | None, int | None]] = field(default_factory=dict)
    """When the subjects and objects of hops of dated relations began and ended
    (:mod:`kgdiff.export.rules.existence`), in days since 1970 (a Python date has no year 0)."""
    several: frozenset[tuple[str, str]] = frozenset()
    """The hop groups of ended subjects that held more than one value (asked in the past
    tense, each value answers: :data:`PAST_HOP_HELD_SEVERAL`)."""
    changed: frozenset[tuple[str, str]] = frozenset()
    """The hop groups a later snapshot shows to have changed by the chain's date
    (:data:`HOP_CHANGED`)."""

    def not_yet(self, subject: str, object: str) -> bool:
        """Whether ``object`` began after ``subject`` ended
        (:mod:`kgdiff.export.rules.existence`)."""
        began = self.existence.get(object, (None, None))[0]
        ended = self.existence.get(subject, (None, None))[1]
        return began is not None and ended is not None and began > ended


def composed(
    relations: list[Relation], start: str, past: list[bool] | None = None, plural: bool = False
) -> tuple[str, str]:
    """The chain's question and cloze: each middle hop's question names the next hop's
    subject (X1, X2), which the last relation's question and cloze then ask about, e.g.
    'Let X1 be the answer to "Who owns Wiktionary?". Which country is X1 in?'; ``start``
    reads as it does in a sentence ("the Netherlands"), ``past`` says which hops' subjects
    no longer exist, ``plural`` whether ``start`` takes a plural verb ("the Dolomites")."""
    gone = past or [False] * len(relations)
    subject, lets, many = start, [], plural
    for number, relation in enumerate(relations[:-1], start=1):
        asked = relation.question(subject, gone[number - 1], many)
        lets.append(f'X{number} be the answer to "{asked}"')
        subject, many = f"X{number}", False
    setup = "Let " + ", and ".join(lets) + "."
    last, was = relations[-1], gone[-1]
    question, cloze = last.question(subject, was, many), last.cloze(subject, was, many)
    return f"{setup} {question}", f"{setup} {cloze}"


def _hop_contexts(hops: list[dict[str, Any]], setting: ChainSetting) -> dict[str, list[Any]]:
    found = [setting.contexts.get((hop["subject"], hop["pid"])) for hop in hops]
    return {
        "hop_contexts": [c.sentence if c else None for c in found],
        "hop_context_pages": [c.page if c else None for c in found],
        "hop_context_revisions": [c.revision if c else None for c in found],
        "hop_context_sentences": [c.index if c else None for c in found],
    }


def _skipped(
    hops: list[dict[str, Any]],
    relations: list[Relation],
    questions: list[str],
    catalogue: RelationCatalogue,
    setting: ChainSetting,
) -> str | None:
    """Why a chain whose entities are labelled is not asked: its start subject is not asked
    about (:mod:`kgdiff.export.rules.salience`), or a hop's subject is one its relation is not
    asked of (a class, not a place), or a hop's object did not exist yet when its subject
    ended (:mod:`kgdiff.export.rules.existence`), or a hop asked in the past tense has held
    several values (:data:`PAST_HOP_HELD_SEVERAL`), or a later snapshot shows a hop changed by
    the chain's date (:data:`HOP_CHANGED`), or a hop's own question (``questions``)
    names its object (:data:`TAUTOLOGY`)."""
    names, start = setting.names, hops[0]["subject"]
    reason = subject_reason_of(
        hops[0]["pid"], start, hops[0]["subject_label"], names, setting.popularity.get(start),
        setting.salience, catalogue,
    )  # fmt: skip
    if reason is not None:
        return reason
    for hop, relation, question in zip(hops, relations, questions, strict=True):
        reason = relation_reason(relation.pid, hop["subject"], names, catalogue)
        if reason is not None:
            return reason
        if relation.dated_objects and setting.not_yet(hop["subject"], hop["object"]):
            return ANSWER_NOT_YET_EXISTING
        if (hop["subject"], hop["pid"]) in setting.several:
            return PAST_HOP_HELD_SEVERAL
        if (hop["subject"], hop["pid"]) in setting.changed:
            return HOP_CHANGED
        texts = names.texts(hop["object"]) or [hop["object_label"]]
        verdict = judge(texts, texts[:1], [hop["subject_label"]], [question])
        if verdict.tautology or hop["object"] == hop["subject"]:
            return TAUTOLOGY
    return None


def chain_record(
    row: Mapping[str, Any], catalogue: RelationCatalogue, setting: ChainSetting
) -> dict[str, Any] | str:
    """The record of a chain (a row of ``kg.chains`` with its record id: :func:`_with_ids`),
    or why it has none."""
    hops = list(row["hops"])
    pids = [hop["pid"] for hop in hops]
    if any(pid not in catalogue for pid in pids):
        return "relation_not_in_catalogue"
    labels = [hop["subject_label"] for hop in hops] + [hops[-1]["object_label"]]
    ids = [hop["subject"] for hop in hops] + [hops[-1]["object"]]
    if any(label is None or label == qid for label, qid in zip(labels, ids, strict=True)):
        return "unlabelled_entity"
    relations = [catalogue[pid] for pid in pids]
    names = setting.names
    phrases = [names.phrase(qid) or label for qid, label in zip(ids, labels, strict=True)]
    past = [qid in setting.ended for qid in ids[:-1]]
    plural = [plural_subject(p, names.classes(q)) for q, p in zip(ids, phrases, strict=True)]
    hop_questions = [
        r.question(phrase, was, many)
        for r, phrase, was, many in zip(relations, phrases[:-1], past, plural[:-1], strict=True)
    ]
    skipped = _skipped(hops, relations, hop_questions, catalogue, setting)
    if skipped is not None:
        return skipped
    latest = [value for value in row["answers"] if value not in PLACEHOLDERS]
    if not latest:
        return placeholder_reason_of(list(row["answers"])) or "no_answer_text"
    answers, answer_labels = texts_of(names, latest), main_texts_of(names, latest)
    if not answer_labels:
        return "no_answer_text"
    question, cloze = composed(relations, phrases[0], past, plural[0])
    verdict = judge(answers, answer_labels, [labels[0]], [question, cloze], ids[0], latest)
    if verdict.tautology:
        return TAUTOLOGY
    if any(not names.texts(value) for value in latest):
        return GOLD_PARTLY_UNNAMED
    # the last hop is the question asked: its subject's name must not be the answer's
    if names_subject(answer_labels, subject_needles(names.texts(ids[-2]))):
        return ANSWER_NAMES_SUBJECT
    return {
        "id": row["_id"],
        "subject": row["start_subject"],
        "subject_label": labels[0],
        "n_hops": len(hops),
        "pids": pids,
        "relations": [relation.label for relation in relations],
        "hop_subjects": ids[:-1],
        "hop_subject_labels": labels[:-1],
        "hop_objects": [hop["object"] for hop in hops],
        "hop_object_labels": [hop["object_label"] for hop in hops],
        "hop_questions": hop_questions,
        "question": question,
        "cloze": cloze,
        "answers": [text for text in answers if text not in verdict.restating],
        "answer_labels": answer_labels,
        "latest": latest,
        "date": row["ref_date"].isoformat(),
        "snapshot": row["snapshot"],
        **_hop_contexts(hops, setting),
        "popularity": setting.popularity.get(row["start_subject"]),
        **setting.dates,
    }


def _setting(
    kg: KnowledgeGraph,
    chains: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    read_existence: Callable[[Iterable[str]], pl.DataFrame],
    names_of: Callable[[list[str], str | None], Names],
) -> ChainSetting:
    hops = chains.select("hops").explode("hops").unnest("hops").unique(["subject", "pid"])
    answers = chains.get_column("answers").explode().drop_nulls().unique().to_list()
    entities = hops.get_column("subject").to_list() + hops.get_column("object").to_list()
    snapshot = chains.get_column("snapshot")[0] if chains.height else None
    subjects = hops.get_column("subject").unique().to_list()
    with kg.connection() as connection:
        names = names_of([*answers, *entities], snapshot)
        ended = ended_subjects(connection, subjects, snapshot, dates.cutoff)
        past = hops.filter(pl.col("subject").is_in(list(ended))).select("subject", "pid")
        several = several_valued(connection, past.iter_rows(), snapshot) if snapshot else None
        read = hops.select("subject", "pid", "object").iter_rows()
        changed = changed_hops(connection, read, snapshot, dates.cutoff) if snapshot else None
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
        dates.iso(), names, contexts, popularity, Salience.of(request), ended, existence,
        several or frozenset(), changed or frozenset(),
    )  # fmt: skip


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


@dataclass(frozen=True)
class _ChainsRead:
    """What the records of a split's chains are built with."""

    kg: KnowledgeGraph
    request: BenchmarkRequest
    dates: Dates
    catalogue: RelationCatalogue
    existence: Callable[[Iterable[str]], pl.DataFrame]
    """The existence dates of ids (the export's :meth:`SharedNaming.existence`)."""
    chains: pl.DataFrame
    """Every chain of the config: their entities are named once per snapshot."""
    spill: Path | None = None
    """The folder the names are kept in (None: the system's temporary one)."""
    _names: dict[str | None, NamesFile] = field(default_factory=dict)

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
        setting = _setting(
            self.kg, part, self.request, self.dates, self.catalogue, self.existence,
            self.names_of,
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


def _split_frames(
    read: _ChainsRead, chains: pl.DataFrame, dropped: Counter[str], built: Counter[str], name: str
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
    read = _ChainsRead(
        kg, request, dates, catalogue, groups.naming.existence, chains, groups.naming.spill
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
