"""One rung of the ladder: every chosen step on a fresh work store of one size, measured.

The steps run one after the other in their own processes (``taskset -c 0`` in front of each
for a one-core pass). A step that fails or runs past the time bound is recorded as such and
the rung goes on; a step whose prerequisite did not complete is skipped. Each step's disk is
what it added to the work store (its snapshots left out) and to its output folder, whose
files are then removed (an N-Triples export of a large snapshot would fill the disk).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.scale import data
from bench.scale.measure import run_step
from bench.scale.sizes import label
from bench.scale.steps import DEFAULT_SERVE_ARGS, Context, Dates, Step

TIMELINE_POINTS = 120
EVENTS_KEPT = 5
ERROR_CHARS = 300


@dataclass
class Options:
    """How a ladder runs (from the command line)."""

    data: Path
    seed: int = 42
    timeout: float = 7200.0
    ingest_max: int = 50_000_000
    serve_args: str = ""
    keep: bool = False


@dataclass
class StepResult:
    """One step at one size."""

    step: str
    size: int
    cores: int
    status: str
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_rss: int = 0
    disk: int = 0
    others_cores: float = 0.0
    load: float = 0.0
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    timeline: list[tuple[float, int]] = field(default_factory=list)
    events: list[tuple[float, str]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return asdict(self)


@dataclass
class Rung:
    """The work store of one pass at one size, and what its steps need."""

    size: int
    cores: int
    ctx: Context
    results: dict[str, StepResult] = field(default_factory=dict)


@contextlib.contextmanager
def exclusive(data: Path) -> Iterator[None]:
    """Hold ``DATA/work`` for one ladder: a second one on the same folder would remove the
    first's work store under its running step (each rung starts from a fresh one)."""
    work = data / "work"
    work.mkdir(parents=True, exist_ok=True)
    with (work / ".ladder.lock").open("a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SystemExit(
                f"another bench.scale runs on {data}; wait for it, or give this one another"
                " --data (its stores, dumps and wikipedia folders may be links to this one's)"
            ) from None
        yield


def prepare(size: int, cores: int, steps: list[Step], options: Options) -> Rung:
    """The generated inputs the steps read, and a fresh work store."""
    store = data.ensure_store(options.data, size, options.seed)
    names = data.snapshot_dates(store)
    wanted = {read for step in steps for read in step.reads}
    tag = f"3x{label(size)}-{cores}core"
    dump = None
    if "dump" in wanted and size <= options.ingest_max:
        dump = data.ensure_dump(options.data, size, store)
    wikipedia = data.ensure_wikipedia(options.data, size, store) if "wikipedia" in wanted else None
    out = options.data / "work" / f"{tag}-out"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    ingest_store = options.data / "work" / f"{tag}-ingest"
    shutil.rmtree(ingest_store, ignore_errors=True)
    ctx = Context(
        store=data.work_store(options.data, store, tag),
        out=out,
        dates=Dates(tuple(day for _, day in names)),
        latest=names[-1][0],
        dump=dump,
        wikipedia=wikipedia,
        ingest_store=ingest_store,
        serve_args=options.serve_args or DEFAULT_SERVE_ARGS,
    )
    return Rung(size, cores, ctx)


def run_rung(
    rung: Rung, steps: list[Step], options: Options, report: Callable[[StepResult], None]
) -> list[StepResult]:
    """Run ``steps`` on the rung's work store; ``report`` is told of each result."""
    try:
        for step in steps:
            result = _run(rung, step, options)
            rung.results[step.name] = result
            report(result)
    finally:
        if not options.keep:
            for path in (rung.ctx.store, rung.ctx.out, rung.ctx.ingest_store):
                if path is not None:
                    shutil.rmtree(path, ignore_errors=True)
    return list(rung.results.values())


def _disk(ctx: Context) -> int:
    stores = data.tree_bytes(ctx.store, skip="snapshots") + data.tree_bytes(ctx.out)
    return stores + (data.tree_bytes(ctx.ingest_store) if ctx.ingest_store else 0)


def _run(rung: Rung, step: Step, options: Options) -> StepResult:
    base = StepResult(step.name, rung.size, rung.cores, "skipped")
    missing = [need for need in step.needs if _status(rung, need) != "ok"]
    if missing:
        base.error = f"needs {', '.join(missing)}, which did not complete"
        return base
    if "dump" in step.reads and rung.ctx.dump is None:
        base.error = f"no dump generated above --ingest-max ({options.ingest_max:,} statements)"
        return base
    command = step.command(rung.ctx)
    if rung.cores == 1:
        command = ["taskset", "-c", "0", *command]
    before = _disk(rung.ctx)
    load = os.getloadavg()[0]
    emptied = emptier(rung.ctx.out, step.discard) if step.discard else None
    measured = run_step(command, timeout=options.timeout, tick=emptied)
    result = StepResult(
        step=step.name,
        size=rung.size,
        cores=rung.cores,
        status="timeout" if measured.timed_out else "ok" if measured.returncode == 0 else "failed",
        seconds=round(measured.seconds, 2),
        cpu_seconds=round(measured.cpu_seconds, 2),
        peak_rss=measured.peak_rss_bytes,
        disk=max(0, _disk(rung.ctx) - before),
        others_cores=measured.others_cores,
        load=round(load, 2),
        timeline=_thinned(measured.timeline),
        events=_around_peak(measured.events, measured.timeline),
    )
    if result.status != "ok":
        result.error = _error_line(measured.stderr or measured.stdout)
    result.extra = _extra(step, rung.ctx)
    for path in step.outputs(rung.ctx):
        _remove(path)
    return result


def emptier(folder: Path, patterns: tuple[str, ...]) -> Callable[[], None]:
    """A tick that truncates the files of ``folder`` matching ``patterns`` to nothing: the
    writer goes on at its offset, so the file becomes sparse (its blocks freed) and its size
    still counts every byte written."""

    def empty() -> None:
        for pattern in patterns:
            for path in folder.glob(pattern):
                with contextlib.suppress(OSError):
                    os.truncate(path, 0)

    return empty


def _status(rung: Rung, name: str) -> str | None:
    found = rung.results.get(name)
    return found.status if found else None


def _thinned(timeline: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """At most :data:`TIMELINE_POINTS` points, the peak kept."""
    if len(timeline) <= TIMELINE_POINTS:
        return timeline
    every = len(timeline) / TIMELINE_POINTS
    kept = [timeline[int(i * every)] for i in range(TIMELINE_POINTS)]
    peak = max(timeline, key=lambda point: point[1])
    return sorted({*kept, peak})


def _around_peak(
    events: list[tuple[float, str]], timeline: list[tuple[float, int]]
) -> list[tuple[float, str]]:
    """The step's progress lines: the first and last few, and those just before its peak RSS
    (what it was doing when its memory peaked)."""
    if len(events) <= 2 * EVENTS_KEPT:
        return events
    peak_at = max(timeline, key=lambda point: point[1])[0] if timeline else 0.0
    before = [event for event in events if event[0] <= peak_at][-EVENTS_KEPT:]
    return sorted({*events[:EVENTS_KEPT], *before, *events[-EVENTS_KEPT:]})


def _error_line(text: str) -> str:
    """The line of a failed command's output that says what went wrong."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()] or ["failed"]
    errors = [line for line in lines if "rror" in line or "xception" in line or "Killed" in line]
    return (errors[-1] if errors else lines[-1])[:ERROR_CHARS]


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _extra(step: Step, ctx: Context) -> dict[str, Any]:
    """What a step's output tells beyond its measurement (the service's latencies)."""
    if step.name != "serve":
        return {}
    path = ctx.out / "serve.json"
    if not path.is_file():
        return {}
    runs = []
    for run in json.loads(path.read_text()):
        if "tallies" in run:  # --mix realistic: per class of request (bench/serve_mix.py)
            runs.append(_mix_run(run))
            continue
        latencies = sorted(run.get("latencies_ms", []))
        runs.append(
            {
                "target": run.get("target"),
                "rate": run.get("rate"),
                "answered": len(latencies),
                "errors": run.get("errors", 0),
                "p50_ms": _share(latencies, 0.5),
                "p99_ms": _share(latencies, 0.99),
                "rss_mb": run.get("rss_mb"),
            }
        )
    return {"runs": runs}


def _mix_run(run: dict[str, Any]) -> dict[str, Any]:
    """A realistic mix's run: for the point lookups and the heavy requests, the 2xx answers,
    their p50 and p99, the 202s, 429s and errors."""
    classes: dict[str, dict[str, Any]] = {}
    for key, tally in run["tallies"].items():
        group = classes.setdefault(
            key.split("/")[0], {"latencies": [], "accepted": 0, "refused": 0, "errors": 0}
        )
        group["latencies"] += tally.get("latencies_ms", [])
        for count in ("accepted", "refused", "errors"):
            group[count] += tally.get(count, 0)
    found: dict[str, Any] = {"label": run.get("label"), "rss_mb": run.get("rss_mb")}
    for name, group in sorted(classes.items()):
        latencies = sorted(group.pop("latencies"))
        p50, p99 = _share(latencies, 0.5), _share(latencies, 0.99)
        found[name] = {"answered": len(latencies), "p50_ms": p50, "p99_ms": p99, **group}
    return found


def _share(ordered: list[float], share: float) -> float | None:
    if not ordered:
        return None
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)
