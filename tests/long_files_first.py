"""The suite's longest files handed out first (a pytest plugin).

``make test`` runs four pytest processes and gives each whole files (``--dist loadfile``).
pytest-xdist hands the files out by their number of tests, most first, unless told to keep
the collection's order (``--no-loadscope-reorder``, as ``make test`` does): the longest file,
the Spark classification (~300 s in four tests, most of it waiting on its JVM), came last and
ran alone for the last minutes of a fresh-clone run. Collected first, the long files run beside
the many short ones. The list is by wall time of a fresh-clone run (``KGDIFF_TEST_CPU``,
``scripts/suite_cpu.py``); a file missing from it only runs in its usual place, and a name here
that is no longer a test file fails ``tests/test_suite_cpu.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

LONG_FILES = (
    "test_spark_classify.py",
    "test_rest_sql_attacks.py",
    "test_safe_sql_heavy.py",
    "test_spark_ingest.py",
    "test_rest_builds.py",
    "test_chaos.py",
    "test_classify.py",
    "test_rdf_ingest.py",
    "test_staleness_pass.py",
    "test_lookup.py",
    "test_installed_wheel.py",
    "test_deep_time.py",
)
"""The test files of more than a minute on a fresh clone, longest first."""


def rank(item: pytest.Item) -> int:
    """Where an item's file comes: its place in :data:`LONG_FILES`, else after them all."""
    name = Path(str(item.path)).name
    return LONG_FILES.index(name) if name in LONG_FILES else len(LONG_FILES)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long files' items first (stable: each file's items keep their order)."""
    items.sort(key=rank)
