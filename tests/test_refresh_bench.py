"""The refresh benchmark end to end on a tiny generated store: bench.classify_gen, then
bench.refresh_gen (its dumps), then bench.refresh_bench (a refresh against a full ingest)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT


def run_module(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def tiny_dumps(tmp_path: Path, *options: str) -> tuple[Path, Path, list[str]]:
    """A generated store of two snapshots of 3,000 statements, and bench.refresh_gen's dumps
    of the changes between them (with ``options``): the store, the dumps, the snapshots."""
    store, dumps = tmp_path / "gen", tmp_path / "dumps"
    run_module(
        "bench.classify_gen", "--statements", "3000", "--snapshots", "2", "--out", str(store)
    )
    names = sorted(path.name.removeprefix("snapshot=") for path in (store / "snapshots").iterdir())
    run_module(
        "bench.refresh_gen", "--store", str(store), "--base", names[0], "--target", names[1],
        "--out", str(dumps), *options,
    )  # fmt: skip
    return store, dumps, names


@pytest.mark.slow
def test_the_refresh_benchmark_on_a_tiny_store(tmp_path: Path) -> None:
    store, dumps, names = tiny_dumps(tmp_path, "--share", "0.5", "--range-entities", "40")
    assert len(list((dumps / f".texts-{names[0]}").glob("part-*.parquet"))) > 2
    figures = json.loads((dumps / "refresh_gen.json").read_text())
    made = json.loads((store / "gen.json").read_text())["snapshots"]
    assert figures["base_entities"] == made[names[0]]["entities"]
    changes = [line for line in (dumps / "changes.json").read_bytes().splitlines()[1:-1] if line]
    pages = figures["files"]["incr_pages"]
    assert len(changes) == pages == figures["changed"] + figures["added"] > 0
    report = json.loads(
        run_module(
            "bench.refresh_bench", "--dumps", str(dumps), "--store", str(tmp_path / "bench"),
            "--changes", "json", "--no-classify",
        )
    )  # fmt: skip
    assert report["equal"] is True
    round_ = report["rounds"][0]
    for command in ("refresh", "ingest", "ingest_changes"):
        assert round_[command]["cpu_seconds"] > 0 and round_[command]["peak_rss_mb"] > 0
    assert 0 < round_["refreshed_rows"] < round_["full_rows"]
    assert report["churn_rows"] == round(round_["refreshed_rows"] / round_["full_rows"], 4)
    assert 0 < report["churn_entities"] < 1 and 0 < report["delta_share_of_base"] < 1
    assert 0.9 < report["delta_over_changes_stored_whole"] < 1.5
    assert not (tmp_path / "bench-changes").exists()
    assert report["base_counts"]["statements"] > 0
    assert round_["refresh_timings"]["base_seconds"] >= 0
    assert report["speedup_ceiling_cpu"] > 0
    saved = tmp_path / "report.json"
    saved.write_text(json.dumps(report))
    table = json.loads(
        run_module("bench.refresh_fit", str(saved), "--markdown", str(tmp_path / "t.md"))
    )
    assert table["rows"][0]["statements"] == report["base_counts"]["statements"]
    assert "| statements |" in (tmp_path / "t.md").read_text()


@pytest.mark.slow
def test_the_refresh_benchmark_against_the_generators_own_target(tmp_path: Path) -> None:
    """A store too large for its full dump: the changes alone written (--no-target-dump) and
    the refresh of the generator's base snapshot compared with its target snapshot."""
    store, dumps, names = tiny_dumps(tmp_path, "--no-base-dump", "--no-target-dump")
    assert not (dumps / "base.json").exists() and not (dumps / "target.json").exists()
    report = json.loads(
        run_module(
            "bench.refresh_bench", "--dumps", str(dumps), "--store", str(store), "--no-classify",
            "--base", names[0], "--full-from", names[1],
        )
    )  # fmt: skip
    assert report["equal"] is True
    round_ = report["rounds"][0]
    assert "ingest" not in round_ and round_["refresh"]["cpu_seconds"] > 0
    assert 0 < round_["refreshed_rows"] < round_["full_rows"]
    assert 0 < report["delta_share_of_base"] < 1 and report["storage_met"] in (True, False)
    assert report["speedup_cpu"] is None and report["time_met"] is None
