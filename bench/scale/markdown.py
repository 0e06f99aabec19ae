"""The ladder's report as Markdown tables, for bench/README.md (``--report-only --markdown``).

Three tables: every (step, size) run with its wall and CPU seconds, peak RSS against the
4 GB bound, disk and the other processes' cores; per step the fitted exponents against 1.1
and the projection to a full snapshot; and the work plan, one bullet a line.
"""

from __future__ import annotations

from collections.abc import Sequence

from bench.scale.fit import Growth
from bench.scale.report import EXPONENT_BOUND, MEMORY_BOUND, order, plan_lines
from bench.scale.runner import StepResult
from bench.scale.sizes import label

MB = 1_000_000


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _header(names: Sequence[str]) -> list[str]:
    return [_row(names), _row(["---"] * len(names))]


def _flag(value: float | None, bound: float) -> str:
    """A figure, in bold past its bound."""
    if value is None:
        return ""
    text = f"{value:.2f}"
    return f"**{text}**" if value > bound else text


def runs_table(results: Sequence[StepResult]) -> list[str]:
    """One row per (step, size, cores): the measured figures, a peak past 4 GB in bold."""
    lines = _header(["step", "size", "cores", "status", "wall s", "CPU s", "peak RSS MB",
                     "disk MB", "others (cores)"])  # fmt: skip
    for r in order(results):
        rss = f"{r.peak_rss / MB:,.0f}"
        status = r.status if r.status == "ok" else f"**{r.status}**"
        cells = [r.step, label(r.size), str(r.cores), status,
                 f"{r.seconds:,.0f}", f"{r.cpu_seconds:,.0f}",
                 f"**{rss}**" if r.peak_rss > MEMORY_BOUND else rss,
                 f"{r.disk / MB:,.0f}", f"{r.others_cores:.2f}"]  # fmt: skip
        lines.append(_row(cells))
    return lines


def growth_table(found: Sequence[Growth]) -> list[str]:
    """One row per step: exponents (the judged time's and RSS past 1.1 in bold) and the
    projection to the full dump."""
    lines = _header(["step", "sizes", "b CPU", "b wall", "b RSS", "b disk", "S2",
                     "full: 2 cores", "16 cores", "peak RSS GB", "disk GB / 10⁹ st."])  # fmt: skip
    never = float("inf")
    for g in found:
        on_cpu = g.fit_on == "cpu"
        cells = [g.step, ", ".join(label(size) for size in g.sizes),
                 _flag(g.cpu_exp, EXPONENT_BOUND if on_cpu else never),
                 _flag(g.wall_exp, never if on_cpu else EXPONENT_BOUND),
                 _flag(g.rss_exp, EXPONENT_BOUND), _flag(g.disk_exp, never),
                 f"{g.speedup_two:.2f}" if g.speedup_two else "",
                 _hours(g.full_wall_2), _hours(g.full_wall_16),
                 f"{g.full_rss / 1e9:,.1f}" if g.full_rss else "",
                 f"{g.disk_per_billion / 1e9:,.1f}" if g.disk_per_billion else ""]  # fmt: skip
        lines.append(_row(cells))
    return lines


def _hours(seconds: float | None) -> str:
    if seconds is None:
        return ""
    return f"{seconds / 60:,.0f} min" if seconds < 3600 else f"{seconds / 3600:,.1f} h"


def markdown(results: Sequence[StepResult], found: Sequence[Growth]) -> str:
    """The three tables (runs, growth, work plan) as one Markdown text."""
    plan = [f"- {line}" for line in plan_lines(results, found)]
    parts = [runs_table(results), growth_table(found), plan]
    return "\n\n".join("\n".join(part) for part in parts) + "\n"
