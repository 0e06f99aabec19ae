"""The table macros the catalog defines, in the order they must be created."""

from __future__ import annotations

from kgdiff.temporal import chains, facts, pools, timeline, updates
from kgdiff.temporal.classify import classify_macro
from kgdiff.temporal.dates import date_reads_macro
from kgdiff.temporal.helper_macros import helper_macros


def catalog_macros() -> list[str]:
    """``CREATE MACRO`` statements: the helper macros (the time value macros, which timeline
    uses, and kgdiff_pooled, which pools uses), date_reads, classify (which uses it),
    timeline, then pools and chains (which use date_reads and the store's entity_labels), and
    updates and facts_at (which use classify)."""
    return [
        *helper_macros(),
        date_reads_macro(),
        classify_macro(),
        timeline.catalog_macro(),
        pools.catalog_macro(),
        chains.catalog_macro(),
        updates.catalog_macro(),
        facts.catalog_macro(),
    ]
