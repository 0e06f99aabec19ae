"""`kgdiff plot timeline` of a big entity makes a figure for a paper (issue 39, item 7): Berlin
(Q64, 114 statements in the demo) fits a page, says what it left out and how to draw it, writes
values as people do, and no text overprints another, even with two snapshots on one day."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from datetime import date
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from PIL import Image

import kgdiff
from kgdiff.export.rdf.request import RdfRequest
from kgdiff.export.rdf.writer import export_rdf
from kgdiff.export.relations.catalogue import shipped_catalogue
from kgdiff.ingest.rdf_snapshot import RdfIngestRequest, ingest_rdf
from kgdiff.plot import read_plot_data
from kgdiff.plot.timeline_chart import draw_timeline
from kgdiff.plot.timeline_choice import MAX_LANES
from kgdiff.plot.timeline_data import TimelineRequest, timeline_data
from tests.plot_tools import run_plot

CLOSE_CUTOFF = date(2014, 10, 9)
PAGE_WIDTH = 1500
"""Pixels: a figure as wide as the text of a page at 150 dpi (10 inches at most)."""
PAGE_RATIO = 1.414
"""Height over width of an A4 page: a taller figure does not fit one."""
RAW_KEY = re.compile(r"[+-]\d[\d.e+-]*\|\S+|T00:00:00Z|^-?\d+\.\d+,-?\d+\.\d+,Q\d+$")
"""A quantity (``+3401147|1``), a time (``+1237-00-00T00:00:00Z|9|Q1985727``) or a
coordinate (``52.5,13.4,Q2``) value key as the store keeps it."""


@pytest.fixture(scope="module")
def store(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("paper-store") / "store"
    shutil.copytree(demo_store, target)
    return target


@pytest.fixture(scope="module")
def rdf_store(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store after the README's RDF example: Germany's Turtle ingested as a fourth
    snapshot, ``germany-rdf``, on the day of ``wd-2014-12``."""
    folder = tmp_path_factory.mktemp("paper-rdf")
    target = folder / "store"
    shutil.copytree(store, target)
    turtle = folder / "germany.ttl"
    export_rdf(target, RdfRequest("wd-2014-12", turtle, format="ttl", entities=["Q183"]))
    ingest_rdf(RdfIngestRequest(turtle, "germany-rdf", "2014-12-31", target))
    return target


def _plot(store: Path, out: Path, *args: str) -> str:
    result = run_plot("timeline", "Q64", *args, "--out", str(out), "--store", str(store))
    assert result.returncode == 0, result.stderr
    return result.stdout


def svg_texts(svg: Path, gid: str | None = None) -> list[str]:
    """The text the SVG draws (within the element ``gid``): matplotlib writes each text,
    drawn as glyph paths, as a comment (``--`` written ``- -``, as XML comments require)."""
    root = etree.parse(str(svg)).getroot()
    if gid is not None:
        root = next(node for node in root.iter() if node.get("id") == gid)
    return [str(node.text).strip().replace("- -", "--") for node in root.iter(etree.Comment)]


def test_the_default_picture_of_berlin_fits_a_page_and_names_what_it_left_out(
    store: Path, tmp_path: Path
) -> None:
    png, svg = tmp_path / "berlin.png", tmp_path / "berlin.svg"
    printed = _plot(store, png, "--cutoff", "2014-06-01")
    with Image.open(png) as image:
        width, height = image.size
    assert width <= PAGE_WIDTH and height <= PAGE_RATIO * width, (width, height)
    embedded = read_plot_data(png)
    total = kgdiff.open(store).answers.timeline("Q64").frame.height
    drawn = embedded.frame.filter(embedded.frame["kind"] == "record").height
    assert drawn < total == embedded.params["statements"]
    # the caption under the picture counts what is missing and says how to draw it
    draw_timeline(embedded, svg)
    caption = " ".join(svg_texts(svg, "caption"))
    assert f"Drawn: {drawn} of {total} statements" in caption
    assert "--all draws every one" in caption and "--pid P chooses" in caption
    assert "image (P18)" in caption  # an unchanged property outside the catalogue
    assert "Left out:" in printed  # and the command says the same


def test_values_are_written_as_people_write_them(store: Path, tmp_path: Path) -> None:
    svg = tmp_path / "berlin.svg"
    _plot(store, svg, "--cutoff", "2014-06-01", "--pid", "P1082", "--pid", "P571", "--pid", "P625")
    texts = svg_texts(svg)
    raw = [text for text in texts if RAW_KEY.search(text)]
    assert raw == []
    values = set(read_plot_data(svg).frame["value"].to_list())
    assert {"+3401147|1", "+3419623|1"} <= values  # the population, as the store keeps it
    assert {"3,401,147", "3,419,623", "1237", "52.5167, 13.3833"} <= set(texts)


def test_every_statement_comes_back_on_request(store: Path, tmp_path: Path) -> None:
    graph = kgdiff.open(store)
    total = graph.answers.timeline("Q64").frame.height
    out = tmp_path / "q64.svg"
    _plot(store, out, "--cutoff", "2014-06-01", "--all")
    embedded = read_plot_data(out)
    assert embedded.frame.filter(embedded.frame["kind"] == "record").height == total
    assert not any("Left out" in note for note in embedded.notes)
    # a property asked for is drawn whole, under the cap or without it
    for cap in (MAX_LANES, 0):
        request = TimelineRequest("Q64", date(2014, 6, 1), pids=("P190",), max_lanes=cap)
        table = timeline_data(graph, request, shipped_catalogue().relations.keys())
        records = table.frame.filter(table.frame["kind"] == "record")
        assert set(records["pid"]) == {"P190"} and records.height == 21
        assert not any("Left out" in note for note in table.notes)


def test_the_cutoff_defaults_to_the_explorer_s(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "q64.svg"
    _plot(store, out)
    assert read_plot_data(out).params["cutoff"] == "2014-06-01"


@pytest.fixture
def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, tuple[str, Any]]]:
    """Each text matplotlib's Agg renderer draws (a PNG) and its box on the picture, by the
    text artist's id (a text of several lines is drawn a line at a time)."""
    from matplotlib.backends.backend_agg import RendererAgg

    found: dict[int, tuple[str, Any]] = {}
    draw_text: Any = RendererAgg.draw_text

    def recording(self: Any, gc: Any, x: float, y: float, s: str, *rest: Any, **kw: Any) -> Any:
        text = kw.get("mtext")
        if text is not None and s.strip():
            found[id(text)] = (text.get_text(), text.get_window_extent(self))
        return draw_text(self, gc, x, y, s, *rest, **kw)

    monkeypatch.setattr(RendererAgg, "draw_text", recording)
    yield found


def overlap(a: Any, b: Any) -> float:
    """The area two boxes share, in square pixels."""
    width = float(min(a.x1, b.x1) - max(a.x0, b.x0))
    height = float(min(a.y1, b.y1) - max(a.y0, b.y0))
    return max(width, 0.0) * max(height, 0.0)


@pytest.mark.parametrize("which", ["demo", "with germany-rdf"])
def test_no_text_overprints_another(
    which: str,
    store: Path,
    rdf_store: Path,
    tmp_path: Path,
    drawn_texts: dict[int, tuple[str, Any]],
) -> None:
    graph = kgdiff.open(store if which == "demo" else rdf_store)
    names = graph.answers.snapshots().frame["name"].to_list()
    # a cutoff two days before wd-2014-10: its name and the snapshot's meet
    catalogue = shipped_catalogue().relations.keys()
    draw_timeline(
        timeline_data(graph, TimelineRequest("Q64", CLOSE_CUTOFF), catalogue), tmp_path / "q.png"
    )
    assert set(names) <= {text for text, _ in drawn_texts.values()}  # every snapshot is named
    overprinted = [
        (one, other)
        for (one, a), (other, b) in combinations(drawn_texts.values(), 2)
        if overlap(a, b) > 1.0
    ]
    assert overprinted == []
