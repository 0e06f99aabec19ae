"""One Spark session per test module, on a real two-executor cluster."""

from __future__ import annotations

from collections.abc import Iterator

CLUSTER = "local-cluster[2,1,1024]"
"""Two executor JVMs of one core and 1 GiB each: tasks really run in other processes."""


def cluster_session() -> Iterator[object]:
    """Start a session on :data:`CLUSTER`, yield it, stop it (for a module-scoped fixture)."""
    from kgdiff.spark.session import spark_session

    # Two shuffle partitions, one per executor core: the test data is small, and each task
    # costs a round trip to an executor.
    settings = {"spark.driver.memory": "1g", "spark.sql.shuffle.partitions": "2"}
    session = spark_session(CLUSTER, settings)
    try:
        yield session
    finally:
        session.stop()
