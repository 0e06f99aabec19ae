"""The store the tests of kgdiff/query/safe_sql.py query: the demo's (three Wikidata
snapshots, a Wikipedia snapshot and its evidence) with a page view source and a record-time
classification added, so that every kind of folder of a store is there to be read, and to
be checked unchanged after every attack."""

from __future__ import annotations

import hashlib
import shutil
from datetime import date
from pathlib import Path

import pytest

from kgdiff.pageviews.ingest import PageviewIngest, ingest_file
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.builds import classification
from tests.paths import DATA

DATES = (date(2013, 12, 21), date(2014, 10, 11), date(2014, 12, 31))
CLASSIFIED = "classified_20131221_20141011_20141231_record"


@pytest.fixture(scope="session")
def sql_store(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> StoreLayout:
    """A private copy of the demo's store with a page view source and a classification."""
    root = tmp_path_factory.mktemp("safe-sql") / "store"
    shutil.copytree(demo_store, root)
    views = DATA / "pageviews" / "pageviews-20190701-210000.head10.txt"
    ingest_file(PageviewIngest(views, period="hour", date="2019-07-01T21", store=root))
    layout = StoreLayout(root)
    classification(layout, *DATES, "record")
    return layout


def file_digests(root: Path) -> dict[str, str]:
    """The sha256 of every file under ``root`` (hidden ones, the catalog and the lock too),
    by path relative to it; a folder maps to ``"folder"`` so that a new empty one shows."""
    digests = {}
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if path.is_dir():
            digests[name] = "folder"
        else:
            digests[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests
