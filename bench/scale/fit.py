"""How a step grows with the store, and what that means for the whole of Wikidata.

The exponent ``b`` of ``y ≈ a · N^b`` is the least-squares slope of ``log y`` against
``log N`` over the sizes run (N: statements per snapshot). ``b`` ≈ 1 is linear, an
``n log n`` series over a ladder of a few doublings fits ~1.0–1.1, a quadratic one 2.

The time a step takes is judged on its CPU seconds by default (``fit_on="cpu"``): on a
machine shared with other jobs the wall time of a step stretches with the others' load,
which changes from one rung to the next, while the CPU time it spends does not; the wall
time's exponent is reported beside it (``fit_on="wall"`` judges that one instead, for a
quiet machine).

The projection carries the largest rung to the full dump along the fitted exponent:
``y(N_full) = y(N_max) · (N_full / N_max)^b``. On ``c`` cores (Amdahl): a step whose time
on two cores is ``S2`` times shorter than on one has a serial share ``f = 2 / S2 − 1``, so
on ``c`` cores it takes ``CPU · (f + (1 − f) / c)``, with its CPU time (what one core would
take) projected like the rest: on 2 cores that is ``CPU / S2``, on 16 cores the same formula
with 16 (fitted on the wall time, the 2-core figure is the wall time carried instead).
``S2`` comes from the same step pinned to one CPU when that was measured (``--one-core``),
else from CPU seconds over wall seconds on two cores (what the step managed to run in
parallel: low when other jobs held a core).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

FULL_STATEMENTS = 1_650_000_000
"""Statements of one full Wikidata snapshot (early 2025; bench/README.md has the sources)."""
FULL_ENTITIES = 115_000_000
CORES_BIG = 16
FIT_ON = ("cpu", "wall")
"""What a step's time exponent is fitted on (the first is the default)."""


def exponent(sizes: Sequence[float], values: Sequence[float]) -> float | None:
    """The log-log least-squares slope of ``values`` against ``sizes`` (None if fewer than
    two distinct sizes with positive values)."""
    points = [(math.log(n), math.log(v)) for n, v in zip(sizes, values, strict=True) if n > 0 < v]
    if len({x for x, _ in points}) < 2:
        return None
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    var = sum((x - mean_x) ** 2 for x, _ in points)
    cov = sum((x - mean_x) * (y - mean_y) for x, y in points)
    return float(cov / var)


def carried(value: float, size: float, slope: float | None, target: float) -> float | None:
    """``value`` measured at ``size`` carried to ``target`` along ``slope`` (None without one)."""
    if slope is None or size <= 0:
        return None
    return float(value * (target / size) ** slope)


def serial_share(speedup_two: float) -> float:
    """Amdahl's serial share ``f`` from the speed-up on two cores (clamped to [0, 1])."""
    if speedup_two <= 0:
        return 1.0
    return min(1.0, max(0.0, 2.0 / speedup_two - 1.0))


def on_cores(cpu_seconds: float, serial: float, cores: int = CORES_BIG) -> float:
    """Wall seconds on ``cores`` for a step of ``cpu_seconds`` with serial share ``serial``."""
    return cpu_seconds * (serial + (1.0 - serial) / cores)


@dataclass(frozen=True)
class Growth:
    """One step's exponents and its projection to the full dump."""

    step: str
    sizes: tuple[int, ...]
    fit_on: str
    """The time the exponent ``time_exp`` and the 2-core projection come from: cpu or wall."""
    time_exp: float | None
    wall_exp: float | None
    cpu_exp: float | None
    rss_exp: float | None
    disk_exp: float | None
    speedup_two: float | None
    speedup_source: str
    full_wall_2: float | None
    full_cpu: float | None
    full_wall_16: float | None
    full_rss: float | None
    full_disk: float | None
    disk_per_billion: float | None


@dataclass(frozen=True)
class Point:
    """One completed run of a step at one size (two cores unless ``cores`` says 1)."""

    size: int
    seconds: float
    cpu_seconds: float
    peak_rss: int
    disk: int


def growth(
    step: str,
    points: Sequence[Point],
    pinned: Point | None,
    full: int = FULL_STATEMENTS,
    beside: Sequence[Point] = (),
    fit_on: str = FIT_ON[0],
) -> Growth:
    """Exponents over ``points`` (two cores), the speed-up from ``pinned`` (one core, at the
    size of one of ``points`` or of ``beside``, its two-core runs left out of the fit) if
    given, and the projection to ``full`` statements per snapshot; the time exponent and the
    2-core projection ``fit_on`` the CPU or the wall seconds."""
    if fit_on not in FIT_ON:
        raise ValueError(f"fit_on is {fit_on!r}; choose from {', '.join(FIT_ON)}")
    points = sorted(points, key=lambda p: p.size)
    sizes = [float(p.size) for p in points]
    wall_exp = exponent(sizes, [p.seconds for p in points])
    cpu_exp = exponent(sizes, [p.cpu_seconds for p in points])
    rss_exp = exponent(sizes, [float(p.peak_rss) for p in points])
    disk_exp = exponent(sizes, [float(p.disk) for p in points])
    top = points[-1] if points else None
    speedup, source = _speedup([*points, *beside], pinned)
    full_cpu = carried(top.cpu_seconds, top.size, cpu_exp, full) if top else None
    serial = serial_share(speedup) if speedup else None
    if fit_on == "cpu":
        full_wall_2 = on_cores(full_cpu, serial, 2) if full_cpu and serial is not None else None
    else:
        full_wall_2 = carried(top.seconds, top.size, wall_exp, full) if top else None
    return Growth(
        step=step,
        sizes=tuple(p.size for p in points),
        fit_on=fit_on,
        time_exp=cpu_exp if fit_on == "cpu" else wall_exp,
        wall_exp=wall_exp,
        cpu_exp=cpu_exp,
        rss_exp=rss_exp,
        disk_exp=disk_exp,
        speedup_two=speedup,
        speedup_source=source,
        full_wall_2=full_wall_2,
        full_cpu=full_cpu,
        full_wall_16=on_cores(full_cpu, serial) if full_cpu and serial is not None else None,
        full_rss=carried(top.peak_rss, top.size, rss_exp, full) if top else None,
        full_disk=carried(top.disk, top.size, disk_exp, full) if top and top.disk else None,
        disk_per_billion=top.disk / top.size * 1e9 if top and top.disk else None,
    )


def _speedup(points: Sequence[Point], pinned: Point | None) -> tuple[float | None, str]:
    """The speed-up from one core to two, and where it comes from."""
    if pinned is not None:
        same = [p for p in points if p.size == pinned.size]
        if same and same[0].seconds > 0:
            return pinned.seconds / same[0].seconds, "pinned"
    top = max(points, key=lambda p: p.size) if points else None
    if top is not None and top.seconds > 0:
        return min(2.0, top.cpu_seconds / top.seconds), "cpu/wall"
    return None, ""
