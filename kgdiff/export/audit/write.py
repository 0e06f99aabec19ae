"""The audit put into an export folder: a section of its dataset card (``README.md``) and the
key ``audit`` of its ``kgdiff_build.json``; each file replaced whole (a reader sees the old or
the new one, never half of one)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from kgdiff.export.audit.render import SECTION, card_section
from kgdiff.export.audit.report import AuditReport

CARD_FILE = "README.md"
BUILD_FILE = "kgdiff_build.json"
BEFORE = "## Licence"
"""The card's section the audit's goes before (else at the end)."""


def _replace(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)


def with_section(card: str, section: str) -> str:
    """The card with the audit's section in place of an earlier one, before the licence."""
    if SECTION in card:
        start = card.index(SECTION)
        following = card.find("\n## ", start + len(SECTION))
        card = card[:start] + (card[following + 1 :] if following >= 0 else "")
    place = card.find(BEFORE)
    if place < 0:
        return card.rstrip("\n") + "\n\n" + section
    return card[:place] + section + card[place:]


def write_audit(folder: Path, report: AuditReport) -> None:
    """Write the audit into the card and ``kgdiff_build.json`` of ``folder`` (each made when
    missing); the same report gives the same bytes."""
    card = folder / CARD_FILE
    text = card.read_text(encoding="utf-8") if card.is_file() else ""
    _replace(card, with_section(text, card_section(report)))
    build = folder / BUILD_FILE
    document = json.loads(build.read_text(encoding="utf-8")) if build.is_file() else {}
    document["audit"] = report.as_json()
    _replace(build, json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
