"""``sql/classify/classify.sql`` translated to Spark SQL gives DuckDB's rows, group for group."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings

from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.builds import classification
from kgdiff.temporal.classify import classify, role_days
from kgdiff.temporal.dates import GapPolicy, check_answerable
from tests.temporal_strategies import histories
from tests.test_classify import load

pytest.importorskip("pyspark")
pytest.importorskip("sqlglot")
if shutil.which("java") is None:
    pytest.skip("the Spark tests need Java (scripts/system-packages test)", allow_module_level=True)

from kgdiff.spark.classify import classification_frame, spark_classification  # noqa: E402
from kgdiff.spark.views import register_reads, register_redirects  # noqa: E402
from tests.spark_session import cluster_session  # noqa: E402

ANY_GAP = GapPolicy(allow=True)
DAYS = (date(2014, 1, 1), date(2014, 10, 20), date(2015, 1, 1))
"""Dates the three real samples answer (as in tests/test_classify.py)."""
MODES = ("record", "valid", "both")


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    yield from cluster_session()


def _rows(rows: list[Any]) -> list[str]:
    return sorted(repr(tuple(row)) for row in rows)


def _spark_rows(spark: Any, days: tuple[date, date, date], mode: str) -> list[str]:
    return _rows(classification_frame(spark, *days, mode).collect())


@pytest.fixture(scope="module")
def spark_store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the real samples' store, for builds of this module only."""
    store = tmp_path_factory.mktemp("spark-store") / "store"
    shutil.copytree(sample_store, store)
    return store


@pytest.mark.parametrize("mode", MODES)
def test_spark_build_equals_duckdb_on_the_real_samples(
    spark: Any, spark_store: Path, tmp_path: Path, mode: str
) -> None:
    duck_store = tmp_path / "duck"
    shutil.copytree(spark_store, duck_store, ignore=shutil.ignore_patterns("builds"))
    expected = classification(StoreLayout.resolve(duck_store), *DAYS, mode, gap=ANY_GAP)
    layout = StoreLayout.resolve(spark_store)
    built = spark_classification(spark, layout, DAYS, mode, ANY_GAP)
    assert not built.reused
    assert built.params == expected.params
    assert built.path.parent.parent.name == expected.path.parent.parent.name  # the same key
    got = duckdb.sql(f"SELECT * FROM read_parquet('{built.path}')")  # noqa: S608
    want = duckdb.sql(f"SELECT * FROM read_parquet('{expected.path}')")  # noqa: S608
    assert got.columns == want.columns
    assert got.types == want.types
    assert _rows(got.fetchall()) == _rows(want.fetchall())
    # The catalog lists it, and the local path reuses it as its own.
    again = classification(layout, *DAYS, mode, gap=ANY_GAP)
    assert again.reused and again.path == built.path


def _load_history(spark: Any, connection: duckdb.DuckDBPyConnection) -> None:
    """The views ``tests/test_classify.load`` made in DuckDB, as Spark temporary views."""
    for view in ("snapshots", "statements", "entities", "coverage"):
        table = connection.sql(f"SELECT * FROM {view}").to_arrow_table()  # noqa: S608
        spark.createDataFrame(table).createOrReplaceTempView(view)
    register_redirects(spark)


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(history=histories(subsets=True))
def test_spark_equals_duckdb_on_generated_histories(spark: Any, history: Any) -> None:
    snapshots, init, cutoff, current = history
    connection = duckdb.connect()
    load(connection, snapshots)
    _load_history(spark, connection)
    for mode in MODES:
        reads = check_answerable(
            connection, role_days(init, cutoff, current), mode, ANY_GAP, as_of=current
        )
        register_reads(spark, reads)
        expected = _rows(classify(connection, init, cutoff, current, mode, ANY_GAP).fetchall())
        assert _spark_rows(spark, (init, cutoff, current), mode) == expected, mode
