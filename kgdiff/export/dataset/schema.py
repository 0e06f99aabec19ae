"""The columns of each exported config: their polars types (so every split has the same
schema, empty or not) and their Hugging Face feature types for the dataset card."""

from __future__ import annotations

import polars as pl

TEXT = pl.String()
TEXTS = pl.List(pl.String())

CHOICE_FIELDS: dict[str, pl.DataType] = {
    "mc_question": TEXT,
    "options": TEXTS,
    "choice_types": TEXTS,
    "gold": TEXT,
    "tf_statement": TEXT,
    "tf_label": pl.Boolean(),
}
"""The multiple-choice and true/false fields, as ``qa``, ``updates`` and ``pools`` records hold
them."""

QA_SCHEMA = pl.Schema(
    {
        "id": TEXT,
        "subject": TEXT,
        "subject_label": TEXT,
        "pid": TEXT,
        "relation": TEXT,
        "level": TEXT,
        "change_kind": TEXT,
        "change_nature": TEXT,
        "question": TEXT,
        "cloze": TEXT,
        "answers": TEXTS,
        "answer_labels": TEXTS,
        "latest": TEXTS,
        "outdated": TEXTS,
        "all_answers": TEXTS,
        "outdated_answers": TEXTS,
        **CHOICE_FIELDS,
        "context": TEXT,
        "context_page": TEXT,
        "context_revision": pl.Int64(),
        "context_sentence": pl.Int64(),
        "popularity": pl.Float64(),
        "init": TEXT,
        "cutoff": TEXT,
        "current": TEXT,
    }
)
"""The ``qa`` config's columns, in order (docs/benchmark-export.md#qa)."""

WIKIPEDIA_FIELDS = frozenset({"context", "context_page", "hop_contexts", "hop_context_pages"})
"""Columns holding Wikipedia text (CC BY-SA 4.0); every other column is Wikidata's (CC0)."""

_SCALARS: dict[object, str] = {
    pl.String(): "string",
    pl.Boolean(): "bool",
    pl.Int64(): "int64",
    pl.Int32(): "int32",
    pl.Float64(): "float64",
}


def feature_lines(schema: pl.Schema, indent: str) -> list[str]:
    """The card's ``features:`` entries of ``schema`` (YAML lines, each starting with
    ``indent``): a scalar as ``dtype``, a list of scalars as ``sequence`` (which every
    version of the datasets library reads)."""
    lines = []
    for name, dtype in schema.items():
        lines.append(f"{indent}- name: {name}")
        if isinstance(dtype, pl.List):
            lines.append(f"{indent}  sequence: {_SCALARS[dtype.inner]}")
        else:
            lines.append(f"{indent}  dtype: {_SCALARS[dtype]}")
    return lines


INTS = pl.List(pl.Int64())

MULTI_HOP_SCHEMA = pl.Schema(
    {
        "id": TEXT,
        "subject": TEXT,
        "subject_label": TEXT,
        "n_hops": pl.Int64(),
        "pids": TEXTS,
        "relations": TEXTS,
        "hop_subjects": TEXTS,
        "hop_subject_labels": TEXTS,
        "hop_objects": TEXTS,
        "hop_object_labels": TEXTS,
        "hop_questions": TEXTS,
        "question": TEXT,
        "cloze": TEXT,
        "answers": TEXTS,
        "answer_labels": TEXTS,
        "latest": TEXTS,
        "date": TEXT,
        "snapshot": TEXT,
        "hop_contexts": TEXTS,
        "hop_context_pages": TEXTS,
        "hop_context_revisions": INTS,
        "hop_context_sentences": INTS,
        "popularity": pl.Float64(),
        "init": TEXT,
        "cutoff": TEXT,
        "current": TEXT,
    }
)
"""The ``multi_hop`` config's columns, in order (docs/benchmark-export.md#the-multi_hop-config);
the ``hop_*`` lists have one entry per hop, in order (a context is null where a hop has none)."""

UPDATES_SCHEMA = pl.Schema(
    {
        "id": TEXT,
        "subject": TEXT,
        "subject_label": TEXT,
        "pid": TEXT,
        "relation": TEXT,
        "question": TEXT,
        "cloze": TEXT,
        "answers": TEXTS,
        "answer_labels": TEXTS,
        "latest": TEXTS,
        "outdated": TEXTS,
        "outdated_answers": TEXTS,
        "new_start": TEXT,
        "old_end": TEXT,
        **CHOICE_FIELDS,
        "context": TEXT,
        "context_page": TEXT,
        "context_revision": pl.Int64(),
        "evidence_sentence": TEXT,
        "distractors_3": TEXTS,
        "distractors_5": TEXTS,
        "distractors_7": TEXTS,
        "popularity": pl.Float64(),
        "init": TEXT,
        "cutoff": TEXT,
        "current": TEXT,
    }
)
"""The ``updates`` config's columns, in order (docs/benchmark-export.md#the-updates-config)."""

POOLS_SCHEMA = pl.Schema(
    {
        "id": TEXT,
        "subject": TEXT,
        "subject_label": TEXT,
        "pid": TEXT,
        "relation": TEXT,
        "year": pl.Int64(),
        "state": TEXT,
        "change_nature": TEXT,
        "question": TEXT,
        "cloze": TEXT,
        "answers": TEXTS,
        "answer_labels": TEXTS,
        "objects": TEXTS,
        "precision_only": TEXTS,
        "earlier_objects": TEXTS,
        "later_objects": TEXTS,
        "outdated_answers": TEXTS,
        **CHOICE_FIELDS,
        "snapshot": TEXT,
        "popularity": pl.Float64(),
        "init": TEXT,
        "cutoff": TEXT,
        "current": TEXT,
    }
)
"""The ``pools`` config's columns, in order (docs/benchmark-export.md#the-pools-config): one
record per year of a group, as ``kgdiff score --config pools`` reads them."""


TEMPORAL_SCHEMA = pl.Schema(
    {
        "id": TEXT,
        "subject": TEXT,
        "subject_label": TEXT,
        "pid": TEXT,
        "relation": TEXT,
        "kind": TEXT,
        "question": TEXT,
        "answers": TEXTS,
        "answer_labels": TEXTS,
        "outdated_answers": TEXTS,
        "objects": TEXTS,
        "object_labels": TEXTS,
        "outdated": TEXTS,
        "statement_id": TEXT,
        "bound": TEXT,
        "start": TEXT,
        "start_precision": TEXT,
        "end": TEXT,
        "end_precision": TEXT,
        "date": TEXT,
        "date_precision": TEXT,
        "duration": pl.Int64(),
        "duration_unit": TEXT,
        "year": pl.Int64(),
        "unanswerable_reason": TEXT,
        **CHOICE_FIELDS,
        "popularity": pl.Float64(),
        "snapshot": TEXT,
        "init": TEXT,
        "cutoff": TEXT,
        "current": TEXT,
    }
)
"""The ``temporal`` config's columns, in order (docs/benchmark-export.md#the-temporal-config)."""
