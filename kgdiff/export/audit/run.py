"""Auditing an export folder: every check over every split, the store read once for what the
records alone cannot tell (item classes, ``supported``), then the hard targets."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from kgdiff.collector import bulk_allocations
from kgdiff.export.audit.coverage import labelled, supported, with_context
from kgdiff.export.audit.dropped import dropped
from kgdiff.export.audit.findings import Finding
from kgdiff.export.audit.folder import Split, export_splits, read_build, read_split
from kgdiff.export.audit.hygiene import (
    duplicate_options,
    unsayable_answers,
    unsayable_options,
    unsayable_outdated,
)
from kgdiff.export.audit.item_kinds import (
    EXPECTED_SCHEMA,
    StoreItems,
    expected_classes,
    item_agreement,
)
from kgdiff.export.audit.nature import non_substantive
from kgdiff.export.audit.option_kinds import (
    KEPT,
    Distractors,
    distractor_rows,
    option_kind_finding,
    tally,
)
from kgdiff.export.audit.person_kinds import kin_of, person_agreement, true_of_subject
from kgdiff.export.audit.report import AuditReport, SplitAudit, targets
from kgdiff.export.audit.spelled import spelled_subjects
from kgdiff.export.audit.store_view import StoreView
from kgdiff.export.audit.tautology import tautologies
from kgdiff.export.relations.catalogue import shipped_catalogue
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.query.graph import KnowledgeGraph

UNKNOWN_CATALOGUE = (
    "the relation catalogue {name} the export was made with is not at hand: an item distractor"
    " of a gold the store gives no class is of its kind only as an object of the same property"
)
NO_STORE = (
    "{count:,} item distractors not judged: no store to read their classes from (give --store"
    " the store the export was made from)"
)


@dataclass
class _Pending:
    """A split audited but for its distractors' kinds."""

    audit: SplitAudit
    distractors: Distractors | None


def _findings(frame: pl.DataFrame, config: str, groups: pl.DataFrame | None) -> dict[str, Finding]:
    """Every finding of a split that the records tell alone (all but the distractors' kinds)."""
    found: dict[str, Finding | None] = {
        "tautology": tautologies(frame),
        "names_subject": spelled_subjects(frame),
        "duplicate_options": duplicate_options(frame),
        "unsayable_answers": unsayable_answers(frame),
        "unsayable_outdated": unsayable_outdated(frame),
        "unsayable_options": unsayable_options(frame),
        "labelled": labelled(frame),
        "context": with_context(frame),
        "supported": supported(frame, groups if config == "qa" else None),
    }
    found.update(non_substantive(frame, config) or {})
    return {name: finding for name, finding in found.items() if finding is not None}


def _audit_split(split: Split, build: dict[str, Any], groups: pl.DataFrame | None) -> _Pending:
    frame = read_split(split)
    findings = _findings(frame, split.config, groups)
    audit = SplitAudit(
        split.config, split.split, frame.height, dropped(build, split.config, split.split), findings
    )
    return _Pending(audit, tally(distractor_rows(frame)))


def _object_classes(
    build: dict[str, Any], catalogue: RelationCatalogue | None, notes: list[str]
) -> pl.DataFrame | None:
    """The object classes of the export's relation catalogue (``catalogue``, or the shipped
    one when the export used it); None, with a note, when it is not at hand."""
    if catalogue is None:
        name = build.get("parameters", {}).get("relations", "shipped")
        if name != "shipped":
            notes.append(UNKNOWN_CATALOGUE.format(name=name))
            return None
        catalogue = shipped_catalogue()
    found = {r.pid: r.object_class for r in catalogue if r.object_class is not None}
    return expected_classes(found)


def _fair(
    judged: pl.DataFrame, pairs: pl.DataFrame, items: StoreItems, expected: pl.DataFrame | None
) -> pl.DataFrame:
    """``judged`` (``pair``, ``agree``) with the distractors of a person that are not of its
    role or sex, and those true of their subject, not of the gold's kind
    (:mod:`kgdiff.export.audit.person_kinds`)."""
    classes = expected if expected is not None else pl.DataFrame(schema=EXPECTED_SCHEMA)
    person = person_agreement(
        pairs, items.labelled, items.classes, items.roles, items.properties, items.people,
        classes,
    )  # fmt: skip
    true = true_of_subject(pairs, items.labelled, items.held, kin_of(classes))
    found = judged.join(person, on="pair", how="left")
    fair = pl.col("person").fill_null(True) & ~pl.col("pair").is_in(
        true.get_column("pair").implode()
    )
    return found.select("pair", (pl.col("agree") & fair).alias("agree"))


def _judge_items(
    pending: list[_Pending],
    store: StoreView | None,
    lang: str,
    notes: list[str],
    expected: pl.DataFrame | None = None,
) -> None:
    """Judge the item distractors words could not judge, with the store (all splits at once)."""
    frames = [
        entry.distractors.rows.with_columns(pl.lit(index).alias("split_index"))
        for index, entry in enumerate(pending)
        if entry.distractors is not None
    ]
    if not frames:
        return
    rows = pl.concat(frames).with_row_index("pair")
    open_items = rows.filter(pl.col("agree").is_null() & (pl.col("ref_kind") == "item"))
    if store is None:
        if open_items.height:
            notes.append(NO_STORE.format(count=open_items.height))
        return
    gold = open_items.get_column("gold_items").explode().drop_nulls()
    subjects, pids = open_items.get_column("subject"), open_items.get_column("pid")
    items = store.items(lang, open_items.get_column("option"), gold, subjects, pids)
    pairs = open_items.select("pair", "option", "gold_items", "pid")
    judged = item_agreement(pairs, items, expected)
    judged = _fair(judged, open_items, items, expected)
    rows = rows.join(judged.rename({"agree": "by_store"}), on="pair", how="left")
    rows = rows.with_columns(pl.coalesce("agree", "by_store").alias("agree"))
    for index, entry in enumerate(pending):
        if entry.distractors is not None:
            part = rows.filter(pl.col("split_index") == index)
            agreeing = part.filter(pl.col("agree").fill_null(False)).height
            rest = part.filter(~pl.col("agree").fill_null(False)).select(KEPT)
            entry.distractors = Distractors(entry.distractors.agreeing + agreeing, rest)


def audit_export(
    folder: Path, kg: KnowledgeGraph | None = None, catalogue: RelationCatalogue | None = None
) -> AuditReport:
    """The audit of the export folder ``folder``; ``kg``, the store it was made from, lets
    the audit judge item distractors by their classes and read ``supported``; ``catalogue``,
    the relation catalogue it was made with (by default the shipped one, when the export says
    it used it), the classes a relation's objects are expected of."""
    with bulk_allocations():
        return _audit(folder, kg, catalogue)


def _audit(
    folder: Path, kg: KnowledgeGraph | None, catalogue: RelationCatalogue | None
) -> AuditReport:
    build = read_build(folder)
    notes: list[str] = []
    store = StoreView(kg, build, notes) if kg is not None else None
    facts = store.facts() if store is not None else {}
    groups = store.supported_groups() if store is not None else None
    pending = [_audit_split(split, build, groups) for split in export_splits(folder)]
    lang = str(build.get("parameters", {}).get("lang") or "en")
    expected = _object_classes(build, catalogue, notes) if store is not None else None
    _judge_items(pending, store, lang, notes, expected)
    audits = []
    for entry in pending:
        kinds = option_kind_finding(entry.distractors)
        if kinds is not None:
            entry.audit.findings["option_kind"] = kinds
        audits.append(entry.audit)
    if not build:
        notes.append(f"{folder}: no kgdiff_build.json, so nothing is known of the records left out")
    return AuditReport(audits, targets(audits), notes, facts)
