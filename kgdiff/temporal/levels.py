"""The levels a classification gives a (subject, property) group (docs/classification.md)."""

from __future__ import annotations

LEVELS = (
    "stable",
    "evolved",
    "uncharted",
    "recent",
    "retracted",
    "ambiguous",
    "not_covered",
)
"""Every level, in the order users read them (not_covered: a subset snapshot read lacks the
subject; ambiguous: a statement's validity is unknown at a date)."""
CHANGE_KINDS = ("added", "removed", "replaced", "mixed")
"""How an evolved group changed."""
