"""The query layer: ``kgdiff.open(store)`` answers with polars DataFrames, the same answers
the command line gives, with the defaults a user expects."""

from __future__ import annotations

import json
import os
import shutil
import threading
from datetime import date
from pathlib import Path

import polars as pl
import pytest

import kgdiff
from kgdiff.errors import StoreError, UsageError
from kgdiff.query.graph import KnowledgeGraph
from tests.paths import run_kgdiff

DATES = {"init": "2013-12-21", "cutoff": "2014-10-11", "current": "2014-12-31"}


@pytest.fixture(scope="module")
def kg(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> KnowledgeGraph:
    store = tmp_path_factory.mktemp("graph") / "store"
    shutil.copytree(demo_store, store)
    return kgdiff.open(store)


def test_open_takes_the_store_from_the_environment(demo_store: Path) -> None:
    previous = os.environ.get("KGDIFF_STORE")
    os.environ["KGDIFF_STORE"] = str(demo_store)
    try:
        assert kgdiff.open().layout.root == demo_store.resolve()
    finally:
        os.environ.pop("KGDIFF_STORE")
        if previous is not None:
            os.environ["KGDIFF_STORE"] = previous


def test_open_without_a_catalog_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no catalog"):
        kgdiff.open(tmp_path)


def test_snapshots_oldest_first(kg: KnowledgeGraph) -> None:
    frame = kg.snapshots()
    assert isinstance(frame, pl.DataFrame)
    assert frame.get_column("name").to_list() == ["wd-2013-12", "wd-2014-10", "wd-2014-12"]
    assert set(frame.get_column("coverage").to_list()) == {"subset"}


def test_classify_defaults_to_the_first_and_latest_snapshots(kg: KnowledgeGraph) -> None:
    by_default = kg.classify(DATES["cutoff"])
    explicit = kg.classify(DATES["cutoff"], DATES["init"], DATES["current"])
    assert by_default.equals(explicit) and by_default.height > 14_000
    assert {"subject_label", "pid_label", "latest_labels"} <= set(by_default.columns)
    keys = by_default.select("subject", "pid").rows()
    assert keys == sorted(keys)


def test_classify_equals_the_command_line_export(kg: KnowledgeGraph, tmp_path: Path) -> None:
    out = tmp_path / "groups.jsonl"
    dates = [f"--{k}={v}" for k, v in DATES.items()]
    result = run_kgdiff("classify", *dates, "--store", str(kg.layout.root), "--out", str(out))
    assert result.returncode == 0, result.stderr
    exported = [json.loads(line) for line in out.read_text().splitlines()]
    frame = kg.classify(DATES["cutoff"], DATES["init"], DATES["current"])
    assert frame.select("subject", "pid", "level", "latest").to_dicts() == [
        {k: r[k] for k in ("subject", "pid", "level", "latest")} for r in exported
    ]


def test_classify_filters_and_checks_its_arguments(kg: KnowledgeGraph) -> None:
    frame = kg.classify(DATES["cutoff"], level=["evolved"], pid="p6", subject="Q31")
    assert frame.select("subject", "pid", "level").rows() == [("Q31", "P6", "evolved")]
    with pytest.raises(UsageError, match="P99999 is in no snapshot"):
        kg.classify(DATES["cutoff"], pid="P99999")
    with pytest.raises(UsageError, match="'stale' is not one of"):
        kg.classify(DATES["cutoff"], level="stale")
    with pytest.raises(UsageError, match="after the latest snapshot"):
        kg.classify("2020-01-01", current="2021-01-01")


def test_facts_timeline_and_entity(kg: KnowledgeGraph) -> None:
    facts = kg.facts_at(date(2014, 6, 1), subject="q183")
    assert set(facts.get_column("subject").to_list()) == {"Q183"}
    assert set(facts.get_column("snapshot").to_list()) == {"wd-2013-12"}
    timeline = kg.timeline("Q183", pid="P6")
    assert timeline.get_column("pid").unique().to_list() == ["P6"]
    assert timeline.get_column("subject_label").unique().to_list() == ["Germany"]
    entity = kg.entity("Q183", "2014-06-01", lang="de").to_dicts()[0]
    assert (entity["label"], entity["snapshot"]) == ("Deutschland", "wd-2013-12")


def test_pools_chains_updates_and_their_notes(kg: KnowledgeGraph) -> None:
    pools = kg.answers.pools("Q183", "P6", 2000)
    assert pools.frame.get_column("subject").to_list() == ["Q183"]
    assert pools.notes[0].startswith("pools stop at 2014, the year of the latest snapshot")
    chains = kg.answers.chains("2014-12-31", subject="Q64")
    assert chains.frame.height == 0 and "Q64 is not in wd-2014-12" in chains.notes[0]
    assert kg.chains("2014-11-01", subject=["Q21"]).height > 0
    updates = kg.updates("2005-06-01")
    assert updates.height > 0 and "new_object_label" in updates.columns


def test_sql_and_arrow_without_a_copy(kg: KnowledgeGraph) -> None:
    frame = kg.sql("SELECT snapshot, count(*) AS n FROM statements GROUP BY 1 ORDER BY 1")
    assert frame.get_column("n").to_list() == [11340, 14647, 11712]
    answer = kg.answers.snapshots()
    assert answer.arrow().num_rows == 3


def test_a_replaced_catalog_is_reopened(kg: KnowledgeGraph) -> None:
    before = kg.snapshots().height
    result = run_kgdiff("snapshots", "catalog", "--store", str(kg.layout.root))
    assert result.returncode == 0, result.stderr
    assert kg.snapshots().height == before  # reads the new file, not a closed one


def test_questions_from_several_threads_at_once(kg: KnowledgeGraph) -> None:
    found: list[int] = []
    errors: list[BaseException] = []

    def ask() -> None:
        try:
            found.append(kg.timeline("Q183").height)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(set(found)) == 1 and found[0] > 50


def test_duckdb_is_held_to_its_memory_limit_unless_told_otherwise(kg: KnowledgeGraph) -> None:
    # issue 36: under DuckDB's default (80 % of the machine) kgdiff updates of 3 × 25 M
    # statements peaked at 4.2 GB; a work process of the service names its own limit
    with kg.connection() as connection:
        limit = connection.execute("SELECT current_setting('memory_limit')").fetchone()
    assert limit == ("2.7 GiB",)  # DuckDB says 3GB (3 × 10⁹ bytes) so
    told = KnowledgeGraph(kg.layout, settings={"memory_limit": "1GB"})
    with told.connection() as connection:
        limit = connection.execute("SELECT current_setting('memory_limit')").fetchone()
    told.close()
    assert limit == ("953.6 MiB",)
