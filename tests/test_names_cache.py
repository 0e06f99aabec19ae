"""The names an export reads come from tables it builds once (kgdiff/export/words/names_cache.py):
built for the language asked and the store as it is, built again when either differs, and
gone when the export ends."""

from __future__ import annotations

from pathlib import Path

import kgdiff
from kgdiff.export.benchmark import export_benchmark
from kgdiff.export.core.benchmark_model import BenchmarkRequest
from kgdiff.export.words.names import Names
from kgdiff.export.words.names_cache import DATABASE, ensure_names_cache
from tests.benchmark_exports import CUTOFF

IDS = ["Q183", "Q30", "Q76"]


def _attached(connection: object) -> bool:
    query = "SELECT count(*) FROM duckdb_databases() WHERE database_name = ?"
    return bool(connection.execute(query, [DATABASE]).fetchone()[0])  # type: ignore[attr-defined]


def test_names_in_another_language_are_read_in_it(export_demo_store: Path) -> None:
    with kgdiff.open(export_demo_store).connection() as connection:
        english = Names.read(connection, IDS, "wd-2014-10", "en")
        german = Names.read(connection, IDS, "wd-2014-10", "de")
        again = Names.read(connection, IDS, "wd-2014-10", "en")
    assert english.label("Q183") == "Germany"
    assert german.label("Q183") == "Deutschland"
    assert [again.label(qid) for qid in IDS] == [english.label(qid) for qid in IDS]


def test_tables_built_for_another_store_are_built_again(export_demo_store: Path) -> None:
    """Tables whose fingerprint is not the store's (a snapshot added or removed since) are
    not read: what they hold is replaced."""
    with kgdiff.open(export_demo_store).connection() as connection:
        truth = Names.read(connection, IDS, "wd-2014-10", "en")
        connection.execute(f"UPDATE {DATABASE}.in_lang SET value = 'Atlantis' WHERE kind = 'label'")
        connection.execute(f"UPDATE {DATABASE}.cache_key SET tag = 'another store'")
        ensure_names_cache(connection, "en")
        found = Names.read(connection, IDS, "wd-2014-10", "en")
    assert [found.label(qid) for qid in IDS] == [truth.label(qid) for qid in IDS]
    assert "Atlantis" not in [truth.label(qid) for qid in IDS]


def test_the_export_leaves_no_names_tables(export_demo_store: Path, tmp_path: Path) -> None:
    """A long-lived process (the service, a notebook) does not keep them after an export."""
    kg = kgdiff.open(export_demo_store)
    with kg.connection() as connection:
        Names.read(connection, IDS, "wd-2014-10", "en")
        assert _attached(connection)
    request = BenchmarkRequest(cutoff=CUTOFF, configs=("qa",))
    done = export_benchmark(kg, request, tmp_path / "bench")
    assert sum(done.configs["qa"].values()) > 0
    with kg.connection() as connection:
        assert not _attached(connection)
