"""A build's pages written a subject range at a time (kgdiff/query/pages.py) are the pages
written in one range: the same rows in the same key order, files that do not overlap."""

from __future__ import annotations

import itertools
from datetime import date
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import kgdiff
from kgdiff.query import pages
from kgdiff.query.pages import load_pages, write_pages
from kgdiff.temporal.dates import GapPolicy

DAYS = (date(2014, 10, 11), date(2013, 12, 21), date(2014, 12, 31))  # cutoff, init, current


def _rows(folder: Path) -> pa.Table:
    """Every row of the pages in ``folder``, file after file in the index's order."""
    paged = load_pages(folder)
    keys = [(file.first, file.last) for file in paged.files]
    assert all(a[1] < b[0] for a, b in itertools.pairwise(keys)), "files overlap"
    tables = [pq.read_table(folder / file.name) for file in paged.files]
    assert [t.num_rows for t in tables] == [file.rows for file in paged.files]
    return pa.concat_tables(tables)


@pytest.mark.parametrize("mode", ["record", "valid"])
def test_pages_written_by_ranges_are_the_pages_written_whole(
    sample_store: Path, tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph = kgdiff.open(sample_store)
    build = graph.answers.classification(*DAYS, mode, GapPolicy(allow=True))
    whole, ranged = tmp_path / "whole", tmp_path / "ranged"
    write_pages(graph.layout, build, "en", whole)
    monkeypatch.setattr(pages, "GROUPS_PER_RANGE", 700)
    with graph.connection() as connection:
        groups = connection.execute(
            "SELECT count(*) FROM read_parquet(?)", [str(build.path)]
        ).fetchall()[0][0]
    write_pages(graph.layout, build, "en", ranged)
    assert groups > 7 * 700
    expected, got = _rows(whole), _rows(ranged)
    assert got.num_rows == expected.num_rows == groups
    assert got.equals(expected)
    names = [file.name for file in load_pages(ranged).files]
    assert len({name.split("-")[1] for name in names}) >= 7  # written in that many ranges
