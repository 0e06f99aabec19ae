"""The ``updates`` config: AntiLeakBench's knowledge updates after the cutoff (``kg.updates``,
valid time), each asked like a ``qa`` record, with the first Wikipedia revision that states it
as context when the store has the article's history (``kg.supporting_revisions``), and
distractor documents (docs/benchmark-export.md#the-updates-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import polars as pl

from kgdiff.errors import StoreError
from kgdiff.export.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.choice_frames import ChoiceSetting, answered_choices
from kgdiff.export.contexts import subject_popularity, wikipedia_at
from kgdiff.export.dataset_schema import UPDATES_SCHEMA
from kgdiff.export.distractors import DOCUMENT_COUNTS, DistractorPool, document_variants
from kgdiff.export.groups import Groups
from kgdiff.export.qa_records import QaItem, mc_question
from kgdiff.export.relation_model import RelationCatalogue
from kgdiff.export.splits import split_frame
from kgdiff.query.entity import latest_history
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.sqlfiles import load_sql

UPDATES_SPLIT = "updates"
UPDATES_DESCRIPTION = (
    "Knowledge updates after the cutoff, as AntiLeakBench defines them (valid time): an old"
    " object valid at the cutoff whose statement ended, a new one that started after it. The"
    " context is the lead of the first Wikipedia revision stating the new object, when the"
    " store holds the article's history; `distractors_3/5/7` are leads of articles that"
    " mention none of the record's entities."
)
Key = tuple[str, str, str]


@dataclass(frozen=True)
class Revision:
    """The first revision that states an update: its article, id, lead and sentence."""

    title: str
    revision_id: int
    lead: str | None
    sentence: str | None


def supporting(kg: KnowledgeGraph, request: BenchmarkRequest, dates: Dates) -> dict[Key, Revision]:
    """The supporting revision of each update that has one; empty without a history."""
    wiki = f"{request.lang}wiki"
    try:
        latest_history(kg.layout, wiki)
    except StoreError:
        return {}
    found = kg.supporting_revisions(
        dates.cutoff, dates.current, wiki=wiki, lang=request.lang, gap=request.gap
    ).filter(pl.col("revision_id").is_not_null())
    ids = found.get_column("revision_id").to_list()
    with kg.connection() as connection:
        rows = connection.execute(
            load_sql("export/revision_leads"), {"wiki": wiki, "revision_ids": ids}
        )
        leads = dict(rows.fetchall())
    return {
        (row["subject"], row["pid"], row["new_object"]): Revision(
            row["title"], row["revision_id"], leads.get(row["revision_id"]), row["sentence"]
        )
        for row in found.iter_rows(named=True)
    }


def update_key(row: Mapping[str, Any]) -> str:
    """The record id of a knowledge update."""
    return f"updates/{row['subject']}/{row['pid']}/{row['new_object']}"


def update_item(
    row: Mapping[str, Any],
    catalogue: RelationCatalogue,
    revision: Revision | None,
    documents: DistractorPool,
) -> QaItem:
    """The record of a knowledge update (a row of ``kg.updates``) with its answers and
    options (the columns of :func:`~kgdiff.export.choice_frames.answered_choices`), its
    subject's ``popularity`` and the export's ``dates``."""
    choices = row
    relation = catalogue[row["pid"]]
    label, key = row["subject_label"], update_key(row)
    statements = [relation.statement(label, choices[name]) if choices[name] else None
                  for name in ("correct", "wrong")]  # fmt: skip
    truth = choices["truth"]
    entity_names = [label, *choices["answers"], *choices["outdated_answers"]]
    question = relation.question(label)
    record = {
        "id": key, "subject": row["subject"], "subject_label": label, "pid": relation.pid,
        "relation": relation.label, "question": question, "cloze": relation.cloze(label),
        "answers": choices["answers"], "answer_labels": choices["answer_labels"],
        "latest": [row["new_object"]], "outdated": list(row["old_objects"]),
        "outdated_answers": choices["outdated_answers"],
        "new_start": row["new_start_lo"].isoformat(), "old_end": row["old_end_hi"].isoformat(),
        "mc_question": mc_question(question, choices["options"]), "options": choices["options"],
        "choice_types": choices["choice_types"], "gold": choices["gold"],
        "tf_statement": statements[0] if truth else statements[1], "tf_label": truth,
        "context": revision.lead if revision else None,
        "context_page": revision.title if revision else None,
        "context_revision": revision.revision_id if revision else None,
        "evidence_sentence": revision.sentence if revision else None,
        **document_variants(documents.pick(key, entity_names, max(DOCUMENT_COUNTS))),
        "popularity": row["popularity"],
        **row["dates"],
    }  # fmt: skip
    return QaItem(record, statements[1] if truth else statements[0])


def _asked(
    updates: pl.DataFrame, catalogue: RelationCatalogue, tally: Counter[str]
) -> pl.DataFrame:
    """The updates of relations in the catalogue whose subject is labelled, as rows of
    :func:`~kgdiff.export.choice_frames.answered_choices`."""
    known = updates.filter(pl.col("pid").is_in(catalogue.pids))
    tally["relation_not_in_catalogue"] += updates.height - known.height
    label = pl.col("subject_label")
    labelled = known.filter(label.is_not_null() & (label != "") & (label != pl.col("subject")))
    tally["unlabelled_subject"] += known.height - labelled.height
    latest = pl.concat_list(pl.col("new_object"))
    return labelled.with_columns(
        pl.concat_str(pl.lit("updates/"), "subject", pl.lit("/"), "pid", pl.lit("/"), "new_object")
        .alias("_id"),
        latest.alias("latest"),
        pl.col("old_objects").alias("outdated"),
        pl.concat_list(latest, pl.col("old_objects")).alias("all_answers"),
    )  # fmt: skip


def _setting(
    kg: KnowledgeGraph,
    groups: Groups,
    updates: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
) -> tuple[ChoiceSetting, DistractorPool, dict[str, float]]:
    values = set(updates.get_column("new_object"))
    values |= set(updates.get_column("old_objects").explode().drop_nulls().to_list())
    snapshot = updates.get_column("snapshot")[0] if updates.height else None
    groups.naming.names(values, snapshot)
    words = groups.naming.words_of(values, snapshot)
    choices = groups.naming.choices(snapshot, request.seed, request.options)
    wiki = f"{request.lang}wiki"
    with kg.connection() as connection:
        pool = DistractorPool.read(connection, wikipedia_at(connection, wiki, dates.current))
        subjects = updates.get_column("subject").to_list()
        popularity = subject_popularity(connection, kg.layout, subjects, wiki, dates.current)
    return replace(choices, words=words), pool, popularity


def read_updates(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
) -> pl.DataFrame:
    """The knowledge updates between the cutoff and current (``kg.updates``)."""
    return kg.updates(dates.cutoff, dates.current, lang=request.lang, gap=request.gap)


def updates_config(
    kg: KnowledgeGraph,
    groups: Groups,
    request: BenchmarkRequest,
    dates: Dates,
    catalogue: RelationCatalogue,
    on_step: Callable[[str], None] = lambda _: None,
) -> ConfigExport:
    """The ``updates`` config: every knowledge update between the cutoff and current."""
    updates = groups.ahead.take(
        "updates", lambda: read_updates(kg, groups, request, dates, catalogue)
    )
    on_step(f"updates: {updates.height:,} knowledge updates")
    setting, pool, popularity = _setting(kg, groups, updates, request, dates)
    revisions = supporting(kg, request, dates)
    left_out: Counter[str] = Counter()
    asked = answered_choices(_asked(updates, catalogue, left_out), setting, left_out)
    items: list[QaItem] = []
    for row in asked.iter_rows(named=True):
        revision = revisions.get((row["subject"], row["pid"], row["new_object"]))
        row = {**row, "popularity": popularity.get(row["subject"]), "dates": dates.iso()}
        items.append(update_item(row, catalogue, revision, pool))
    split = split_frame(items, request, UPDATES_SCHEMA)
    counts = {
        "knowledge_updates": updates.height,
        "supporting_revisions": len(revisions),
        "left_out": dict(sorted(left_out.items())),
        "built": {UPDATES_SPLIT: len(items)},
    }
    return ConfigExport(
        "updates", UPDATES_SCHEMA, {UPDATES_SPLIT: [split]}, counts, UPDATES_DESCRIPTION
    )
