"""The columns of the ``evidence`` table, and one row of it."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from kgdiff.evidence.mentions import Mention

EVIDENCE_SCHEMA = pa.schema(
    [
        ("snapshot", pa.string()),
        ("wiki", pa.string()),
        ("page_id", pa.int64()),
        ("title", pa.string()),
        ("revision_id", pa.int64()),
        ("timestamp", pa.timestamp("s")),
        ("page_role", pa.string()),
        ("subject", pa.string()),
        ("pid", pa.string()),
        ("object_qid", pa.string()),
        ("target", pa.string()),
        ("term", pa.string()),
        ("term_kind", pa.string()),
        ("weak", pa.bool_()),
        ("weak_reason", pa.string()),
        ("section", pa.string()),
        ("sentence_index", pa.int32()),
        ("sentence", pa.string()),
        ("mentions", pa.int32()),
    ]
)
"""One row per (Wikipedia snapshot, fact, page role) whose page mentions the other entity:
``page_role`` 'subject' means the subject's article mentions the object (``target``),
'object' that the object's article mentions the subject. ``weak`` rows are mentions only
through short names or demonyms. ``section`` is 'lead' or 'body'."""


def evidence_row(
    snapshot: str, page: dict[str, Any], fact: dict[str, Any], mention: Mention, lead_count: int
) -> dict[str, Any]:
    """The evidence row of ``fact`` on ``page``, found by ``mention``."""
    return {
        "snapshot": snapshot,
        "wiki": page["wiki"],
        "page_id": page["page_id"],
        "title": page["title"],
        "revision_id": page["revision_id"],
        "timestamp": page["timestamp"],
        "page_role": fact["page_role"],
        "subject": fact["subject"],
        "pid": fact["pid"],
        "object_qid": fact["object_qid"],
        "target": fact["target"],
        "term": mention.name.text,
        "term_kind": mention.name.kind,
        "weak": mention.weak,
        "weak_reason": mention.name.weak_reason,
        "section": "lead" if mention.sentence_index < lead_count else "body",
        "sentence_index": mention.sentence_index,
        "sentence": mention.sentence,
        "mentions": mention.mentions,
    }
