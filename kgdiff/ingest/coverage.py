"""Whether an ingest makes a full snapshot or a subset one (see :mod:`kgdiff.store.coverage`)."""

from __future__ import annotations

from kgdiff.errors import UsageError
from kgdiff.ingest.detect import ENTITY_DOC
from kgdiff.store.manifest import COVERAGES, FULL, SUBSET


def subset_reason(kind: str, limit: int | None) -> str | None:
    """Why an input can only make a subset snapshot (None: it may be a whole dump)."""
    if limit is not None:
        return f"--limit {limit} keeps only part of the input"
    if kind == ENTITY_DOC:
        return "an entity file holds only the entities it lists"
    return None


def resolve_coverage(asked: str | None, kind: str, limit: int | None) -> str:
    """The coverage of the snapshot: ``asked`` (``--coverage``), else what the input implies
    (a subset for an entity file or ``--limit``, else a full dump)."""
    if asked is not None and asked not in COVERAGES:
        raise UsageError(f"--coverage {asked!r} is not one of {', '.join(COVERAGES)}")
    reason = subset_reason(kind, limit)
    if asked == FULL and reason is not None:
        raise UsageError(f"--coverage full cannot hold: {reason}; leave --coverage out")
    if asked is not None:
        return asked
    return SUBSET if reason is not None else FULL
