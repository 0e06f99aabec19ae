"""The ``updates`` config: AntiLeakBench's knowledge updates after the cutoff (``kg.updates``,
valid time), each asked like a ``qa`` record, with the first Wikipedia revision that states it
as context when the store has the article's history (``kg.supporting_revisions``), and
distractor documents (docs/benchmark-export.md#the-updates-config)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from kgdiff.errors import StoreError
from kgdiff.export.core.benchmark_model import BenchmarkRequest, ConfigExport, Dates
from kgdiff.export.dataset.schema import UPDATES_SCHEMA
from kgdiff.export.dataset.splits import split_frame
from kgdiff.export.inputs.contexts import subject_popularity, wikipedia_at
from kgdiff.export.inputs.group_file import NOT_SUBSTANTIVE
from kgdiff.export.inputs.groups import FIXED_FACT_CORRECTED, Groups, corrected
from kgdiff.export.records.asked import ASKED, asked_texts
from kgdiff.export.records.choice_frames import ChoiceSetting, answered_choices
from kgdiff.export.records.items import QaItem, mc_question
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.existence import EXISTENCE_SCHEMA, without_not_yet
from kgdiff.export.rules.salience import Salience, asked_subjects, with_standing
from kgdiff.export.updates.documents import DOCUMENT_COUNTS, DistractorPool, document_variants
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
    options (the columns of :func:`~kgdiff.export.records.choice_frames.answered_choices`), its
    subject's ``popularity`` and the export's ``dates``."""
    choices = row
    relation = catalogue[row["pid"]]
    label, key = row["subject_label"], update_key(row)
    phrase, past = row["subject_phrase"] or label, bool(row["subject_ended"])
    plural = bool(row["subject_plural"])
    statements = [relation.statement(phrase, choices[f"{name}_phrase"], past, plural)
                  if choices[name] else None for name in ("correct", "wrong")]  # fmt: skip
    truth = choices["truth"]
    entity_names = [label, *choices["answers"], *choices["outdated_answers"]]
    question = row["question"]  # as the tautology check read it (records.asked.asked_texts)
    record = {
        "id": key, "subject": row["subject"], "subject_label": label, "pid": relation.pid,
        "relation": relation.label, "question": question, "cloze": row["cloze"],
        "answers": choices["answers"], "answer_labels": choices["answer_labels"],
        "latest": list(row["latest"]), "outdated": list(row["outdated"]),
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
    updates: pl.DataFrame,
    setting: UpdatesSetting,
    request: BenchmarkRequest,
    catalogue: RelationCatalogue,
    tally: Counter[str],
) -> pl.DataFrame:
    """The substantive updates of relations in the catalogue whose subject is asked about
    (:mod:`kgdiff.export.rules.salience`), as rows of
    :func:`~kgdiff.export.records.choice_frames.answered_choices` with the texts of
    :data:`ASKED`."""
    substantive = updates.filter(~pl.col("change_nature").is_in(NOT_SUBSTANTIVE))
    for nature in NOT_SUBSTANTIVE:  # nothing a model knew became false
        tally[nature] += updates.filter(pl.col("change_nature") == nature).height
    known = substantive.filter(pl.col("pid").is_in(catalogue.pids))
    tally["relation_not_in_catalogue"] += substantive.height - known.height
    fixed = corrected(catalogue, pl.lit(True))
    tally[FIXED_FACT_CORRECTED] += known.filter(fixed).height
    known = known.filter(~fixed)
    known = known.drop("subject_label")
    asked = asked_subjects(known, setting.subjects, Salience.of(request), catalogue, tally)
    asked = asked.with_columns(
        pl.concat_str(pl.lit("updates/"), "subject", pl.lit("/"), "pid", pl.lit("/"), "new_object")
        .alias("_id"),
        pl.concat_list(pl.col("new_object")).alias("latest"),
    )  # fmt: skip
    asked = without_not_yet(asked, "latest", setting.existence, catalogue, tally)
    asked = asked.with_columns(
        pl.col("old_objects").alias("outdated"),
        pl.concat_list("latest", pl.col("old_objects")).alias("all_answers"),
    )
    return asked_texts(asked, catalogue)


@dataclass(frozen=True)
class UpdatesSetting:
    """What every update record shares: the choices' setting, the distractor documents and
    the subjects (:func:`~kgdiff.export.rules.salience.with_standing`)."""

    choices: ChoiceSetting
    documents: DistractorPool
    subjects: pl.DataFrame
    existence: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=EXISTENCE_SCHEMA))
    """When the subjects and new objects began and ended (:mod:`kgdiff.export.rules.existence`)."""


def _setting(
    kg: KnowledgeGraph,
    groups: Groups,
    updates: pl.DataFrame,
    request: BenchmarkRequest,
    dates: Dates,
) -> UpdatesSetting:
    """The choices' setting, the distractor documents and the subjects
    (:func:`~kgdiff.export.rules.salience.with_standing`: how each reads in a sentence, whether it
    still exists, its popularity)."""
    values = set(updates.get_column("new_object"))
    values |= set(updates.get_column("old_objects").explode().drop_nulls().to_list())
    subjects = updates.get_column("subject").unique().to_list()
    snapshot = updates.get_column("snapshot")[0] if updates.height else None
    groups.naming.read(snapshot, values, subjects)
    words = groups.naming.words_named(values, snapshot)
    choices = groups.naming.choices(snapshot, request.seed, request.options, words)
    wiki = f"{request.lang}wiki"
    with kg.connection() as connection:
        pool = DistractorPool.read(connection, wikipedia_at(connection, wiki, dates.current))
        popularity = subject_popularity(connection, kg.layout, subjects, wiki, dates.current)
        existence = groups.naming.states.existence([*values, *subjects])
    ended = groups.naming.states.ended(subjects, snapshot, dates.current)
    facts = with_standing(groups.naming.subjects(subjects, snapshot), popularity, ended)
    return UpdatesSetting(choices, pool, facts, existence)


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
    setting = _setting(kg, groups, updates, request, dates)
    revisions = supporting(kg, request, dates)
    left_out: Counter[str] = Counter()
    asked = _asked(updates, setting, request, catalogue, left_out)
    asked = answered_choices(asked, setting.choices, left_out, ASKED)
    items: list[QaItem] = []
    for row in asked.iter_rows(named=True):
        revision = revisions.get((row["subject"], row["pid"], row["new_object"]))
        row = {**row, "dates": dates.iso()}
        items.append(update_item(row, catalogue, revision, setting.documents))
    split = split_frame(items, request, UPDATES_SCHEMA)
    counts = {
        "knowledge_updates": updates.height,
        "supporting_revisions": len(revisions),
        "left_out": dict(sorted(left_out.items())),
        "built": {UPDATES_SPLIT: len(items)},
        "dropped": {UPDATES_SPLIT: left_out},
    }
    return ConfigExport(
        "updates", UPDATES_SCHEMA, {UPDATES_SPLIT: [split]}, counts, UPDATES_DESCRIPTION
    )
