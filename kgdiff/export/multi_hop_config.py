"""The ``multi_hop`` config: chains of two or three hops valid at the cutoff (``kg.chains``),
each asked as one question composed from its relations' templates, with every hop's own
question and Wikipedia context (docs/benchmark-export.md#the-multi_hop-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl

from kgdiff.evidence.supported import evidence_wiki
from kgdiff.export.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.contexts import WANTED, Context, contexts_of, subject_popularity, wikipedia_at
from kgdiff.export.dataset_schema import MULTI_HOP_SCHEMA
from kgdiff.export.groups import Groups
from kgdiff.export.names import Names, main_texts_of, texts_of
from kgdiff.export.relation_model import Relation, RelationCatalogue
from kgdiff.export.seeded import seeded_rank
from kgdiff.export.splits import columns_frame
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.temporal.dates import check_answerable

MULTI_HOP_SPLITS = {2: "hops_2", 3: "hops_3"}
"""The splits, by the number of hops."""
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


def composed(relations: list[Relation], start: str) -> tuple[str, str]:
    """The chain's question and cloze: each middle hop's question names the next hop's
    subject (X1, X2), which the last relation's question and cloze then ask about, e.g.
    'Let X1 be the answer to "Who owns Wiktionary?". Which country is X1 in?'."""
    subject, lets = start, []
    for number, relation in enumerate(relations[:-1], start=1):
        lets.append(f'X{number} be the answer to "{relation.question(subject)}"')
        subject = f"X{number}"
    setup = "Let " + ", and ".join(lets) + "."
    last = relations[-1]
    return f"{setup} {last.question(subject)}", f"{setup} {last.cloze(subject)}"


def _hop_contexts(hops: list[dict[str, Any]], setting: ChainSetting) -> dict[str, list[Any]]:
    found = [setting.contexts.get((hop["subject"], hop["pid"])) for hop in hops]
    return {
        "hop_contexts": [c.sentence if c else None for c in found],
        "hop_context_pages": [c.page if c else None for c in found],
        "hop_context_revisions": [c.revision if c else None for c in found],
        "hop_context_sentences": [c.index if c else None for c in found],
    }


def chain_record(
    row: Mapping[str, Any], catalogue: RelationCatalogue, setting: ChainSetting
) -> dict[str, Any] | str:
    """The record of a chain (a row of ``kg.chains``), or why it has none."""
    hops = list(row["hops"])
    pids = [hop["pid"] for hop in hops]
    if any(pid not in catalogue for pid in pids):
        return "relation_not_in_catalogue"
    labels = [hop["subject_label"] for hop in hops] + [hops[-1]["object_label"]]
    ids = [hop["subject"] for hop in hops] + [hops[-1]["object"]]
    if any(label is None or label == qid for label, qid in zip(labels, ids, strict=True)):
        return "unlabelled_entity"
    if not main_texts_of(setting.names, row["answers"]):
        return "no_answer_text"
    relations = [catalogue[pid] for pid in pids]
    question, cloze = composed(relations, labels[0])
    return {
        "id": "/".join(["multi_hop", row["start_subject"], *pids]),
        "subject": row["start_subject"],
        "subject_label": labels[0],
        "n_hops": len(hops),
        "pids": pids,
        "relations": [relation.label for relation in relations],
        "hop_subjects": ids[:-1],
        "hop_subject_labels": labels[:-1],
        "hop_objects": [hop["object"] for hop in hops],
        "hop_object_labels": [hop["object_label"] for hop in hops],
        "hop_questions": [
            r.question(hop["subject_label"]) for r, hop in zip(relations, hops, strict=True)
        ],
        "question": question,
        "cloze": cloze,
        "answers": texts_of(setting.names, row["answers"]),
        "answer_labels": main_texts_of(setting.names, row["answers"]),
        "latest": list(row["answers"]),
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
) -> ChainSetting:
    hops = chains.select("hops").explode("hops").unnest("hops").unique(["subject", "pid"])
    answers = chains.get_column("answers").explode().drop_nulls().unique().to_list()
    snapshot = chains.get_column("snapshot")[0] if chains.height else None
    with kg.connection() as connection:
        names = Names.read(connection, answers, snapshot, request.lang)
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
    return ChainSetting(dates.iso(), names, contexts, popularity)


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


def _split(records: list[dict[str, Any]], request: BenchmarkRequest) -> pl.DataFrame:
    if request.limit is not None:
        records = sorted(records, key=lambda record: seeded_rank(request.seed, record["id"]))
        records = records[: request.limit]
    return columns_frame(sorted(records, key=lambda r: r["id"]), MULTI_HOP_SCHEMA)


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
    setting = _setting(kg, chains, request, dates, catalogue)
    left_out: Counter[str] = Counter()
    records: dict[str, list[dict[str, Any]]] = {name: [] for name in MULTI_HOP_SPLITS.values()}
    for row in chains.iter_rows(named=True):
        built = chain_record(row, catalogue, setting)
        if isinstance(built, str):
            left_out[built] += 1
        else:
            records[MULTI_HOP_SPLITS[row["n_hops"]]].append(built)
    splits = {name: [_split(found, request)] for name, found in records.items()}
    counts = {
        "chains": chains.height,
        "left_out": dict(sorted(left_out.items())),
        "built": {name: len(found) for name, found in records.items()},
    }
    return ConfigExport("multi_hop", MULTI_HOP_SCHEMA, splits, counts, MULTI_HOP_DESCRIPTION)
