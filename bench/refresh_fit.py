"""The refresh benchmark across store sizes: one table, and how each figure grows.

Usage::

    .venv/bin/python -m bench.refresh_fit REPORT.json [REPORT.json ...] [--markdown FILE]
        [--target 100000000]

Each ``REPORT.json`` is what ``python -m bench.refresh_bench`` printed for one store size
and one churn. The reports are grouped by churn (the share of the base's entities the
changes touch, rounded to the percent); per group, over its sizes (N: the base's
statements), the exponent ``b`` of ``y ≈ a · N^b`` (``bench.scale.fit.exponent``) of the
full ingest's and the refresh's CPU seconds, of the speed-up, of the delta's bytes and of
the refresh's reading of the base (``base_cpu_seconds``); then the figures at ``--target``
statements, carried from the largest size along those exponents, and, because a refresh
has a cost that does not grow with the store at all (starting the processes, the catalog),
also from the straight line ``y = a + b · N`` through the sizes (least squares), which a
fixed cost does not bend.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.scale.fit import carried, exponent

TARGET = 100_000_000
GROWING = ("ingest_cpu", "refresh_cpu", "speedup_cpu", "delta_bytes", "base_cpu")


def row(report: dict[str, Any]) -> dict[str, Any]:
    """One line of the table from one benchmark report (the best round's times)."""
    rounds = report["rounds"]
    best = {k: min(rounds, key=lambda r: r[k]["cpu_seconds"])[k] for k in ("refresh", "ingest")}
    last = rounds[-1]
    return {
        "statements": int(report["base_counts"]["statements"]),
        "churn": report["churn_entities"],
        "churn_bytes": report["churn_bytes"],
        "ingest_cpu": best["ingest"]["cpu_seconds"],
        "ingest_wall": best["ingest"]["seconds"],
        "refresh_cpu": best["refresh"]["cpu_seconds"],
        "refresh_wall": best["refresh"]["seconds"],
        "ingest_others": best["ingest"].get("others_cores"),
        "refresh_others": best["refresh"].get("others_cores"),
        "speedup_cpu": report["speedup_cpu"],
        "speedup_wall": report["speedup_wall"],
        "ceiling_cpu": report.get("speedup_ceiling_cpu"),
        **byte_ceilings(report["generator"].get("files", {})),
        "base_bytes": report["base_bytes"],
        "delta_bytes": last["refreshed_bytes"],
        "delta_share": report["delta_share_of_base"],
        "bound_bytes": report["storage_bound_bytes"],
        "storage_met": report["storage_met"],
        "storage_met_plus_5_points": report.get("storage_met_plus_5_points"),
        "base_seconds": last.get("refresh_timings", {}).get("base_seconds"),
        "base_cpu": last.get("refresh_timings", {}).get("base_cpu_seconds"),
        "equal": report["equal"],
    }


def byte_ceilings(files: dict[str, int]) -> dict[str, float | None]:
    """The speed-ups the bytes allow: the full dump's bytes over those of the changed
    entities' JSON (a refresh parses at least their texts) and of the incremental XML
    dump (what it reads: every quote of the JSON is ``&quot;`` there)."""
    full = files.get("target.json")
    changes = files.get("changes.json")
    xml = next((v for k, v in files.items() if k.endswith("-pages-meta-hist-incr.xml")), None)
    return {
        "bytes_ceiling_json": round(full / changes, 2) if full and changes else None,
        "bytes_ceiling_xml": round(full / xml, 2) if full and xml else None,
    }


def line_fit(sizes: Sequence[float], values: Sequence[float]) -> tuple[float, float] | None:
    """Least-squares ``(a, b)`` of ``y = a + b · N`` (None below two distinct sizes)."""
    if len(set(sizes)) < 2:
        return None
    mean_x, mean_y = sum(sizes) / len(sizes), sum(values) / len(values)
    var = sum((x - mean_x) ** 2 for x in sizes)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(sizes, values, strict=True)) / var
    return mean_y - slope * mean_x, slope


def growth(rows: list[dict[str, Any]], target: int) -> dict[str, Any]:
    """The exponents of one churn group and its figures carried to ``target`` statements."""
    rows = sorted(rows, key=lambda r: r["statements"])
    sizes = [float(r["statements"]) for r in rows]
    largest = rows[-1]
    found: dict[str, Any] = {"sizes": [r["statements"] for r in rows]}
    for name in GROWING:
        values = [float(r[name] or 0) for r in rows]
        slope = exponent(sizes, values)
        found[f"{name}_exp"] = None if slope is None else round(slope, 3)
        at = carried(float(largest[name] or 0), sizes[-1], slope, target)
        found[f"{name}_at_target_power"] = None if at is None else round(at, 2)
    ingest_line = line_fit(sizes, [float(r["ingest_cpu"]) for r in rows])
    refresh_line = line_fit(sizes, [float(r["refresh_cpu"]) for r in rows])
    if ingest_line and refresh_line:
        ingest = ingest_line[0] + ingest_line[1] * target
        refresh = refresh_line[0] + refresh_line[1] * target
        found["ingest_cpu_at_target_line"] = round(ingest, 1)
        found["refresh_cpu_at_target_line"] = round(refresh, 1)
        found["speedup_cpu_at_target_line"] = round(ingest / refresh, 2) if refresh > 0 else None
        found["refresh_fixed_cpu"] = round(refresh_line[0], 2)
        found["refresh_cpu_per_million"] = round(refresh_line[1] * 1e6, 3)
    return found


def by_churn(rows: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """The rows grouped by churn, rounded to the percent."""
    groups: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for item in rows:
        groups[round(item["churn"] * 100)].append(item)
    return dict(sorted(groups.items()))


def _others(cores: float | None) -> str:
    return "" if cores is None else f"; {cores:.1f}"


def _times(ratio: float | None) -> str:
    return "–" if ratio is None else f"{ratio:.1f}×"


def _yes(met: bool | None) -> str:
    return "–" if met is None else "yes" if met else "**no**"


def markdown(rows: list[dict[str, Any]], fits: dict[int, dict[str, Any]], target: int) -> str:
    """The table and the growth as Markdown."""
    head = (
        "| statements | churn (entities / bytes) | full ingest CPU s (wall s; others' cores)"
        " | refresh CPU s (wall s; others' cores)"
        " | speed-up CPU (wall) | ceiling: ingest of the changes, bytes JSON, bytes XML"
        " | base | delta | delta / base | bound | met | met, + 5 points | base read CPU s |\n"
        + "|---" * 13
        + "|\n"
    )
    lines = [
        f"| {r['statements'] / 1e6:.1f} M | {r['churn']:.1%} / {r['churn_bytes']:.1%}"
        f" | {r['ingest_cpu']:.1f} ({r['ingest_wall']:.0f}{_others(r.get('ingest_others'))})"
        f" | {r['refresh_cpu']:.1f} ({r['refresh_wall']:.0f}{_others(r.get('refresh_others'))})"
        f" | {r['speedup_cpu']:.1f}× ({r['speedup_wall']:.1f}×)"
        f" | {r['ceiling_cpu'] or 0:.1f}×, {_times(r.get('bytes_ceiling_json'))},"
        f" {_times(r.get('bytes_ceiling_xml'))} | {r['base_bytes'] / 1e6:.0f} MB"
        f" | {r['delta_bytes'] / 1e6:.1f} MB | {r['delta_share']:.1%}"
        f" | {r['bound_bytes'] / 1e6:.1f} MB | {_yes(r['storage_met'])}"
        f" | {_yes(r['storage_met_plus_5_points'])} | {r['base_cpu'] or '–'} |"
        for r in sorted(rows, key=lambda r: (round(r["churn"] * 100), r["statements"]))
    ]
    growth_head = (
        f"\n| churn | sizes | exponent: ingest, refresh, speed-up, delta, base read"
        f" | at {target / 1e6:.0f} M (power): refresh CPU s, speed-up"
        f" | at {target / 1e6:.0f} M (a + b·N): ingest, refresh CPU s, speed-up |\n"
        + "|---" * 5
        + "|\n"
    )
    growth_lines = [
        f"| {churn} % | {', '.join(f'{n / 1e6:.0f} M' for n in f['sizes'])}"
        f" | {', '.join(str(f[f'{n}_exp']) for n in GROWING)}"
        f" | {f['refresh_cpu_at_target_power']}, {f['speedup_cpu_at_target_power']}×"
        f" | {f.get('ingest_cpu_at_target_line')}, {f.get('refresh_cpu_at_target_line')},"
        f" {f.get('speedup_cpu_at_target_line')}× |"
        for churn, f in fits.items()
    ]
    return head + "\n".join(lines) + "\n" + growth_head + "\n".join(growth_lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the table and the growth as JSON (and Markdown with ``--markdown``)."""
    parser = argparse.ArgumentParser(prog="python -m bench.refresh_fit")
    parser.add_argument("reports", type=Path, nargs="+", help="bench.refresh_bench reports")
    parser.add_argument("--target", type=int, default=TARGET, help="statements to project to")
    parser.add_argument("--markdown", type=Path, help="also write the tables as Markdown")
    args = parser.parse_args(argv)
    rows = [row(json.loads(path.read_text())) for path in args.reports]
    fits = {churn: growth(group, args.target) for churn, group in by_churn(rows).items()}
    if args.markdown:
        args.markdown.write_text(markdown(rows, fits, args.target))
    print(json.dumps({"rows": rows, "growth": fits}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
