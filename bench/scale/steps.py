"""The ladder's steps: each one command, as a user runs it, in its own process.

A step names the command it runs (built from a :class:`Context`: the work store, the dates,
the generated inputs), the steps it needs first (evidence needs a Wikipedia snapshot, the
service its lookup copy), the generated input it reads (``dump``, ``wikipedia``), and
whether it runs at every size (``ingest`` runs where a dump is generated, ``--ingest-max``).
They run in the order of :data:`STEPS`: ``export`` comes after ``classify-record`` and reads
the same dates, so it reuses that classification (run alone, it builds it itself).
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

CONFIGS = "qa,multi_hop,updates,temporal,pools"
DEFAULT_SERVE_ARGS = "--rates 200 --seconds 30"
POOLS_PID = "P31"
"""The property ``pools`` is asked of: every subject has one, so it grows with the store."""


@dataclass(frozen=True)
class Dates:
    """The snapshots' dates and the classification's (as bench.classify_bench takes them)."""

    snapshots: tuple[date, ...]

    @property
    def init(self) -> date:
        """A third of the way from the first snapshot to the second."""
        first, second = self.snapshots[0], self.snapshots[1]
        return first + (second - first) / 3

    @property
    def cutoff(self) -> date:
        """A third of the way from the middle snapshot to the latest."""
        middle, last = self.snapshots[len(self.snapshots) // 2], self.snapshots[-1]
        return middle + (last - middle) / 3

    @property
    def current(self) -> date:
        """The latest snapshot's date."""
        return self.snapshots[-1]


@dataclass(frozen=True)
class Context:
    """What a step's command is built from."""

    store: Path
    out: Path
    dates: Dates
    latest: str
    dump: Path | None = None
    wikipedia: Path | None = None
    ingest_store: Path | None = None
    serve_args: str = DEFAULT_SERVE_ARGS
    python: str = sys.executable

    def kgdiff(self, *args: str) -> list[str]:
        """``kgdiff ARGS --store STORE`` as a command line of this interpreter."""
        return [self.python, "-m", "kgdiff", *args, "--store", str(self.store)]


@dataclass(frozen=True)
class Step:
    """One measured command."""

    name: str
    command: Callable[[Context], list[str]]
    needs: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    outputs: Callable[[Context], list[Path]] = field(default=lambda ctx: [])
    """Files the step writes outside the store (measured as its disk, then removed)."""
    discard: tuple[str, ...] = ()
    """Files of the output folder (glob patterns) emptied while the step writes them: their
    blocks are freed, their size (what the step wrote) stays (the N-Triples of a snapshot
    of 25 M statements would take ~25 GB)."""


def _classify(mode: str) -> Callable[[Context], list[str]]:
    def command(ctx: Context) -> list[str]:
        d = ctx.dates
        return ctx.kgdiff(
            "classify", "--init", str(d.init), "--cutoff", str(d.cutoff),
            "--current", str(d.current), "--mode", mode,
        )  # fmt: skip

    return command


def _staleness(mode: str) -> Callable[[Context], list[str]]:
    def command(ctx: Context) -> list[str]:
        return ctx.kgdiff(
            "plot", "staleness", "--mode", mode, "--out", str(ctx.out / f"staleness-{mode}.svg")
        )

    return command


def _ingest(ctx: Context) -> list[str]:
    assert ctx.dump is not None and ctx.ingest_store is not None
    return [
        ctx.python, "-m", "kgdiff", "ingest", "wikidata", str(ctx.dump), "--snapshot",
        "syn-dump", "--date", str(ctx.dates.snapshots[0]), "--store", str(ctx.ingest_store),
    ]  # fmt: skip


def _updates(ctx: Context) -> list[str]:
    d = ctx.dates
    return ctx.kgdiff(
        "updates", "--cutoff", str(d.cutoff), "--current", str(d.current),
        "--out", str(ctx.out / "updates.parquet"),
    )  # fmt: skip


def _ingest_wikipedia(ctx: Context) -> list[str]:
    assert ctx.wikipedia is not None
    return ctx.kgdiff("ingest", "wikipedia", str(ctx.wikipedia), "--date", str(ctx.dates.current))


def _export(ctx: Context) -> list[str]:
    d = ctx.dates
    return ctx.kgdiff(
        "export", "benchmark", "--init", str(d.init), "--cutoff", str(d.cutoff),
        "--current", str(d.current), "--configs", CONFIGS, "--out", str(ctx.out / "benchmark"),
        "--force",
    )  # fmt: skip


def _serve(ctx: Context) -> list[str]:
    return [
        ctx.python, "-m", "bench.serve_load", "--store", str(ctx.store),
        "--json", str(ctx.out / "serve.json"), *shlex.split(ctx.serve_args),
    ]  # fmt: skip


STEPS: tuple[Step, ...] = (
    Step("ingest", _ingest, reads=("dump",)),
    Step("classify-record", _classify("record")),
    Step("classify-valid", _classify("valid")),
    Step("updates", _updates, outputs=lambda ctx: [ctx.out / "updates.parquet"]),
    Step(
        "chains",
        lambda ctx: ctx.kgdiff(
            "chains", "--date", str(ctx.dates.cutoff), "--out", str(ctx.out / "chains.parquet")
        ),
        outputs=lambda ctx: [ctx.out / "chains.parquet"],
    ),
    Step(
        "pools",
        lambda ctx: ctx.kgdiff(
            "pools", "--pid", POOLS_PID, "--out", str(ctx.out / "pools.parquet")
        ),
        outputs=lambda ctx: [ctx.out / "pools.parquet"],
    ),
    Step("staleness-record", _staleness("record")),
    Step("staleness-valid", _staleness("valid")),
    Step("ingest-wikipedia", _ingest_wikipedia, reads=("wikipedia",)),
    Step("evidence", lambda ctx: ctx.kgdiff("evidence", "build"), needs=("ingest-wikipedia",)),
    Step("export", _export, outputs=lambda ctx: [ctx.out / "benchmark"]),
    Step(
        "rdf",
        lambda ctx: ctx.kgdiff(
            "export", "rdf", "--snapshot", ctx.latest, "--out", str(ctx.out / "snapshot.nt.gz")
        ),
        outputs=lambda ctx: [ctx.out / "snapshot.nt.gz"],
        discard=(".snapshot.nt.gz.*.tmp",),
    ),
    Step(
        "lookup",
        lambda ctx: ctx.kgdiff(
            "snapshots", "lookup", "--facts-at", str(ctx.dates.cutoff), "--mode", "record"
        ),
    ),
    Step("serve", _serve, needs=("lookup",), outputs=lambda ctx: [ctx.out / "serve.json"]),
)
BY_NAME = {step.name: step for step in STEPS}


def chosen(names: list[str]) -> list[Step]:
    """The steps named (and the steps they need), in the ladder's order; a usage error for
    an unknown name."""
    unknown = [name for name in names if name not in BY_NAME]
    if unknown:
        raise SystemExit(
            f"unknown step {unknown[0]!r}; choose from {', '.join(BY_NAME)} (comma-separated)"
        )
    wanted = set(names)
    for name in names:
        wanted.update(BY_NAME[name].needs)
    return [step for step in STEPS if step.name in wanted]
