"""The tables ``kgdiff score`` prints: the scores per level and relation, or the pools'
patterns and per-year categories."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from kgdiff.cli.tables import figure, key, prose
from kgdiff.export.dataset.folder import split_order
from kgdiff.export.scoring.chrono import PATTERNS, YEAR_CATEGORIES
from kgdiff.wording import counted

TASK_KEYS: dict[str, tuple[str, ...]] = {
    "generation": ("em", "f1", "alias_em", "fuzzy", "outdated_rate", "unknown_rate"),
    "mc": ("mc_accuracy", "outdated_rate", "unknown_rate", "invalid_rate"),
    "tf": ("tf_accuracy", "unknown_rate", "invalid_rate"),
}
"""The columns of each task's table, in the order docs/scoring.md lists the keys."""


def _cells(tally: Mapping[str, Any], keys: Sequence[str]) -> list[str]:
    values = [tally.get(name) for name in keys]
    return [str(tally["n"]), *("—" if v is None else f"{v:.3f}" for v in values)]


def print_scores(console: Console, report: Mapping[str, Any]) -> None:
    """The overall scores, then per level, then per relation; then what was not scored."""
    keys = TASK_KEYS[report["task"]]
    keys = (*keys, *(key for key in ("date_match", "number_match") if key in report["overall"]))
    title = (
        f"{report['config']} ({', '.join(report['splits'])}), {report['task']}: "
        f"{report['overall']['n']:,} of {counted(report['records'], 'record')} scored"
    )
    # a temporal benchmark's records have a kind (the split) and no level
    groups = report.get("by_kind") or report["by_level"]
    first = prose("kind / relation" if "by_kind" in report else "level / relation")
    figures = [figure(name.replace("_", " ")) for name in ("n", *keys)]
    table = Table(first, *figures, title=title)
    table.add_row("all", *_cells(report["overall"], keys), end_section=True)
    for group in sorted(groups, key=split_order):
        table.add_row(group, *_cells(groups[group], keys))
    table.add_section()
    for relation, tally in report["by_relation"].items():
        table.add_row(relation, *_cells(tally, keys))
    console.print(table)
    _unscored(console, report)


def _unscored(console: Console, report: Mapping[str, Any]) -> None:
    if report["missing"]:
        shown = ", ".join(report["missing_ids"])
        has = "has" if report["missing"] == 1 else "have"
        line = f"{counted(report['missing'], 'record')} {has} no prediction (e.g. {shown})"
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    if report["unmatched"]:
        shown = ", ".join(report["unmatched_ids"])
        names = "names" if report["unmatched"] == 1 else "name"
        line = f"{counted(report['unmatched'], 'prediction')} {names} no record (e.g. {shown})"
        console.print(line, highlight=False, markup=False, soft_wrap=True)


def print_pools(console: Console, report: Mapping[str, Any]) -> None:
    """The groups' temporal patterns (all, and per state), then each year's categories."""
    states = list(report["by_state"])
    groups = counted(report["groups"], "group")
    title = f"pools: {groups} classified, {report['incomplete']:,} incomplete"
    columns = [key("pattern"), figure("groups"), figure("rate"), *map(figure, states)]
    table = Table(*columns, title=title)
    for pattern in PATTERNS:
        rate = report["patterns"]["rates"][pattern]
        per_state = [str(report["by_state"][state][pattern]) for state in states]
        shown = "—" if rate is None else f"{rate:.3f}"
        table.add_row(pattern, str(report["patterns"][pattern]), shown, *per_state)
    console.print(table)
    names = (*YEAR_CATEGORIES, "earlier", "later")
    columns = [key("year"), *(figure(name.replace("_", " ")) for name in names)]
    years = Table(*columns, title="per year")
    for year, counts in report["years"].items():
        years.add_row(year, *(str(counts[name]) for name in names))
    console.print(years)
    _unscored(console, report)
