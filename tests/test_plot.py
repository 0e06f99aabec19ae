"""`kgdiff plot timeline`: the picture holds one element per bar and the table it was drawn
from, which equals the library's timeline and classification."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import polars as pl
import pytest
from PIL import Image

import kgdiff
from kgdiff.export.relations.catalogue import shipped_catalogue
from kgdiff.plot import read_plot_data
from kgdiff.plot.render import pixel_size
from kgdiff.plot.timeline_chart import draw_timeline, figure_size
from kgdiff.plot.timeline_data import STATEMENT_COLUMNS, TimelineRequest, timeline_data
from tests.plot_tools import run_plot, svg_ids

CUTOFF = "2014-06-01"
CATALOGUE = shipped_catalogue().relations.keys()
"""The properties a picture prefers, as the command line gives them."""


@pytest.fixture(scope="module")
def store(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the demo store (classifications are built into it)."""
    target = tmp_path_factory.mktemp("plot-store") / "store"
    shutil.copytree(demo_store, target)
    return target


def _plot(store: Path, out: Path, *args: str) -> None:
    result = run_plot(
        "timeline", *args, "--cutoff", CUTOFF, "--out", str(out), "--store", str(store)
    )
    assert result.returncode == 0, result.stderr
    assert f"wrote {out}" in result.stdout


def _day(day: date) -> int:
    return day.toordinal() - date(1970, 1, 1).toordinal()


def _bar_ids(svg: Path) -> list[str]:
    ids = svg_ids(svg)
    return [
        name for name in ids if name.split("-")[0] in ("record", "valid") and name.count("-") == 1
    ]


def test_the_svg_has_one_element_per_bar_and_the_library_data(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "q64.svg"
    _plot(store, out, "Q64", "--all")
    graph = kgdiff.open(store)
    timeline = graph.answers.timeline("Q64").frame
    levels = graph.answers.classify(CUTOFF, subject="Q64").frame.select("pid", "level")
    embedded = read_plot_data(out)
    assert embedded.chart == "timeline" and embedded.params["cutoff"] == CUTOFF
    bars = embedded.frame
    assert sorted(_bar_ids(out)) == sorted(bars["bar"].to_list())
    records = bars.filter(pl.col("kind") == "record").sort("statement")
    assert records.height == timeline.height
    # every statement of the timeline, its columns as the library gives them
    assert records.select(timeline.columns[2:]).equals(timeline.select(timeline.columns[2:]))
    # bars run between day numbers (days since 1970-01-01): any date, the Big Bang's too
    assert records["start"].to_list() == [_day(d) for d in timeline["first_seen"]]
    assert records["end"].to_list() == [_day(d) for d in timeline["last_seen"]]
    # a valid bar for each statement with a start, end or point in time, and only those
    qualified = timeline.filter(
        pl.any_horizontal(
            pl.col(c).is_not_null() for c in ("valid_from_lo", "valid_until_lo", "point_lo")
        )
    )
    valid = bars.filter(pl.col("kind") == "valid").sort("statement")
    assert valid.height == qualified.height > 10
    assert valid.select(STATEMENT_COLUMNS).equals(qualified.select(STATEMENT_COLUMNS))
    # each bar carries its property's level at the cutoff
    expected = dict(levels.iter_rows())
    for pid, level in bars.select("pid", "level").unique().iter_rows():
        assert level == expected.get(pid), pid


def test_valid_bars_show_open_unknown_and_imprecise_ends(store: Path) -> None:
    graph = kgdiff.open(store)
    request = TimelineRequest("Q1253", date.fromisoformat(CUTOFF), pids=("P39",))
    table = timeline_data(graph, request, CATALOGUE)
    valid = table.frame.filter(pl.col("kind") == "valid").row(0, named=True)
    # position held since 2007, its end a date nobody knows (somevalue)
    assert (valid["start"], valid["start_kind"]) == (_day(date(2007, 1, 1)), "date")
    assert (valid["valid_from"], valid["valid_from_text"]) == (
        ["+2007-01-01T00:00:00Z|11|Q1985727"],
        "1 January 2007",
    )
    assert (valid["end"], valid["end_kind"], valid["valid_until_snaktype"]) == (
        None,
        "unknown",
        "somevalue",
    )


def test_a_png_has_its_size_and_the_same_table(store: Path, tmp_path: Path) -> None:
    svg, png = tmp_path / "q42.svg", tmp_path / "q42.png"
    _plot(store, svg, "Q42", "--pid", "P106", "--pid", "P69", "--mode", "valid")
    _plot(store, png, "Q42", "--pid", "P106", "--pid", "P69", "--mode", "valid")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    embedded = read_plot_data(png)
    with Image.open(png) as image:
        assert image.size == pixel_size(*figure_size(embedded))
    assert embedded.frame.equals(read_plot_data(svg).frame)
    assert embedded.params["mode"] == "valid"
    assert set(embedded.frame["pid"]) == {"P106", "P69"}
    levels = kgdiff.open(store).answers.classify(CUTOFF, mode="valid", subject="Q42").frame
    expected = dict(levels.select("pid", "level").iter_rows())
    assert dict(embedded.frame.select("pid", "level").unique().iter_rows()) == {
        pid: expected.get(pid) for pid in ("P106", "P69")
    }


def test_the_svg_is_the_same_bytes_each_time(store: Path, tmp_path: Path) -> None:
    request = TimelineRequest("Q42", date.fromisoformat(CUTOFF))
    table = timeline_data(kgdiff.open(store), request, CATALOGUE)
    first, second = tmp_path / "one.svg", tmp_path / "two.svg"
    draw_timeline(table, first)
    draw_timeline(table, second)
    assert first.read_bytes() == second.read_bytes()


def test_the_axis_of_all_dates_reaches_back(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.svg"
    _plot(store, out, "Q64", "--pid", "P6", "--axis", "all", "--data", str(tmp_path / "t.csv"))
    embedded = read_plot_data(out)
    assert embedded.params["axis"] == "all"
    written = pl.read_csv(tmp_path / "t.csv")
    assert written["bar"].to_list() == embedded.frame["bar"].to_list()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Q42", "--cutoff", CUTOFF, "--out", "{tmp}/x.pdf"], "'.pdf' is not a picture kind"),
        (["Q42", "--cutoff", CUTOFF, "--out", "{tmp}/x"], "no suffix is not a picture kind"),
        (["Q99999999", "--cutoff", CUTOFF, "--out", "{tmp}/x.svg"], "Q99999999"),
        (["Q42", "--cutoff", "2012-01-01", "--out", "{tmp}/x.svg"], "before the first snapshot"),
        (["Q42", "--cutoff", CUTOFF, "--axis", "wide", "--out", "{tmp}/x.svg"], "--axis"),
    ],
)
def test_bad_arguments_are_one_line_errors_and_write_nothing(
    store: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    words = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    result = run_plot("timeline", *words, "--store", str(store))
    assert result.returncode == 2
    assert result.stderr.startswith("error:") and len(result.stderr.splitlines()) == 1
    assert message in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_entity_without_such_statements_is_an_empty_picture_with_its_note(
    store: Path, tmp_path: Path
) -> None:
    request = TimelineRequest("Q42", date.fromisoformat(CUTOFF), pids=("P6",))
    table = timeline_data(kgdiff.open(store), request, CATALOGUE)
    out = tmp_path / "empty.svg"
    draw_timeline(table, out)
    embedded = read_plot_data(out)
    assert embedded.frame.is_empty() and embedded.frame.columns == table.frame.columns
    assert embedded.notes == ["no statements: Q42 has no P6 statement in any snapshot"]
    assert _bar_ids(out) == []
