"""The Spark session kgdiff's Spark commands run in (pyspark is imported only here, lazily)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgdiff.errors import UsageError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

DEFAULT_MASTER = "local[*]"
APP_NAME = "kgdiff"
KGDIFF_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder holding the ``kgdiff`` package: put on the executors' Python path, so a
local or local-cluster run needs nothing installed on its workers."""


def _require_pyspark() -> None:
    try:
        import pyspark  # noqa: F401
    except ImportError as exc:
        raise UsageError(
            "the Spark commands need pyspark and sqlglot: pip install 'kgdiff[spark]' (and Java 17)"
        ) from exc


def base_config(master: str | None) -> dict[str, str]:
    """Settings every kgdiff session gets (``master`` None: spark-submit's), before the
    user's ``spark-defaults.conf`` and ``--conf`` ones, which win."""
    config = {
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.sql.session.timeZone": "UTC",
    }
    if master is not None and master.startswith("local"):
        # Executors on this machine run this very interpreter and source tree; few cores,
        # so few shuffle partitions; no UI to serve.
        python_path = os.pathsep.join(p for p in (KGDIFF_ROOT, os.environ.get("PYTHONPATH")) if p)
        config["spark.pyspark.python"] = sys.executable
        config["spark.executorEnv.PYTHONPATH"] = python_path
        config["spark.sql.shuffle.partitions"] = "8"
        config["spark.ui.enabled"] = "false"
        config["spark.ui.showConsoleProgress"] = "false"
    return config


def _chosen_master(master: str | None) -> str | None:
    """``--master``, else ``$KGDIFF_SPARK_MASTER``, else ``local[*]``; None under
    spark-submit (its JVM is already up, with the master it was given)."""
    if master:
        return master
    if os.environ.get("KGDIFF_SPARK_MASTER"):
        return os.environ["KGDIFF_SPARK_MASTER"]
    if os.environ.get("PYSPARK_GATEWAY_PORT"):  # set by spark-submit for a Python app
        return None
    return DEFAULT_MASTER


def spark_session(master: str | None = None, extra: dict[str, Any] | None = None) -> SparkSession:
    """The active session, or a new one on ``master`` (default: see :func:`_chosen_master`).

    A session that already runs is reused as is: its master and settings win.
    """
    _require_pyspark()
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    chosen = _chosen_master(master)
    builder = SparkSession.builder.appName(APP_NAME)
    if chosen is not None:
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        builder = builder.master(chosen)
    for key, value in {**base_config(chosen), **(extra or {})}.items():
        builder = builder.config(key, str(value))
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session
