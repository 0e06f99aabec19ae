"""Spark reads a snapshot stored as a delta whole, as the DuckDB catalog does: the
classification of dates that read it is DuckDB's, group for group."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest

from kgdiff.refresh.pipeline import refresh_snapshot
from kgdiff.refresh.request import RefreshRequest
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.classify import classify
from kgdiff.temporal.dates import GapPolicy
from tests.paths import DATA

pytest.importorskip("pyspark")
pytest.importorskip("sqlglot")
if shutil.which("java") is None:
    pytest.skip("the Spark tests need Java (scripts/system-packages test)", allow_module_level=True)

from kgdiff.spark.classify import spark_classification
from tests.spark_session import LOCAL, cluster_session

DAYS = (date(2013, 12, 21), date(2014, 1, 15), date(2014, 2, 20))
"""The current date reads the delta ``daily``; init and cutoff its base."""


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    yield from cluster_session(LOCAL)


def _rows(rows: list[Any]) -> list[str]:
    return sorted(repr(tuple(row)) for row in rows)


def test_spark_classifies_a_delta_as_duckdb_does(
    spark: Any, sample_store: Path, tmp_path: Path
) -> None:
    store = tmp_path / "store"
    shutil.copytree(sample_store, store, ignore=shutil.ignore_patterns("builds"))
    daily = DATA / "sample-daily-dump-20140220.xml"
    refresh_snapshot(RefreshRequest((daily,), "wd-2013-12", "daily", "2014-02-20", store=store))
    layout = StoreLayout.resolve(store)
    with open_catalog(layout) as connection:
        expected = _rows(classify(connection, *DAYS, "record", GapPolicy(allow=True)).fetchall())
    built = spark_classification(spark, layout, DAYS, "record", GapPolicy(allow=True))
    got = duckdb.connect().execute("SELECT * FROM read_parquet(?)", [str(built.path)])
    assert _rows(got.fetchall()) == expected
    assert any("'stable'" in row for row in expected)  # the base's rows, read as daily's
