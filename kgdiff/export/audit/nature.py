"""Reformatted and refined records: changes that are the same fact spelled or pinned down
again, which must not be asked as evolution.

A record is counted by its ``change_nature`` field when it says ``reformatted`` or
``refined``, and otherwise by the audit's own reading of its value keys
(:mod:`kgdiff.export.audit.value_twins`): in ``qa`` and ``updates`` its outdated against its
latest values, in ``pools`` the other years' objects against the year's. The hard target
looks at the splits that stand for change (:data:`EVOLVED_SPLITS`).
"""

from __future__ import annotations

import polars as pl

from kgdiff.export.audit.findings import EXAMPLES, Finding
from kgdiff.export.audit.value_twins import REFINED, REFORMATTED, change_nature

EVOLVED_SPLITS = frozenset({("qa", "evolved"), ("updates", "updates"), ("pools", "dynamic")})
"""The splits whose records must be substantive changes."""
NON_SUBSTANTIVE = (REFORMATTED, REFINED)


def _pairs(frame: pl.DataFrame, config: str) -> tuple[pl.Expr, pl.Expr] | None:
    """The (old values, values) keys the audit compares in a config's records."""
    columns = set(frame.columns)
    if config in ("qa", "updates") and {"outdated", "latest"} <= columns:
        return pl.col("outdated"), pl.col("latest")
    if config == "pools" and {"earlier_objects", "later_objects", "objects"} <= columns:
        return pl.concat_list("earlier_objects", "later_objects"), pl.col("objects")
    return None


def _own_reading(frame: pl.DataFrame, config: str) -> dict[str, tuple[str, str]]:
    """Record id → (nature, what changed) for the records the audit reads as reformatted or
    refined."""
    pairs = _pairs(frame, config)
    if pairs is None:
        return {}
    old, new = pairs
    rows = frame.select("id", old.alias("old"), new.alias("new")).filter(
        pl.col("old").list.len() > 0
    )
    found = {}
    for record_id, olds, news in rows.iter_rows():
        nature = change_nature(olds, news)
        if nature in NON_SUBSTANTIVE:
            found[record_id] = (nature, f"{' | '.join(olds)} → {' | '.join(news)}")
    return found


def _field_reading(frame: pl.DataFrame) -> dict[str, tuple[str, str]]:
    """Record id → (nature, "change_nature") for the records that say they are not
    substantive."""
    if "change_nature" not in frame.columns:
        return {}
    marked = frame.filter(pl.col("change_nature").is_in(NON_SUBSTANTIVE))
    return {
        rid: (nature, "change_nature")
        for rid, nature in marked.select("id", "change_nature").iter_rows()
    }


def non_substantive(frame: pl.DataFrame, config: str) -> dict[str, Finding] | None:
    """``reformatted`` and ``refined`` findings of a split (None when the records carry
    neither a ``change_nature`` nor values to compare)."""
    if "change_nature" not in frame.columns and _pairs(frame, config) is None:
        return None
    found = {**_own_reading(frame, config), **_field_reading(frame)}
    findings = {}
    for nature in NON_SUBSTANTIVE:
        ids = sorted(rid for rid, (kind, _) in found.items() if kind == nature)
        examples = [f"{rid}: {found[rid][1]}" for rid in ids[:EXAMPLES]]
        findings[nature] = Finding(len(ids), frame.height, examples)
    return findings
