"""The audit's figures: per config and split, each check's finding; over the whole export,
the hard targets a benchmark-grade export meets (docs/benchmark-export.md#the-quality-audit)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kgdiff.errors import KgdiffError
from kgdiff.export.audit.dropped import Dropped
from kgdiff.export.audit.findings import Finding
from kgdiff.export.audit.nature import EVOLVED_SPLITS

CHECKS = (
    "tautology",
    "names_subject",
    "reformatted",
    "refined",
    "option_kind",
    "duplicate_options",
    "unsayable_answers",
    "unsayable_outdated",
    "unsayable_options",
    "labelled",
    "context",
    "supported",
)
"""Every finding of a split, in the order the report lists them."""
EXIT_TARGETS_MISSED = 8


class TargetsMissedError(KgdiffError):
    """``kgdiff export audit --strict``: the export misses a hard target."""

    exit_code = EXIT_TARGETS_MISSED


UNSAYABLE = ("unsayable_answers", "unsayable_outdated", "unsayable_options")
OPTION_KIND_BOUND = 0.99


@dataclass(frozen=True)
class SplitAudit:
    """The findings of one split (a check that does not apply to it is absent)."""

    config: str
    split: str
    records: int
    dropped: Dropped | None
    findings: dict[str, Finding] = field(default_factory=dict)

    def count(self, check: str) -> int:
        """The finding's count, 0 when the check does not apply."""
        found = self.findings.get(check)
        return found.count if found else 0

    def as_json(self) -> dict[str, Any]:
        """The split's figures as JSON."""
        dropped = None
        if self.dropped is not None:
            scope, counts = self.dropped.scope, self.dropped.counts
            dropped = {"scope": scope, "total": self.dropped.total, "reasons": counts}
        document: dict[str, Any] = {"records": self.records, "dropped": dropped}
        for check in CHECKS:
            found = self.findings.get(check)
            document[check] = found.as_json() if found else None
        return document


@dataclass(frozen=True)
class Target:
    """One hard target: whether the export meets it, its figure and its bound."""

    key: str
    text: str
    met: bool
    figure: str
    bound: str
    examples: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The target as JSON."""
        return {
            "text": self.text,
            "met": self.met,
            "figure": self.figure,
            "bound": self.bound,
            "examples": self.examples,
        }


def _examples(
    splits: Sequence[SplitAudit], checks: Sequence[str], keep: Callable[[SplitAudit], bool]
) -> list[str]:
    """A few records at fault (each finding quotes only those), two per split and check."""
    quoted = [
        example
        for split in splits
        if keep(split)
        for check in checks
        if (found := split.findings.get(check)) is not None
        for example in found.examples[:2]
    ]
    return quoted[:6]


def _zero(
    key: str,
    text: str,
    splits: Sequence[SplitAudit],
    checks: Sequence[str],
    keep: Callable[[SplitAudit], bool] = lambda _: True,
) -> Target:
    total = sum(split.count(check) for split in splits if keep(split) for check in checks)
    figure = f"{total:,} record{'s' if total != 1 else ''}"
    return Target(key, text, total == 0, figure, "0", _examples(splits, checks, keep))


def _agreement(splits: Sequence[SplitAudit]) -> Target:
    found = [split.findings["option_kind"] for split in splits if "option_kind" in split.findings]
    agree, checked = sum(f.count for f in found), sum(f.checked for f in found)
    unchecked = sum(f.unchecked for f in found)
    share = agree / checked if checked else 1.0
    figure = f"{share:.1%} of {checked:,} distractors" if checked else "no distractor judged"
    if unchecked:
        figure += f" ({unchecked:,} not judged)"
    text = "distractors of the gold's kind"
    met = share >= OPTION_KIND_BOUND
    return Target(
        "option_kind",
        text,
        met,
        figure,
        f"≥ {OPTION_KIND_BOUND:.0%}",
        _examples(splits, ["option_kind"], lambda _: True),
    )


def targets(splits: Sequence[SplitAudit]) -> list[Target]:
    """The hard targets over every split audited."""
    evolved = lambda split: (split.config, split.split) in EVOLVED_SPLITS  # noqa: E731
    return [
        _zero("tautology", "no question gives its answer away", splits, ["tautology"]),
        _zero(
            "names_subject", "no gold answer spells its subject's name", splits, ["names_subject"]
        ),
        _zero(
            "non_substantive",
            "no reformatted or refined change in an evolved split",
            splits,
            ["reformatted", "refined"],
            evolved,
        ),
        _zero(
            "unsayable",
            "no symbol-only or placeholder answer, outdated answer or option",
            splits,
            UNSAYABLE,
        ),
        _zero(
            "duplicate_options", "no two options of the same text", splits, ["duplicate_options"]
        ),
        _agreement(splits),
    ]


@dataclass(frozen=True)
class AuditReport:
    """The audit of one export folder."""

    splits: list[SplitAudit]
    targets: list[Target]
    notes: list[str] = field(default_factory=list)
    store: dict[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """Whether every hard target is met."""
        return all(target.met for target in self.targets)

    def as_json(self) -> dict[str, Any]:
        """The report as JSON (what ``--json`` prints and ``kgdiff_build.json`` holds under
        ``audit``)."""
        configs: dict[str, dict[str, Any]] = {}
        for split in self.splits:
            configs.setdefault(split.config, {})[split.split] = split.as_json()
        return {
            "passed": self.passed,
            "targets": {target.key: target.as_json() for target in self.targets},
            "notes": self.notes,
            "store": self.store,
            "configs": configs,
        }


def check_targets(report: AuditReport) -> None:
    """Raise :class:`TargetsMissedError` naming the hard targets the export misses."""
    missed = [target for target in report.targets if not target.met]
    if missed:
        named = "; ".join(f"{target.text} ({target.figure})" for target in missed)
        raise TargetsMissedError(
            f"the export misses {len(missed)} hard target(s) of the audit: {named}"
        )
