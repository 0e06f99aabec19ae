"""A catalog rebuild keeps the views it would make again unchanged (kgdiff/store/view_reuse.py)
and makes again a view whose statement, or whose files on disk, changed, with every view after
it."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import duckdb
import pytest

from kgdiff.store.catalog import CATALOG_STORAGE_VERSION, catalog_plan, rebuild_catalog
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.store.view_reuse import view_mark, view_name

MADE = "catalog views made: "
COUNTS = (
    "SELECT (SELECT count(*) FROM statements), (SELECT count(*) FROM entities),"
    " (SELECT count(*) FROM snapshots)"
)


@pytest.fixture
def layout(sample_store: Path, tmp_path: Path) -> StoreLayout:
    store = tmp_path / "store"
    shutil.copytree(sample_store, store, ignore=shutil.ignore_patterns("builds"))
    layout = StoreLayout(store)
    rebuild_catalog(layout)
    return layout


def _views(layout: StoreLayout) -> dict[str, tuple[str, str]]:
    """Each view's (statement as DuckDB keeps it, comment)."""
    with duckdb.connect(str(layout.catalog), read_only=True) as connection:
        rows = connection.execute(
            "SELECT view_name, sql, comment FROM duckdb_views() WHERE NOT internal"
        ).fetchall()
    return {name: (sql, comment) for name, sql, comment in rows}


def _answers(layout: StoreLayout) -> tuple[int, ...]:
    with open_catalog(layout) as connection:
        row = connection.execute(COUNTS).fetchone()
    assert row is not None
    return tuple(int(value) for value in row)


def _made(layout: StoreLayout, caplog: pytest.LogCaptureFixture) -> list[str]:
    """Rebuild the catalog; the views it made (the others it kept)."""
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="kgdiff.store.catalog"):
        rebuild_catalog(layout)
    (line,) = [r.getMessage() for r in caplog.records if r.getMessage().startswith(MADE)]
    return [name for name in line.removeprefix(MADE).split() if name != "none"]


def test_every_view_carries_its_mark(layout: StoreLayout) -> None:
    plan = catalog_plan(layout)
    expected = {
        view_name(s): view_mark(layout.root, s, CATALOG_STORAGE_VERSION) for s in plan.views
    }
    assert {name: comment for name, (_, comment) in _views(layout).items()} == expected


def test_a_rebuild_of_an_unchanged_store_keeps_every_view(
    layout: StoreLayout, caplog: pytest.LogCaptureFixture
) -> None:
    before, answers = _views(layout), _answers(layout)
    assert _made(layout, caplog) == []
    assert _views(layout) == before and _answers(layout) == answers


def test_a_folder_that_changed_makes_its_view_and_the_later_ones_again(
    layout: StoreLayout, caplog: pytest.LogCaptureFixture
) -> None:
    names = [view_name(s) for s in catalog_plan(layout).views]
    snapshot = layout.snapshot_dir(layout.published_names()[0])
    parts = sorted((snapshot / "statements").glob("*.parquet"))
    assert parts, "the sample's statements are part files in a folder"
    counts = _answers(layout)
    copy = parts[0].with_name("part-copy.parquet")
    shutil.copyfile(parts[0], copy)  # the folder gains a file: its statements view reads it
    made = _made(layout, caplog)
    assert made == names[names.index("statements") :]
    assert _answers(layout)[0] > counts[0]  # the view reads the new file
    copy.unlink()
    assert _made(layout, caplog)[0] == "statements"
    assert _answers(layout) == counts


def test_a_view_replaced_by_hand_is_made_again(
    layout: StoreLayout, caplog: pytest.LogCaptureFixture
) -> None:
    counts = _answers(layout)
    with duckdb.connect(str(layout.catalog)) as connection:
        connection.execute("CREATE OR REPLACE VIEW entities AS SELECT 1 AS qid")
    assert "entities" in _made(layout, caplog)
    assert _answers(layout) == counts
