"""DuckDB optimizers kgdiff turns off on its connections, for correct answers.

DuckDB 2.0's ``partitioned_execution`` splits an aggregate into ranges of its group key read
from the files' statistics; over the catalog's views (hive-partitioned by snapshot) the
split scans lose the view's filter on the snapshot and read every snapshot's files. On the
scale ladder's 3 x 25 M store, ``SELECT subject, count(*) FROM statements WHERE snapshot =
'syn-2022-01-01' GROUP BY subject`` counted 78,527,568 statements (every snapshot's) instead of
24,999,920; ``count(*)`` alone was right. The setting is the database's (global), so every
connection that sets ``disabled_optimizers`` must name these too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import duckdb

WRONG_ANSWERS = ("partitioned_execution",)
"""Optimizers that gave wrong answers over the catalog's views (see the module)."""


def _names(text: str) -> list[str]:
    """The optimizer names of a comma-separated ``disabled_optimizers`` value."""
    return [name.strip() for name in text.split(",") if name.strip()]


def disabled_names(*more: str) -> str:
    """:data:`WRONG_ANSWERS` and ``more`` (optimizer names, or comma-separated lists of them)
    as the value of ``disabled_optimizers``, each once."""
    return ",".join(dict.fromkeys((*WRONG_ANSWERS, *(n for text in more for n in _names(text)))))


def disabled_setting(*more: str) -> str:
    """``SET disabled_optimizers`` to :data:`WRONG_ANSWERS` and ``more``."""
    return f"SET disabled_optimizers = '{disabled_names(*more)}'"


def disable_wrong_optimizers(connection: duckdb.DuckDBPyConnection) -> None:
    """Turn off :data:`WRONG_ANSWERS` on the connection's database, keeping any other
    optimizer a caller turned off already."""
    row = connection.execute("SELECT current_setting('disabled_optimizers')").fetchone()
    present = str(row[0] if row else "")
    if not set(WRONG_ANSWERS) <= set(_names(present)):
        connection.execute(disabled_setting(present))


def connect(
    config: Mapping[str, str | bool | int | float | list[str]] | None = None,
) -> duckdb.DuckDBPyConnection:
    """A new in-memory DuckDB database with ``config`` and :data:`WRONG_ANSWERS` off from its
    start (a file's database is opened once per process with its first configuration: turn
    them off on its connection instead, :func:`disable_wrong_optimizers`)."""
    wanted = dict(config or {})
    wanted["disabled_optimizers"] = disabled_names(str(wanted.get("disabled_optimizers", "")))
    return duckdb.connect(":memory:", config=wanted)


@contextmanager
def optimizers_off(connection: duckdb.DuckDBPyConnection, *names: str) -> Iterator[None]:
    """Turn ``names`` (and :data:`WRONG_ANSWERS`) off on the connection's database while the
    block runs, then set back what was off before. The setting is the database's: a question
    planned on another cursor of the same database meanwhile is planned without them too (the
    same answer, perhaps a slower plan), so this is for work that has its database to itself,
    such as a heavy work of the service (one at a time in its own process) or an export."""
    row = connection.execute("SELECT current_setting('disabled_optimizers')").fetchone()
    before = str(row[0] if row else "")
    connection.execute(disabled_setting(before, *names))
    try:
        yield
    finally:
        connection.execute(f"SET disabled_optimizers = '{before}'")
