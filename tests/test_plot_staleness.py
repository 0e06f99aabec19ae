"""`kgdiff plot staleness`: the picture's embedded points are the library's staleness counts,
which are the classification's level counts at each cutoff."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import polars as pl
import pytest
from PIL import Image

import kgdiff
from kgdiff.plot import read_plot_data
from kgdiff.plot import staleness_data as staleness_module
from kgdiff.plot.render import pixel_size
from kgdiff.plot.staleness_chart import draw_staleness, figure_size
from kgdiff.plot.staleness_data import SHOWN, StalenessRequest, staleness_data
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.temporal.seed_cutoffs import SeedCutoff
from tests.plot_tools import run_plot, svg_ids


@pytest.fixture(scope="module")
def store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sample store (the staleness curve and classifications are built into it)."""
    target = tmp_path_factory.mktemp("staleness-store") / "store"
    shutil.copytree(sample_store, target)
    return target


def _counts(graph: KnowledgeGraph, cutoff: date, mode: str) -> dict[str, int]:
    levels = graph.answers.classify(cutoff, mode=mode).frame["level"].value_counts()
    return dict(levels.iter_rows())


@pytest.mark.parametrize("mode", ["record", "valid"])
def test_the_points_are_the_classifications_counts(store: Path, tmp_path: Path, mode: str) -> None:
    out = tmp_path / "staleness.svg"
    result = run_plot(
        "staleness",
        "--mode",
        mode,
        "--mark",
        "2014-08-15",
        "--out",
        str(out),
        "--store",
        str(store),
    )
    assert result.returncode == 0, result.stderr
    embedded = read_plot_data(out)
    points = embedded.frame
    assert embedded.chart == "staleness" and embedded.params["mode"] == mode
    graph = kgdiff.open(store)
    # the library's curve, as drawn
    curve = graph.answers.staleness(mode=mode).frame.filter(pl.col("level").is_in(SHOWN))
    assert points.height == curve.height == 3 * curve["cutoff"].n_unique() > 0
    key = ["cutoff", "level"]
    assert (
        points.select(*key, "groups", "covered", "total")
        .sort(key)
        .equals(
            curve.select(*key, "groups", "covered", "total")
            .cast({"groups": pl.Int64, "covered": pl.Int64, "total": pl.Int64})
            .sort(key)
        )
    )
    # and the classification's counts at the first, a middle and the last month
    cutoffs = sorted(points["cutoff"].unique())
    for cutoff in (cutoffs[0], cutoffs[len(cutoffs) // 2], cutoffs[-1]):
        counts = _counts(graph, cutoff, mode)
        covered = sum(counts.values()) - counts.get("not_covered", 0)
        at = points.filter(pl.col("cutoff") == cutoff)
        for row in at.iter_rows(named=True):
            assert row["groups"] == counts.get(row["level"], 0), (cutoff, row["level"])
            assert row["covered"] == covered and row["total"] == sum(counts.values())
            assert row["share"] == pytest.approx(row["groups"] / covered)
    # one line per level, the mark drawn
    ids = svg_ids(out)
    assert {f"share-{level}" for level in SHOWN} | {"mark-0"} <= set(ids)
    assert embedded.params["marks"] == ["2014-08-15"]


def test_dates_outside_the_snapshots_are_notes_not_lines(store: Path, tmp_path: Path) -> None:
    out, table = tmp_path / "staleness.png", tmp_path / "points.jsonl"
    result = run_plot(
        "staleness",
        "--seeds",
        "--mark",
        "2020-01-01",
        "--out",
        str(out),
        "--data",
        str(table),
        "--store",
        str(store),
    )
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    embedded = read_plot_data(out)
    with Image.open(out) as image:
        assert image.size == pixel_size(*figure_size(embedded))
    assert embedded.params["marks"] == [] and embedded.params["seeds"] == []
    assert "--mark 2020-01-01 lies outside the snapshots" in result.stdout
    assert "EvoWiki cutoff (2024-01-01)" in result.stdout
    assert any("EvoWiki cutoff" in note for note in embedded.notes)
    assert pl.read_ndjson(table).height == embedded.frame.height


def test_a_seed_inside_the_span_is_drawn_and_the_svg_repeats(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = SeedCutoff("A model", date(2014, 4, 1), "month", "A paper", "model cutoff")
    monkeypatch.setattr(staleness_module, "seed_cutoffs", lambda: (seed,))
    table = staleness_data(kgdiff.open(store), StalenessRequest("record", (), seeds=True))
    assert table.params["seeds"] == [
        {"name": "A model", "date": "2014-04-01", "about": "A paper; model cutoff"}
    ]
    first, second = tmp_path / "one.svg", tmp_path / "two.svg"
    draw_staleness(table, first)
    draw_staleness(table, second)
    assert first.read_bytes() == second.read_bytes()
    assert "seed-0" in svg_ids(first)


def test_a_bad_suffix_is_a_one_line_error_and_writes_nothing(store: Path, tmp_path: Path) -> None:
    result = run_plot("staleness", "--out", str(tmp_path / "x.jpeg"), "--store", str(store))
    assert result.returncode == 2
    assert result.stderr.startswith("error:") and len(result.stderr.splitlines()) == 1
    assert "'.jpeg'" in result.stderr and ".svg or .png" in result.stderr
    assert list(tmp_path.iterdir()) == []
