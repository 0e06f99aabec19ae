"""The ladder's table, its fitted exponents and projection, the work plan, and its JSON.

One table row per (step, size): wall and CPU seconds, peak RSS of the process tree, disk,
and the cores other processes kept busy meanwhile. Then per step: the exponents of wall
time, CPU time, peak RSS and disk over the sizes that completed, and the projection to a
full Wikidata snapshot (:mod:`bench.scale.fit`). Last, the work plan: the steps whose peak
RSS passed the 4 GB bound at some size, and those whose time (CPU seconds by default, the
wall seconds with ``fit_on="wall"``) or memory grows faster than N^1.1.
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.scale.fit import FIT_ON, FULL_STATEMENTS, Growth, Point, growth
from bench.scale.runner import StepResult
from bench.scale.sizes import label
from bench.scale.steps import STEPS

MEMORY_BOUND = 4_000_000_000
"""The issue's bound on every step's peak RSS (4 GB, as DuckDB reads "4GB")."""
EXPONENT_BOUND = 1.1
MB = 1_000_000


def _mb(value: float | None) -> str:
    return "" if value is None else f"{value / MB:,.0f}"


def _num(value: float | None, digits: int = 1) -> str:
    return "" if value is None else f"{value:,.{digits}f}"


def order(results: Iterable[StepResult]) -> list[StepResult]:
    """Results in the ladder's step order, then by size, two cores before one."""
    rank = {step.name: index for index, step in enumerate(STEPS)}
    return sorted(results, key=lambda r: (rank.get(r.step, 99), r.size, -r.cores))


def table_lines(results: Sequence[StepResult]) -> list[str]:
    """The size × step table."""
    head = (
        f"{'step':18} {'size':>6} {'cores':>5} {'status':8} {'wall s':>9} {'CPU s':>9}"
        f" {'peak RSS MB':>11} {'disk MB':>9} {'others':>6}"
    )
    lines = [head, "-" * len(head)]
    for r in order(results):
        lines.append(
            f"{r.step:18} {label(r.size):>6} {r.cores:>5} {r.status:8} {r.seconds:>9,.1f}"
            f" {r.cpu_seconds:>9,.1f} {_mb(r.peak_rss):>11} {_mb(r.disk):>9}"
            f" {r.others_cores:>6.2f}" + (f"  {r.error}" if r.error else "")
        )
    return lines


def growths(
    results: Sequence[StepResult],
    full: int = FULL_STATEMENTS,
    fit_min: int = 0,
    fit_on: str = FIT_ON[0],
) -> list[Growth]:
    """Per step, the fit over its completed two-core runs of at least ``fit_min`` statements
    (and its speed-up from a one-core run at any size, if one ran), its time ``fit_on`` the
    CPU or the wall seconds."""
    found = []
    for step in dict.fromkeys(r.step for r in order(results)):
        done = [r for r in results if r.step == step and r.status == "ok"]
        points = [_point(r) for r in done if r.cores != 1 and r.size >= fit_min]
        pinned = [_point(r) for r in done if r.cores == 1]
        same = [_point(r) for r in done if r.cores != 1 and pinned and r.size == pinned[-1].size]
        if points:
            one_core = pinned[-1] if pinned else None
            found.append(growth(step, points, one_core, full, same, fit_on=fit_on))
    return found


def _point(r: StepResult) -> Point:
    return Point(r.size, r.seconds, r.cpu_seconds, r.peak_rss, r.disk)


def growth_lines(found: Sequence[Growth]) -> list[str]:
    """The exponents and the projection to the full dump, one line per step."""
    head = (
        f"{'step':18} {'sizes':>5} {'b wall':>6} {'b CPU':>6} {'b RSS':>6} {'b disk':>6}"
        f" {'S2':>5} {'full: wall 2 cores':>18} {'CPU s':>10} {'wall 16 cores':>13}"
        f" {'RSS GB':>7} {'disk GB/1e9 st.':>15}"
    )
    lines = [head, "-" * len(head)]
    for g in found:
        speedup = f"{g.speedup_two:.2f}{'p' if g.speedup_source == 'pinned' else ''}"
        lines.append(
            f"{g.step:18} {len(g.sizes):>5} {_num(g.wall_exp, 2):>6} {_num(g.cpu_exp, 2):>6}"
            f" {_num(g.rss_exp, 2):>6} {_num(g.disk_exp, 2):>6}"
            f" {speedup if g.speedup_two else '':>5} {_duration(g.full_wall_2):>18}"
            f" {_num(g.full_cpu, 0):>10} {_duration(g.full_wall_16):>13}"
            f" {_num(g.full_rss / 1e9 if g.full_rss else None, 1):>7}"
            f" {_num(g.disk_per_billion / 1e9 if g.disk_per_billion else None, 1):>15}"
        )
    return lines


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 3600:
        return f"{seconds / 60:,.1f} min"
    return f"{seconds / 3600:,.1f} h"


def plan_lines(results: Sequence[StepResult], found: Sequence[Growth]) -> list[str]:
    """Steps over the memory bound, steps growing faster than N^1.1, steps that failed."""
    lines = []
    for r in order(results):
        if r.peak_rss > MEMORY_BOUND:
            lines.append(
                f"over 4 GB: {r.step} at {label(r.size)} ({r.cores} core(s)): "
                f"{r.peak_rss / 1e9:.2f} GB" + _peak_at(r)
            )
    for g in found:
        judged = (("CPU" if g.fit_on == "cpu" else "wall", g.time_exp), ("RSS", g.rss_exp))
        fast = {
            name: value for name, value in judged if value is not None and value > EXPONENT_BOUND
        }
        if fast:
            shown = ", ".join(f"{name} N^{value:.2f}" for name, value in fast.items())
            lines.append(f"faster than N^{EXPONENT_BOUND}: {g.step}: {shown}")
    for r in order(results):
        if r.status in ("failed", "timeout"):
            lines.append(f"{r.status}: {r.step} at {label(r.size)}: {r.error}")
    return lines or ["every step within 4 GB and N^1.1"]


def _peak_at(r: StepResult) -> str:
    """When in the step its RSS peaked (share of its wall time)."""
    if not r.timeline or not r.seconds:
        return ""
    at, _ = max(r.timeline, key=lambda point: point[1])
    told = [line for when, line in r.events if when <= at]
    doing = f", after {told[-1]!r}" if told else ""
    return f", peak at {100 * at / r.seconds:.0f} % of its {r.seconds:,.0f} s{doing}"


def print_report(
    results: Sequence[StepResult],
    full: int = FULL_STATEMENTS,
    fit_min: int = 0,
    fit_on: str = FIT_ON[0],
) -> list[Growth]:
    """Print the table, the fits (over sizes of at least ``fit_min``, time ``fit_on`` the CPU
    or the wall seconds) and the work plan; return the fits."""
    found = growths(results, full, fit_min, fit_on)
    print("\n".join(table_lines(results)))
    print(
        f"\nexponents b of y ~ N^b (N: statements per snapshot) and the projection to "
        f"3 × {full / 1e9:g} B statements (S2: speed-up from 1 to 2 cores, p = pinned run); "
        f"time judged on {'CPU' if fit_on == 'cpu' else 'wall'} seconds"
        + (", the 2-core wall time = CPU / S2" if fit_on == "cpu" else "")
    )
    print("\n".join(growth_lines(found)))
    judged = "CPU" if fit_on == "cpu" else "wall"
    print(f"\nwork plan (peak RSS > 4 GB, {judged} or RSS exponent > 1.1, failures):")
    print("\n".join(f"  {line}" for line in plan_lines(results, found)))
    service = service_lines(results)
    if service:
        print("\nthe service (2xx answers, p50 / p99 ms, 202s, 429s, errors):")
        print("\n".join(f"  {line}" for line in service))
    return found


def service_lines(results: Sequence[StepResult]) -> list[str]:
    """One line per class of request of each realistic mix the ``serve`` steps ran."""
    lines = []
    for r in order(results):
        for run in (r.extra or {}).get("runs", []):
            for name in ("lookup", "heavy"):
                c = run.get(name)
                if c:
                    lines.append(
                        f"{r.step} {label(r.size)} {run.get('label')} {name}: {c['answered']:,},"
                        f" {_num(c['p50_ms'])} / {_num(c['p99_ms'])}, {c['accepted']},"
                        f" {c['refused']}, {c['errors']}"
                    )
    return lines


def write_json(
    path: Path,
    results: Sequence[StepResult],
    found: Sequence[Growth],
    context: dict[str, Any],
) -> None:
    """All results, fits and the run's context as one JSON document (written whole)."""
    document = {
        "format": "kgdiff-bench-scale/1",
        "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "host": {"machine": platform.machine(), "python": platform.python_version()},
        **context,
        "results": [r.as_json() for r in order(results)],
        "growth": [asdict(g) for g in found],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(document, indent=1) + "\n")
    tmp.replace(path)


def load_results(paths: Sequence[Path]) -> list[StepResult]:
    """The results of earlier runs; for the same (step, size, cores) the latest file wins."""
    found: dict[tuple[str, int, int], StepResult] = {}
    for path in paths:
        for row in json.loads(path.read_text())["results"]:
            row["timeline"] = [tuple(point) for point in row.get("timeline", [])]
            row["events"] = [tuple(event) for event in row.get("events", [])]
            result = StepResult(**row)
            found[(result.step, result.size, result.cores)] = result
    return list(found.values())
