"""The audit in words: the table the command prints, and the dataset card's section.

Both show, per config and split, the records and what was left out, the counts of records at
fault (tautologies, golds that spell their subject, reformatted or refined, duplicate options,
unsayable answers), the share of
distractors of the gold's kind and the shares of records with labels, a context and a
``supported`` group; a dash where a check does not apply. Then the hard targets, met or not,
with a few records at fault.
"""

from __future__ import annotations

from collections.abc import Callable

from kgdiff.export.audit.findings import Finding
from kgdiff.export.audit.report import UNSAYABLE, AuditReport, SplitAudit

DASH = "—"
FAULTS = (
    "split",
    "records",
    "left out",
    "tautologies / spelled subject",
    "reformatted / refined",
    "unsayable",
)
"""The columns of records at fault (the first table the command prints)."""
SHARES = (
    "split",
    "options of the gold's kind",
    "duplicate options",
    "labelled",
    "context",
    "supported",
)
"""The columns of the options and of the shares (the second table)."""
COLUMNS = (*FAULTS, *SHARES[1:])
"""The card's one table."""
SECTION = "## Quality audit"
CONFIG_MARK = "*"
"""Marks a count of records left out that is the whole config's (the split's is unknown)."""


def _share(found: Finding | None) -> str:
    if found is None or found.share is None:
        return DASH
    return f"{found.share:.1%}"


def _count(split: SplitAudit, *checks: str) -> str:
    present = [split.findings[check] for check in checks if check in split.findings]
    return f"{sum(found.count for found in present):,}" if present else DASH


def _dropped(split: SplitAudit) -> str:
    if split.dropped is None:
        return DASH
    total = f"{split.dropped.total:,}"
    return total if split.dropped.scope == "split" else f"{total}{CONFIG_MARK}"


def _kinds(split: SplitAudit) -> str:
    found = split.findings.get("option_kind")
    if found is None or (not found.checked and not found.unchecked):
        return DASH
    shown = _share(found)
    return f"{shown} (+{found.unchecked:,} not judged)" if found.unchecked else shown


def _counts(split: SplitAudit, *checks: str) -> str:
    present = [split.findings[check] for check in checks if check in split.findings]
    return " / ".join(f"{found.count:,}" for found in present) if present else DASH


def cells(split: SplitAudit) -> dict[str, str]:
    """One split's cells by column name (:data:`COLUMNS`)."""
    return {
        "split": f"{split.config}/{split.split}",
        "records": f"{split.records:,}",
        "left out": _dropped(split),
        "tautologies / spelled subject": _counts(split, "tautology", "names_subject"),
        "reformatted / refined": _counts(split, "reformatted", "refined"),
        "duplicate options": _count(split, "duplicate_options"),
        "unsayable": _count(split, *UNSAYABLE),
        "options of the gold's kind": _kinds(split),
        "labelled": _share(split.findings.get("labelled")),
        "context": _share(split.findings.get("context")),
        "supported": _share(split.findings.get("supported")),
    }


def target_lines(report: AuditReport, mark: Callable[[bool], str]) -> list[str]:
    """One line per hard target (``mark`` says met or not), then the records it quotes."""
    lines = []
    for target in report.targets:
        lines.append(f"{mark(target.met)} {target.text}: {target.figure} (target {target.bound})")
        if not target.met:
            lines += [f"    {example}" for example in target.examples]
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def card_section(report: AuditReport) -> str:
    """The dataset card's section on the audit (Markdown, ending with a blank line)."""
    verdict = "meets every hard target" if report.passed else "misses some hard targets"
    lines = [
        SECTION,
        "",
        f"`kgdiff export audit` read every record back: this export {verdict}. Counts are"
        " records at fault, shares are of the split's records (of its distractors for the"
        " options); a dash where a check does not apply; a star marks the records left out of"
        " the whole config, where the split's own are not counted.",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
    ]
    for split in report.splits:
        shown = cells(split)
        lines.append("| " + " | ".join(_cell(shown[column]) for column in COLUMNS) + " |")
    lines += ["", "Records and what was left out, per config:", ""]
    lines += [f"- {_cell(line)}" for line in left_out_lines(report)]
    lines += ["", "Hard targets:", ""]
    for line in target_lines(report, lambda met: "- met:" if met else "- **not met**:"):
        lines.append(f"  - `{_cell(line.strip())}`" if line.startswith("    ") else line)
    if report.notes:
        lines += ["", "Notes:", "", *(f"- {note}" for note in report.notes)]
    return "\n".join(lines) + "\n\n"


def _reasons(splits: list[SplitAudit]) -> dict[str, int]:
    """A config's records left out per reason: summed over its splits when each counts its
    own, else the config's counts once."""
    counted = [split.dropped for split in splits if split.dropped is not None]
    scoped = [dropped for dropped in counted if dropped.scope == "split"]
    reasons: dict[str, int] = {}
    for dropped in scoped or counted[:1]:
        for reason, count in dropped.counts.items():
            reasons[reason] = reasons.get(reason, 0) + count
    return {reason: count for reason, count in reasons.items() if count}


def left_out_lines(report: AuditReport) -> list[str]:
    """One line per config: its records per split, and what was left out, most first
    (``qa: 80 records (stable 72, evolved 6, uncharted 2); left out: 1,183
    relation_not_in_catalogue, 138 no_answer_text``)."""
    configs: dict[str, list[SplitAudit]] = {}
    for split in report.splits:
        configs.setdefault(split.config, []).append(split)
    lines = []
    for config, splits in configs.items():
        total = sum(split.records for split in splits)
        each = ", ".join(f"{split.split} {split.records:,}" for split in splits)
        ranked = sorted(_reasons(splits).items(), key=lambda item: (-item[1], item[0]))
        left = ", ".join(f"{count:,} {reason}" for reason, count in ranked) or "nothing"
        lines.append(f"{config}: {total:,} records ({each}); left out: {left}")
    return lines
