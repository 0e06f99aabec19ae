"""``sql/classify/classify.sql`` translated to Spark SQL gives DuckDB's rows, group for group
(on the real samples, generated histories and a snapshot stored as a delta, which Spark reads
whole as the DuckDB catalog does); ``kgdiff spark ingest`` and ``classify`` as commands.

One module, so one Spark session (a JVM's start) for all of them."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kgdiff.cli.spark import spark_classify_command, spark_ingest_command
from kgdiff.refresh.pipeline import refresh_snapshot
from kgdiff.refresh.request import RefreshRequest
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.builds import build_params, classification
from kgdiff.temporal.classify import classify, role_days
from kgdiff.temporal.dates import GapPolicy, check_answerable
from tests.paths import DATA
from tests.temporal_strategies import histories
from tests.test_classify import load

pytest.importorskip("pyspark")
pytest.importorskip("sqlglot")
if shutil.which("java") is None:
    pytest.skip("the Spark tests need Java (scripts/system-packages test)", allow_module_level=True)

import sqlglot
from sqlglot import exp

from kgdiff.spark.classify import classification_frame, spark_classification
from kgdiff.spark.stages import STAGE_PREFIX, staged_frame
from kgdiff.spark.views import register_reads, register_redirects
from tests.spark_session import LOCAL, cluster_session
from tests.test_spark_ingest import dump_with_rejects

ANY_GAP = GapPolicy(allow=True)
MODES = ("record", "valid", "both")


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    yield from cluster_session(LOCAL)


def _rows(rows: list[Any]) -> list[str]:
    return sorted(repr(tuple(row)) for row in rows)


def _spark_rows(spark: Any, days: tuple[date, date, date], mode: str) -> list[str]:
    with classification_frame(spark, *days, mode) as frame:
        return _rows(frame.collect())


@pytest.fixture(scope="module")
def spark_store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the real samples' store with the daily dump of 2014-02-20 refreshed onto
    wd-2013-12 as the delta ``daily``, for builds of this module only."""
    store = tmp_path_factory.mktemp("spark-store") / "store"
    shutil.copytree(sample_store, store, ignore=shutil.ignore_patterns("builds"))
    daily = DATA / "sample-daily-dump-20140220.xml"
    refresh_snapshot(RefreshRequest((daily,), "wd-2013-12", "daily", "2014-02-20", store=store))
    return store


DAYS = (date(2014, 1, 1), date(2014, 2, 20), date(2015, 1, 1))
"""In record time init reads wd-2013-12, the cutoff the delta ``daily`` (which Spark reads
whole, its base's rows beneath its own, as the DuckDB catalog does) and the current date
wd-2014-12; in valid time all three read wd-2014-12."""


def test_spark_build_equals_duckdb_on_the_real_samples_and_a_delta(
    spark: Any, spark_store: Path
) -> None:
    """Mode 'both': it computes the record and the valid view's levels (each mode alone only
    projects one of them, which the generated histories below check in every mode). One
    classification: each costs Spark ~10 s of planning and running however small the data."""
    mode = "both"
    layout = StoreLayout.resolve(spark_store)
    with open_catalog(layout) as connection:
        want = classify(connection, *DAYS, mode, ANY_GAP)
        columns = [column[0] for column in want.description]
        rows = want.fetchall()
        expected = _rows(rows)
    built = spark_classification(spark, layout, DAYS, mode, ANY_GAP)
    assert not built.reused
    assert built.params == build_params(layout, list_snapshots(layout), DAYS, mode)
    read = {(r.view, r.role): r.snapshot for r in built.reads}
    assert read[("record", "cutoff")] == "daily" and read[("valid", "cutoff")] == "wd-2014-12"
    got = duckdb.connect().execute("SELECT * FROM read_parquet(?)", [str(built.path)])
    assert [column[0] for column in got.description] == columns
    assert _rows(got.fetchall()) == expected
    # groups stable in record time from the cutoff (the delta, most rows its base's) to wd-2014-12
    record_level = columns.index("record_level")
    assert any(row[record_level] == "stable" for row in rows)
    # The catalog lists it, and the local path takes it for its own.
    again = classification(layout, *DAYS, mode, gap=ANY_GAP)
    assert again.reused and again.path == built.path
    with open_catalog(layout) as connection:
        view = connection.execute(f"SELECT count(*) FROM {built.params.view_name}").fetchall()
    assert view == [(len(expected),)]


def _load_history(spark: Any, connection: duckdb.DuckDBPyConnection) -> None:
    """The views ``tests/test_classify.load`` made in DuckDB, as Spark temporary views."""
    for view in ("snapshots", "statements", "entities", "coverage"):
        table = connection.sql(f"SELECT * FROM {view}").to_arrow_table()
        spark.createDataFrame(table).createOrReplaceTempView(view)
    register_redirects(spark)


@settings(
    # One classification (~2 s since the steps read twice are checkpointed, ~15 s cached) per
    # example, its mode drawn with the history: every mode over the examples of a run or two,
    # each history checked in the mode it came with.
    max_examples=8,
    suppress_health_check=[
        *settings.get_profile("kgdiff").suppress_health_check,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(history=histories(subsets=True), mode=st.sampled_from(MODES))
def test_spark_equals_duckdb_on_generated_histories(spark: Any, history: Any, mode: str) -> None:
    snapshots, init, cutoff, current = history
    connection = duckdb.connect()
    load(connection, snapshots)
    _load_history(spark, connection)
    reads = check_answerable(
        connection, role_days(init, cutoff, current), mode, ANY_GAP, as_of=current
    )
    register_reads(spark, reads)
    expected = _rows(classify(connection, init, cutoff, current, mode, ANY_GAP).fetchall())
    assert _spark_rows(spark, (init, cutoff, current), mode) == expected, mode


def test_the_commands_ingest_classify_and_write_out(spark: object, tmp_path: Path) -> None:
    """``kgdiff spark ingest wikidata`` then ``kgdiff spark classify --out``, in this process
    (so on this module's session: an active session is reused). A local one: what crosses
    processes in an ingest is tested on a cluster in tests/test_spark_ingest.py, and there this
    test's classification cost more than a minute of the executors' round trips."""
    dump = tmp_path / "wikidata-20200101-all.json.bz2"
    dump_with_rejects(dump)
    store = str(tmp_path / "store")
    app = typer.Typer(pretty_exceptions_enable=False)
    app.command("ingest")(spark_ingest_command)
    app.command("classify")(spark_classify_command)
    ingested = CliRunner().invoke(app, ["ingest", str(dump), "--store", store])
    assert ingested.exit_code == 0, ingested.output
    assert "published snapshot wikidata-20200101" in ingested.output
    out = tmp_path / "classified.jsonl"
    days = ["--init", "2019-01-01", "--cutoff", "2019-06-01", "--current", "2020-01-01"]
    args = ["classify", *days, "--allow-gap", "--store", store, "--out", str(out)]
    classified = CliRunner().invoke(app, args)
    assert classified.exit_code == 0, classified.output
    assert "built " in classified.output and f"to {out}" in classified.output.replace("\n", "")
    assert out.is_file()


STAGED = """
WITH a AS (SELECT id AS x FROM range(100)), b AS (SELECT x FROM a WHERE x % 2 = 0)
SELECT count(*) AS n FROM a JOIN b ON a.x = b.x JOIN a AS c ON c.x = b.x
"""
"""``a`` read three times (checkpointed), ``b`` once (a view only)."""


@pytest.mark.parametrize("folder", [False, True], ids=["local", "checkpoint folder"])
def test_stages_read_twice_are_computed_once_and_let_go_of_after(
    spark: Any, folder: bool, tmp_path: Path
) -> None:
    """A step read more than once is checkpointed (its rows kept by the executors, or written
    to the session's checkpoint folder when it has one); once the block ends, no stage view
    and no checkpoint's rows are left in the session. Last in the module, the local case
    first: a SparkContext's checkpoint folder, once set, cannot be unset, and every later
    classification of this session would write its steps there."""
    persistent = spark.sparkContext._jsc.getPersistentRDDs
    if folder:
        spark.sparkContext.setCheckpointDir(str(tmp_path / "checkpoints"))
    tree = sqlglot.parse_one(STAGED, read="spark")
    assert isinstance(tree, exp.Expression)
    with staged_frame(spark, tree) as frame:
        plan = frame._jdf.queryExecution().analyzed().toString()
        assert [tuple(row) for row in frame.collect()] == [(50,)]
        assert persistent().size() == (0 if folder else 1)
        # a's three reads (b's among them) scan its rows: no read computes a again
        assert plan.count("LogicalRDD") == 3 and "Range" not in plan
    if folder:
        assert any((tmp_path / "checkpoints").rglob("part-*"))
    assert persistent().size() == 0
    assert not any(spark.catalog.tableExists(STAGE_PREFIX + name) for name in ("a", "b"))
