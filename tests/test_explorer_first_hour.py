"""The explorer as a newcomer meets it (issue 39, item 8), in Debian's headless chromium at a
laptop's and a phone's size: the first screen shows the store's most changed entities and opens
the first; the cutoff is written YYYY-MM-DD whatever the browser's language; and no label of
the timeline overprints another, a bar or the cutoff line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import polars as pl
import pytest

import kgdiff
from tests.browser import chromium, launch_beside
from tests.rest_server import copy_store, serving
from tests.test_explorer_browser import DESKTOP, PHONE, visit, wait_until

SIZES = {"desktop": DESKTOP, "phone": PHONE}
DEFAULT_CUTOFF = "2014-06-01"
"""The explorer's first cutoff on the demo store: the first of the middle month."""
CHANGES = ("evolved", "uncharted", "recent", "retracted")
LABELS = (
    ".snapshot-label, .tick-label, .cutoff-label, .prop-name, .level-tag,"
    " .value-label:not(.unknown-mark)"
)
"""Every text of the timeline but the "?" drawn on a bar whose end is unknown."""
MARKS = (
    ".bar-record, .bar-valid-body, .bar-valid-band, .bar-valid-open, .bar-point, .cutoff-line,"
    " .snapshot-tick"
)
"""What a label must not cover: the bars, the cutoff line, the snapshots' guides."""
OVERLAPS = """([labels, marks]) => {
  const boxes = (selector) => [...document.querySelectorAll(`#timeline-chart ${selector}`)]
    .map((node) => [node.textContent.trim() || node.getAttribute("class"),
      node.getBoundingClientRect()])
    .filter(([, box]) => box.width > 0 && box.height > 0);
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const texts = boxes(labels);
  const drawn = boxes(marks);
  const found = [];
  texts.forEach(([one, a], i) => {
    texts.slice(i + 1).forEach(([other, b]) => { if (meet(a, b)) found.push([one, other]); });
    drawn.forEach(([mark, b]) => { if (meet(a, b)) found.push([one, mark]); });
  });
  return { count: texts.length, found: found.slice(0, 20) };
}"""


@pytest.fixture(scope="module")
def store(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(demo_store, tmp_path_factory.mktemp("first-hour"))


@pytest.fixture(scope="module")
def base(store: Path) -> Iterator[str]:
    with serving(store) as client:
        yield str(client.base_url).rstrip("/")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def most_changed(store: Path, cutoff: str) -> list[str]:
    """The subjects by their changed groups at ``cutoff``, most first, then by id number."""
    frame = kgdiff.open(store).answers.classify(cutoff).frame
    counts = frame.filter(pl.col("level").is_in(CHANGES)).group_by("subject").len()
    counts = counts.with_columns(pl.col("subject").str.slice(1).cast(pl.Int64).alias("number"))
    return counts.sort(["len", "number"], descending=[True, False])["subject"].to_list()


@pytest.mark.parametrize("size", SIZES)
def test_the_first_screen_opens_the_most_changed_entity(
    size: str, browser: Any, base: str, store: Path
) -> None:
    expected = most_changed(store, DEFAULT_CUTOFF)
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    visit(page, base)
    listed = page.eval_on_selector_all("#start-list li", "items => items.map(i => i.dataset.qid)")
    assert listed == expected[: len(listed)] and len(listed) >= 5
    first = page.locator("#start-list li").first.bounding_box()
    assert first is not None and first["y"] + first["height"] <= SIZES[size]["height"]
    # the most changed entity is open: its card, its rows, and the address names it
    assert f"({expected[0]})" in page.inner_text("#entity-card h3")
    assert page.locator("#timeline-chart .prop-row").count() > 0
    assert f"entity={expected[0]}" in page.url
    # a name in the list opens that entity
    page.locator(f'#start-list li[data-qid="{expected[1]}"] a').click()
    wait_until(lambda: f"({expected[1]})" in page.inner_text("#entity-card"), "it opens")
    context.close()


@pytest.mark.parametrize("lang", ["de-DE", "en-US"])
def test_the_cutoff_is_written_yyyy_mm_dd_whatever_the_language(
    lang: str, browser: Any, base: str
) -> None:
    speaking: Any = launch_beside(browser, f"--lang={lang}")
    try:
        context = speaking.new_context(viewport=DESKTOP, locale=lang)
        page = context.new_page()
        visit(page, base, "?entity=Q183&cutoff=2014-06-01")
        assert page.evaluate("navigator.language") == lang
        field = page.locator("#cutoff-date")
        assert field.input_value() == "2014-06-01"
        # typing a date the way it is shown moves the cutoff
        field.click()
        page.keyboard.press("Control+A")
        page.keyboard.type("2014-07-01")
        page.keyboard.press("Enter")
        wait_until(lambda: "cutoff=2014-07-01" in page.url, "the typed cutoff is applied")
        assert field.input_value() == "2014-07-01"
        # shown as it is: a text field shows its value, where a date field shows the date as
        # the browser's language writes it (06/01/2014, or 01.06.2014 with German resources)
        assert field.evaluate("node => node.type") == "text"
        # a date written otherwise is refused in words, and the cutoff stays
        page.keyboard.press("Control+A")
        page.keyboard.type("01.07.2014")
        page.keyboard.press("Enter")
        said = page.inner_text("#choose-messages")
        assert "“01.07.2014” is not a date: write the cutoff as YYYY-MM-DD" in said
        assert "cutoff=2014-07-01" in page.url
    finally:
        speaking.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    "query",
    [
        f"?entity=Q183&cutoff={DEFAULT_CUTOFF}",
        "?entity=Q183&cutoff=2014-10-09",  # two days before wd-2014-10
        "?entity=Q183&cutoff=2013-12-22&axis=all",  # the axis's left edge, every date
        "?entity=Q64&cutoff=2014-12-30",  # the right edge
    ],
)
def test_no_label_overprints_another_a_bar_or_the_cutoff(
    size: str, query: str, browser: Any, base: str
) -> None:
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    visit(page, base, query)
    wait_until(
        lambda: (
            page.locator("#timeline-chart .prop-row[data-level='']").count()
            < page.locator("#timeline-chart .prop-row").count()
        ),
        "the levels are painted",
    )
    found = page.evaluate(OVERLAPS, [LABELS, MARKS])
    assert found["count"] > 100
    assert found["found"] == []
    context.close()


def test_the_demo_store_answers_the_routes_the_first_screen_asks(base: str) -> None:
    """The list is counted from /v1/facts pages of the changed levels (no route of its own)."""
    answer = httpx.get(
        f"{base}/v1/facts",
        params={"cutoff": DEFAULT_CUTOFF, "level": list(CHANGES), "limit": 1000},
        timeout=60,
    )
    assert answer.status_code == 200 and answer.json()["next_cursor"] is None
