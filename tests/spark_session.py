"""One Spark session per test module: on a real two-executor cluster where the test is about
work crossing process boundaries (ingest: parse workers, the native library, files written by
executors), in local mode where it is about what the SQL computes (classification), which is
the same in either and costs a cluster's start and its executors' round trips for nothing."""

from __future__ import annotations

from collections.abc import Iterator

CLUSTER = "local-cluster[2,1,1024]"
"""Two executor JVMs of one core and 1 GiB each: tasks really run in other processes."""
LOCAL = "local[2]"
"""Two task threads in the driver's JVM (a session starts in about half a cluster's time)."""
JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
"""For the driver and the executors: the JIT's quick tier only, and one garbage collector
thread. A test's JVM lives a minute on tiny data: the optimizing tier's compiles and the
parallel collector's threads cost CPU they never pay back (a local session's start and a
classification of the real samples took 40 % less CPU); what the SQL computes is the same."""
TINY_DATA_SQL = {
    "spark.sql.codegen.wholeStage": "false",
    "spark.sql.codegen.factoryMode": "NO_CODEGEN",
    "spark.sql.adaptive.enabled": "false",
}
"""Spark SQL's interpreted expressions and one plan per query: on a test's few thousand rows,
compiling generated Java for every stage (and re-planning each one after its shuffle) costs
more than it saves; tests/test_spark_classify.py took 114 CPU s with them, 85 without (with
one shuffle partition in local mode). Both are paths Spark runs: the rows are the same."""


def cluster_session(master: str = CLUSTER) -> Iterator[object]:
    """Start a session on ``master`` (:data:`CLUSTER` or :data:`LOCAL`), yield it, stop it
    (for a module-scoped fixture)."""
    from kgdiff.spark.session import spark_session

    # Two shuffle partitions on the cluster, one per executor core (one in local mode): the
    # test data is small, and each task costs a round trip to an executor or a thread's turn.
    settings = {
        **TINY_DATA_SQL,
        "spark.driver.memory": "1g",
        "spark.sql.shuffle.partitions": "1" if master == LOCAL else "2",
        "spark.driver.extraJavaOptions": JVM_OPTIONS,
        "spark.executor.extraJavaOptions": JVM_OPTIONS,
    }
    session = spark_session(master, settings)
    try:
        yield session
    finally:
        session.stop()
