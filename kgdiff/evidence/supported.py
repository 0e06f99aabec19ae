"""EvoWiki's evidence filters as ``supported`` columns on a classification.

The SQL is ``sql/evidence/supported.sql``; this module picks the wiki and wraps it in views."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kgdiff.sqlfiles import IDENTIFIER, render
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import read_manifest
from kgdiff.store.vetting import evidence_tables, wikipedia_snapshots
from kgdiff.wording import counted

PREFERRED_WIKI = "enwiki"


def evidence_files(layout: StoreLayout) -> list[Path]:
    """The evidence tables of the Wikipedia snapshots published now (those the catalog
    shows, :mod:`kgdiff.store.vetting`)."""
    shown, _ = wikipedia_snapshots(layout)
    return evidence_tables(layout, [m.name for m in shown])[0]


def evidence_wiki(layout: StoreLayout) -> str | None:
    """The wiki whose evidence the ``supported`` columns use: enwiki if it has any, else the
    first wiki (by name) that has evidence; ``None`` when there is no evidence at all."""
    wikis = set()
    for path in evidence_files(layout):
        manifest = layout.wikipedia_snapshot_dir(path.parent.name) / "manifest.json"
        wikis.add(read_manifest(manifest).wiki or PREFERRED_WIKI)
    if not wikis:
        return None
    return PREFERRED_WIKI if PREFERRED_WIKI in wikis else sorted(wikis)[0]


def evidence_snapshots(layout: StoreLayout) -> list[str]:
    """The names of the Wikipedia snapshots that have an evidence table."""
    return [Path(path).parent.name for path in evidence_files(layout)]


def supported_select(
    build: str, init: str, cutoff: str, current: str, wiki: str, built: list[str]
) -> str:
    """The classification whose files are ``build`` (a glob relative to the store root) with
    its evidence columns: a SELECT statement for a connection to the catalog, whose macro
    ``kgdiff_store_files`` finds the files; ``built`` names the Wikipedia snapshots with
    evidence (:func:`evidence_snapshots`)."""
    return (
        render(
            "evidence/supported",
            build=build,
            init=init,
            cutoff=cutoff,
            current=current,
            wiki=wiki,
            built=built,
        )
        .rstrip()
        .rstrip(";")
    )


def supported_view(view: str, select: str, temporary: bool = False) -> str:
    """``CREATE OR REPLACE [TEMP] VIEW view AS select`` (temporary: on a read-only catalog)."""
    if not IDENTIFIER.fullmatch(view):
        raise ValueError(f"not a view name: {view!r}")
    kind = "TEMP VIEW" if temporary else "VIEW"
    return f"CREATE OR REPLACE {kind} {view} AS\n{select};"


@dataclass(frozen=True)
class SupportedSummary:
    """How many groups of each level the evidence supports, does not support or cannot
    tell, and why it cannot."""

    counts: dict[str, dict[bool | None, int]] = field(default_factory=dict)
    """Level → ``supported`` (True, False, None) → groups."""
    reasons: dict[str, int] = field(default_factory=dict)
    """``supported_reason`` → groups whose ``supported`` is NULL for that reason."""

    def reason_lines(self) -> list[str]:
        """One line per reason, most groups first: ``unknown, 12 groups: <reason>``."""
        ranked = sorted(self.reasons.items(), key=lambda item: (-item[1], item[0]))
        return [f"unknown, {counted(groups, 'group')}: {reason}" for reason, groups in ranked]


def summarise_supported(rows: Iterable[tuple[Any, ...]]) -> SupportedSummary:
    """The summary of (level, supported, supported_reason, groups) rows
    (``sql/evidence/supported_counts.sql``)."""
    summary = SupportedSummary()
    for level, supported, reason, groups in rows:
        by_value = summary.counts.setdefault(str(level), {})
        by_value[supported] = by_value.get(supported, 0) + int(groups)
        if supported is None:
            key = str(reason or "no reason recorded")
            summary.reasons[key] = summary.reasons.get(key, 0) + int(groups)
    return summary
