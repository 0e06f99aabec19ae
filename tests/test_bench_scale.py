"""The scale ladder's harness (bench/scale): fitted exponents, the projection, steps that fail
or run too long, and the whole ladder on two tiny sizes (a generated store, its JSON dump
ingested back, its synthetic Wikipedia searched for evidence)."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bench.scale.dump import ranges
from bench.scale.fit import Point, exponent, growth, on_cores, serial_share
from bench.scale.measure import run_step
from bench.scale.report import growths, plan_lines, service_lines, write_json
from bench.scale.runner import (
    Options,
    Rung,
    StepResult,
    _mix_run,
    emptier,
    exclusive,
    run_rung,
)
from bench.scale.sizes import label, parse_size, parse_sizes
from bench.scale.steps import Context, Dates, Step, chosen
from bench.serve_mix import MixRun, run_json

ROOT = Path(__file__).resolve().parent.parent
LADDER = [25e6, 50e6, 100e6, 200e6]


def test_an_n_log_n_series_fits_about_one_and_a_quadratic_two() -> None:
    n_log_n = exponent(LADDER, [n * math.log(n) for n in LADDER])
    assert n_log_n is not None and 1.0 < n_log_n < 1.1
    assert exponent(LADDER, [3e-6 * n for n in LADDER]) == pytest.approx(1.0)
    assert exponent(LADDER, [1e-12 * n * n for n in LADDER]) == pytest.approx(2.0)
    assert exponent(LADDER, [7.0] * 4) == pytest.approx(0.0)
    assert exponent([25e6], [10.0]) is None  # one size fits nothing
    assert exponent(LADDER, [0.0] * 4) is None  # nothing measured


def test_the_projection_carries_the_largest_rung_along_the_exponents() -> None:
    points = [Point(int(n), n / 1e6, 2 * n / 1e6, int(n * 10), int(n * 30)) for n in LADDER[:2]]
    pinned = Point(int(LADDER[0]), 1.6 * LADDER[0] / 1e6, 2 * LADDER[0] / 1e6, 1, 1)
    found = growth("step", points, pinned, full=int(LADDER[1] * 4))
    assert found.cpu_exp == pytest.approx(1.0) and found.rss_exp == pytest.approx(1.0)
    assert found.full_cpu == pytest.approx(4 * points[-1].cpu_seconds)
    assert found.full_rss == pytest.approx(4 * points[-1].peak_rss)
    assert found.disk_per_billion == pytest.approx(30e9)
    # 1.6× faster on two cores than on one: a quarter is serial (Amdahl)
    assert found.speedup_two == pytest.approx(1.6) and found.speedup_source == "pinned"
    assert serial_share(1.6) == pytest.approx(0.25)
    assert found.full_wall_16 == pytest.approx(on_cores(found.full_cpu or 0, 0.25))
    assert on_cores(160.0, 0.25) == pytest.approx(160 * (0.25 + 0.75 / 16))


def test_sizes_read_as_millions_or_with_a_unit() -> None:
    assert parse_sizes("50,25, 25") == [25_000_000, 50_000_000]
    assert parse_size("20k") == 20_000 and parse_size("1.5M") == 1_500_000
    assert [label(n) for n in (25_000_000, 20_000, 1_500_000)] == ["25M", "20k", "1.5M"]
    with pytest.raises(SystemExit, match="not a size"):
        parse_size("lots")


def test_a_step_past_its_bound_is_killed_with_its_children(tmp_path: Path) -> None:
    child = tmp_path / "child.pid"
    script = (
        "import subprocess, sys, time; "
        f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        f"open({str(child)!r}, 'w').write(str(p.pid)); time.sleep(60)"
    )
    measured = run_step([sys.executable, "-c", script], timeout=3)
    assert measured.timed_out and measured.returncode is not None
    pid = int(child.read_text())
    assert _gone_within(pid, seconds=15)


def _gone_within(pid: int, seconds: float) -> bool:
    """Whether process ``pid`` is gone or a zombie within ``seconds``: a process sent SIGKILL
    on a loaded machine may still be running (state R) for a moment before it dies."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z"):
                return True
        except (FileNotFoundError, IndexError):
            return True
        time.sleep(0.1)
    return False


def test_a_failed_or_timed_out_step_is_reported_and_the_rung_goes_on(tmp_path: Path) -> None:
    python = sys.executable
    fail = "import sys; print('Error: boom', file=sys.stderr); sys.exit(3)"
    steps = [
        Step("fails", lambda ctx: [python, "-c", fail]),
        Step("slow", lambda ctx: [python, "-c", "import time; time.sleep(60)"]),
        Step("after", lambda ctx: [python, "-c", "print('fine')"]),
        Step("needs", lambda ctx: [python, "-c", "pass"], needs=("fails",)),
    ]  # fmt: skip
    (tmp_path / "store").mkdir()
    (tmp_path / "out").mkdir()
    ctx = Context(tmp_path / "store", tmp_path / "out", Dates(()), latest="")
    seen: list[str] = []
    options = Options(data=tmp_path, timeout=3, keep=True)
    results = run_rung(Rung(1000, 2, ctx), steps, options, lambda r: seen.append(r.step))
    status = {r.step: (r.status, r.error) for r in results}
    assert seen == ["fails", "slow", "after", "needs"]
    assert status["fails"] == ("failed", "Error: boom")
    assert status["slow"][0] == "timeout"
    assert status["after"] == ("ok", None)
    assert status["needs"][0] == "skipped" and "fails" in (status["needs"][1] or "")


def test_unknown_steps_are_refused_and_needs_come_along() -> None:
    assert [s.name for s in chosen(["evidence"])] == ["ingest-wikipedia", "evidence"]
    assert [s.name for s in chosen(["serve", "classify-record"])][-2:] == ["lookup", "serve"]
    with pytest.raises(SystemExit, match="unknown step 'clasify'"):
        chosen(["clasify"])


@pytest.mark.slow
def test_the_ladder_on_two_tiny_sizes(tmp_path: Path) -> None:
    command = [
        sys.executable, "-m", "bench.scale", "--sizes", "3k,6k", "--steps", "ingest,evidence",
        "--data", str(tmp_path), "--ingest-max", "10k", "--timeout", "900", "--keep",
    ]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    table = done.stdout.split("exponents b")[0]
    for step in ("ingest", "ingest-wikipedia", "evidence"):
        for size in ("3k", "6k"):
            assert any(
                line.split()[:4] == [step, size, "2", "ok"] for line in table.splitlines()
            ), (step, size, done.stdout)
    fits = done.stdout.split("exponents b")[1]
    assert {line.split()[0] for line in fits.splitlines()[3:6]} == {
        "ingest",
        "ingest-wikipedia",
        "evidence",
    }
    document = json.loads(next((tmp_path / "results").glob("scale-*.json")).read_text())
    assert {(r["step"], r["size"], r["status"]) for r in document["results"]} == {
        (step, size, "ok")
        for step in ("ingest", "ingest-wikipedia", "evidence")
        for size in (3_000, 6_000)
    }
    for row in document["results"]:
        assert row["cpu_seconds"] > 0 and row["peak_rss"] > 0 and row["timeline"]
    growth_rows = {g["step"]: g for g in document["growth"]}
    assert growth_rows["ingest"]["sizes"] == [3_000, 6_000]
    assert growth_rows["ingest"]["cpu_exp"] is not None
    assert growth_rows["ingest"]["full_rss"] > 0
    _ingest_gives_back_the_generated_snapshot(tmp_path)
    _evidence_was_found(tmp_path)


def _ingest_gives_back_the_generated_snapshot(data: Path) -> None:
    generated = sorted((data / "stores" / "3x3k" / "snapshots").glob("snapshot=*"))[0]
    ingested = data / "work" / "3x3k-2core-ingest" / "snapshots" / "snapshot=syn-dump"
    counts = [json.loads((folder / "manifest.json").read_text())["counts"]
              for folder in (generated, ingested)]  # fmt: skip
    assert counts[0] == counts[1] and counts[0]["statements"] > 2_000


def _evidence_was_found(data: Path) -> None:
    found = list((data / "work" / "3x3k-2core" / "builds" / "evidence").glob("*/evidence.parquet"))
    assert found and pq.ParquetFile(found[0]).metadata.num_rows > 0


def test_the_fit_leaves_out_small_rungs_but_keeps_their_one_core_speed_up() -> None:
    def result(size: float, cores: int, seconds: float) -> StepResult:
        return StepResult("s", int(size), cores, "ok", seconds, 2 * size / 1e6, int(size), 0)

    runs = [result(5e6, 2, 10.0), result(5e6, 1, 18.0), result(25e6, 2, 25.0)]
    runs.append(result(50e6, 2, 100.0))  # 4× the time for 2× the size: N^2
    (found,) = growths(runs, fit_min=25_000_000, fit_on="wall")
    assert found.sizes == (25_000_000, 50_000_000)
    assert found.wall_exp == pytest.approx(2.0)
    assert found.speedup_two == pytest.approx(1.8) and found.speedup_source == "pinned"
    assert any("faster than N^1.1: s: wall N^2.00" in line for line in plan_lines(runs, [found]))


def test_time_is_judged_on_cpu_seconds_the_wall_time_stretching_with_other_jobs() -> None:
    def result(size: float, seconds: float, cpu: float) -> StepResult:
        return StepResult("s", int(size), 2, "ok", seconds, cpu, 10**9, 0)

    # the CPU spent doubles with the size; the wall time quadruples (others took a core)
    shared = [result(25e6, 50.0, 80.0), result(50e6, 200.0, 160.0)]
    (found,) = growths(shared, full=200_000_000)
    assert found.fit_on == "cpu" and found.time_exp == pytest.approx(1.0)
    assert found.wall_exp == pytest.approx(2.0)
    assert plan_lines(shared, [found]) == ["every step within 4 GB and N^1.1"]
    # 2 cores: CPU / S2 (S2 = CPU / wall at 50 M, 0.8: one core at best, so all of it serial)
    assert found.full_cpu == pytest.approx(4 * 160.0)
    assert found.full_wall_2 == pytest.approx(4 * 160.0)
    (by_wall,) = growths(shared, full=200_000_000, fit_on="wall")
    assert by_wall.time_exp == pytest.approx(2.0)
    assert by_wall.full_wall_2 == pytest.approx(200.0 * 4**2)
    assert any("s: wall N^2.00" in line for line in plan_lines(shared, [by_wall]))
    # a step whose CPU time itself grows faster is flagged on it
    steeper = [result(25e6, 50.0, 80.0), result(50e6, 100.0, 320.0)]
    (fast,) = growths(steeper)
    assert any("s: CPU N^2.00" in line for line in plan_lines(steeper, [fast]))
    # two cores used in full: the 2-core time is half the CPU time
    parallel = [result(25e6, 40.0, 80.0), result(50e6, 80.0, 160.0)]
    (halved,) = growths(parallel, full=200_000_000)
    assert halved.full_wall_2 == pytest.approx(4 * 160.0 / 2)


def test_an_emptied_output_keeps_its_size_but_not_its_blocks(tmp_path: Path) -> None:
    empty = emptier(tmp_path, (".out.nt.*.tmp",))
    megabyte = "x" * 2**20
    with (tmp_path / ".out.nt.1.tmp").open("w") as out:
        for _ in range(3):
            out.write(megabyte * 10)
            out.flush()
            empty()  # as the step's tick does while the export writes
        out.write(megabyte)
    (tmp_path / ".out.nt.1.tmp").rename(tmp_path / "out.nt")
    final = (tmp_path / "out.nt").stat()
    assert final.st_size == 31 * 2**20  # every byte written counts
    assert final.st_blocks * 512 <= 2 * 2**20  # only what came after the last emptying stays


def test_a_step_is_ticked_while_it_runs() -> None:
    ticks: list[int] = []
    measured = run_step(
        [sys.executable, "-c", "import time; time.sleep(3)"], tick=lambda: ticks.append(1)
    )
    assert measured.returncode == 0 and ticks


def test_earlier_results_are_reported_as_markdown_with_the_bounds_broken_in_bold(
    tmp_path: Path,
) -> None:
    def result(step: str, size: float, cpu: float, rss: int, status: str = "ok") -> StepResult:
        return StepResult(step, int(size), 2, status, cpu, cpu, rss, 10**6)

    runs = [
        result("classify-record", 25e6, 100.0, 2 * 10**9),
        result("classify-record", 50e6, 200.0, 2 * 10**9),
        result("export", 25e6, 100.0, 3 * 10**9),
        result("export", 50e6, 400.0, 5 * 10**9),  # CPU N^2, past 4 GB
        result("rdf", 25e6, 50.0, 10**9, status="timeout"),
    ]
    results = tmp_path / "scale.json"
    write_json(results, runs, [], {})
    out = tmp_path / "ladder.md"
    command = [sys.executable, "-m", "bench.scale", "--report-only", "--results", str(results),
               "--markdown", str(out)]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "| export | 50M | 2 | ok | 400 | 400 | **5,000** | 1 | 0.00 |" in text
    assert "| rdf | 25M | 2 | **timeout** |" in text
    rows = {line.split(" | ")[0]: line for line in text.splitlines() if line.startswith("| ")}
    assert "| 1.00 |" in rows["| classify-record"] and "**" not in rows["| classify-record"]
    assert "| **2.00** |" in rows["| export"]  # its CPU exponent, the one judged
    assert "- over 4 GB: export at 50M (2 core(s)): 5.00 GB" in text
    assert "- faster than N^1.1: export: CPU N^2.00" in text
    assert "- timeout: rdf at 25M" in text


def test_the_dump_is_built_in_ranges_of_bounded_rows_not_of_a_fixed_count_of_entities(
    tmp_path: Path,
) -> None:
    # 300 entities of 1 label and 1 statement each, and one (Q150) of 5,000 labels
    qids = [f"Q{i}" for i in range(1, 301)]
    labels = [*qids, *["Q150"] * 5_000]
    files = {}
    for table, column, values in (
        ("entities", "qid", qids),
        ("labels", "qid", labels),
        ("statements", "subject", qids),
    ):
        path = tmp_path / f"{table}.parquet"
        pq.write_table(pa.table({column: values}), path)
        files[table] = [str(path)]
    with duckdb.connect() as con:
        found = ranges(con, files, rows=300)
    assert found[0][0] == min(qids) and found[-1][1] == "\uffff"
    assert all(hi == following[0] for (_, hi), following in itertools.pairwise(found))
    weight = {qid: 3 for qid in qids} | {"Q150": 5_003}
    for lo, hi in found:
        inside = [qid for qid in qids if lo <= qid < hi]
        assert inside  # no empty range
        # at most the bound and one entity more (the heavy one alone passes it)
        assert sum(weight[q] for q in inside) <= 300 + max(weight[q] for q in inside)
    heavy = next((lo, hi) for lo, hi in found if lo <= "Q150" < hi)
    assert sum(weight[q] for q in qids if heavy[0] <= q < heavy[1]) < 5_003 + 300
    assert 3 <= len(found) <= 5  # the light entities' 900 rows in threes, the heavy one alone


def test_a_second_ladder_on_the_same_data_folder_is_refused(tmp_path: Path) -> None:
    # it would remove the running one's work store (found when a second --steps run began)
    refused = pytest.raises(SystemExit, match=r"another bench\.scale runs on")
    with exclusive(tmp_path), refused, exclusive(tmp_path):
        pass
    with exclusive(tmp_path):  # free again once the first is done
        pass


def test_the_realistic_mix_keeps_each_class_of_request() -> None:
    run = MixRun("kgdiff", rss_mb=[(0.0, 1800.0), (60.0, 1900.0)], seconds=60.0)
    run.tally("lookup", "entity").latencies_ms += [float(ms) for ms in range(1, 101)]
    run.tally("lookup", "timeline").errors += 1
    heavy = run.tally("heavy", "updates")
    heavy.latencies_ms.append(900.0)
    heavy.accepted, heavy.refused = 3, 2
    found = _mix_run(json.loads(json.dumps(run_json(run))))
    assert found["label"] == "kgdiff" and found["rss_mb"] == [[0.0, 1800.0], [60.0, 1900.0]]
    assert found["lookup"] == {
        "answered": 100, "p50_ms": 51.0, "p99_ms": 100.0, "accepted": 0, "refused": 0, "errors": 1,
    }  # fmt: skip
    assert found["heavy"]["answered"] == 1 and found["heavy"]["refused"] == 2
    result = StepResult("serve", 100_000_000, 2, "ok", extra={"runs": [found]})
    assert service_lines([result]) == [
        "serve 100M kgdiff lookup: 100, 51.0 / 100.0, 0, 0, 1",
        "serve 100M kgdiff heavy: 1, 900.0 / 900.0, 3, 2, 0",
    ]
