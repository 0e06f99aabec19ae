"""The demo's evidence verdicts: whether Wikipedia ``supported`` the facts (EvoWiki's filter),
for the demo's classification and at the Wikipedia sample's date."""

from __future__ import annotations

from datetime import date

from rich.markup import escape
from rich.table import Table

from kgdiff.cli.common import console
from kgdiff.demo import Verdicts, load_samples
from kgdiff.evidence.supported import SupportedSummary


def _summary(summary: SupportedSummary | None, title: str) -> None:
    """Groups per level that the evidence supports, does not, or cannot judge; then why."""
    if summary is None:
        return
    table = Table("level", "supported", "not supported", "unknown", title=title)
    for level, by_value in summary.counts.items():
        table.add_row(level, *(f"{by_value.get(value, 0):,}" for value in (True, False, None)))
    console.print(table)
    for line in summary.reason_lines():
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def print_verdicts(verdicts: Verdicts, demo_dates: str) -> None:
    """Both verdicts, and a few supported groups with the sentence that states them."""
    console.rule("[bold]does Wikipedia support the facts? (EvoWiki's `supported`)")
    _summary(verdicts.demo, f"the classification above ({demo_dates})")
    params = verdicts.judged.params
    latest = load_samples()[-1]
    gap = (date.fromisoformat(params.current) - date.fromisoformat(latest.date)).days
    console.print(
        "supported compares the Wikipedia snapshots at init, cutoff and current; the only"
        f" sample is of {params.init}, so the facts are judged again at init {params.init},"
        f" cutoff {params.cutoff}, current {params.current}: they read the Wikidata of"
        f" {latest.date} ({latest.name}, {gap} days before current; the gap is allowed), so"
        " every group is stable there, and supported when the article states its answer.",
        soft_wrap=True,
        highlight=False,
    )
    _summary(verdicts.judged_summary, "at the Wikipedia sample's date")
    table = Table("subject", "property", "answer", "page: the sentence stating it")
    for _, subject, prop, latest_labels, page, sentence in verdicts.examples:
        answer = ", ".join(str(v) for v in latest_labels) if isinstance(latest_labels, list) else ""
        text = str(sentence) if len(str(sentence)) <= 100 else f"{str(sentence)[:99]}…"
        table.add_row(str(subject), str(prop), answer, escape(f"{page}: {text}"))
    if verdicts.examples:
        table.title = "groups Wikipedia supports"
        console.print(table)
