"""A chain's record (:func:`chain_record`) from what every chain of a part shares
(:class:`ChainSetting`): its question composed from its relations' templates, each hop's
question and context, or why the chain is left out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kgdiff.export.inputs.contexts import Context
from kgdiff.export.records.choice_frames import GOLD_PARTLY_UNNAMED
from kgdiff.export.relations.agreement import plural_subject
from kgdiff.export.relations.model import Relation, RelationCatalogue
from kgdiff.export.rules.existence import ANSWER_NOT_YET_EXISTING
from kgdiff.export.rules.salience import Salience, relation_reason, subject_reason_of
from kgdiff.export.rules.subject_echo import ANSWER_NAMES_SUBJECT, names_subject, subject_needles
from kgdiff.export.rules.subject_state import HOP_CHANGED, PAST_HOP_HELD_SEVERAL
from kgdiff.export.rules.tautology import TAUTOLOGY, judge
from kgdiff.export.words.answer_hygiene import PLACEHOLDERS, placeholder_reason_of
from kgdiff.export.words.names import Names, main_texts_of, texts_of


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
