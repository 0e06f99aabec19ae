"""Pools read each subject's latest snapshot (docs/questions.md#pools): the store's latest,
unless that is a subset snapshot without the subject, which is then read from the latest
earlier snapshot that speaks for it (a subset snapshot that holds it, or a full snapshot,
which speaks for every entity). The CLI, the REST service, the Python API and the benchmark
export agree, and say which snapshot each subject's pools read."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import kgdiff
from kgdiff.export.benchmark import resolve_dates
from kgdiff.export.core.benchmark_model import BenchmarkRequest
from kgdiff.export.inputs.groups import classified_groups
from kgdiff.export.pools.groups import pool_years, read_pool_years
from kgdiff.export.relations.catalogue import load_catalogue
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.query.graph import KnowledgeGraph
from tests.benchmark_exports import CUTOFF, export, records
from tests.paths import DATA, SAMPLES, run_kgdiff
from tests.rest_server import serving
from tests.test_benchmark_pools import _years_from_kg_pools

FULL, ADAMS = "full-2015", "q42"
WINDOW: dict[str, Any] = {"configs": ("pools",), "pools_static": "all"}
"""The pools of the groups of a classification of 2013-12-21, 2014-10-11 and 2018-07-27 (record
time: the samples' subjects and Douglas Adams)."""


@pytest.fixture(scope="module")
def store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three samples (subset snapshots of different items), the sample of 2014-12 again
    as a full snapshot of 2015-01-01, and Douglas Adams's item of 2018 (a subset snapshot
    holding only him): the latest snapshot holds one subject."""
    target = tmp_path_factory.mktemp("pool-snapshots") / "store"
    shutil.copytree(sample_store, target, ignore=shutil.ignore_patterns("classify"))
    dump = SAMPLES / "testDump_json_2014-12.json.bz2"
    for path, name, day, coverage in (
        (dump, FULL, "2015-01-01", "full"),
        (DATA / "wd_Q42.json", ADAMS, "2018-07-27", "subset"),
    ):
        request = IngestRequest(path=path, snapshot=name, date=day, store=target)
        ingest_wikidata(IngestRequest(**{**request.__dict__, "coverage": coverage}))
    return target


@pytest.fixture(scope="module")
def kg(store: Path) -> Iterator[KnowledgeGraph]:
    graph = kgdiff.open(store)
    yield graph
    graph.close()


@pytest.fixture(scope="module")
def expected(store: Path) -> dict[str, str]:
    """Per subject of a statement, the snapshot its pools should read, by plain SQL: the
    latest that is full or whose coverage table lists it."""
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        rows = connection.execute(
            "SELECT q.qid, arg_max(s.name, s.date)"
            " FROM (SELECT DISTINCT subject AS qid FROM statements) AS q"
            " JOIN snapshots AS s ON s.coverage = 'full' OR EXISTS ("
            "   SELECT 1 FROM coverage AS c WHERE c.snapshot = s.name AND c.qid = q.qid)"
            " GROUP BY q.qid"
        ).fetchall()
    return dict(rows)


def test_each_subject_reads_the_latest_snapshot_that_speaks_for_it(
    kg: KnowledgeGraph, expected: dict[str, str]
) -> None:
    found = kg.pools(pid="P27", from_year=2010, to_year=2018)
    reads = dict(found.select("subject", "snapshot").iter_rows())
    assert reads["Q42"] == ADAMS and len(reads) > 50
    assert {subject: expected[subject] for subject in reads} == reads
    assert set(reads.values()) == {ADAMS, FULL}  # the samples before the full one: never
    # the last period's gap is counted from its subject's own snapshot
    gaps = {
        (row["snapshot"], row["periods"][-1]["gap_days"]) for row in found.iter_rows(named=True)
    }
    assert gaps == {(ADAMS, 157), (FULL, 1460)}  # 2018-12-31 less 2018-07-27, 2015-01-01


def test_a_subject_a_full_snapshot_lacks_is_not_looked_for_further_back(
    kg: KnowledgeGraph,
) -> None:
    """Berlin (Q64) is in wd-2013-12 and wd-2014-10 only: the full snapshot of 2015 says it
    no longer existed, so its pools are empty, and the note names the snapshot read."""
    answer = kg.answers.pools("Q64", "P6")
    assert answer.frame.is_empty()
    assert (
        "no pools: Q64 is not in full-2015, the snapshot read; it is in wd-2013-12, wd-2014-10"
        in answer.notes
    )


def test_the_cli_the_rest_service_and_the_python_api_agree(
    store: Path, kg: KnowledgeGraph, tmp_path: Path
) -> None:
    answer = kg.answers.pools(["Q42", "Q207"], "P27")
    note = (
        "the pools of 1 subject (Q207) read full-2015 (2015-01-01), the latest snapshot that"
        " holds it: the latest, q42, is a subset snapshot without it; its periods after"
        " 2015-01-01 hold what full-2015 knows (the column snapshot names each group's)"
    )
    assert note in answer.notes
    shown = run_kgdiff("pools", "Q42", "Q207", "--pid", "P27", "--store", str(store))
    assert shown.returncode == 0, shown.stderr
    assert note in " ".join(shown.stdout.split())
    out = tmp_path / "pools.parquet"
    written = run_kgdiff(
        "pools", "Q42", "Q207", "--pid", "P27", "--out", str(out), "--store", str(store)
    )
    assert written.returncode == 0, written.stderr
    columns = answer.frame.columns
    assert_frame_equal(pl.read_parquet(out).select(columns), answer.frame)
    with serving(store) as client:
        served = client.get("/v1/pools", params={"subject": "Q207", "pid": "P27"}).json()
    one = kg.answers.pools("Q207", "P27")
    assert [item["snapshot"] for item in served["items"]] == [FULL]
    assert served["notes"] == one.notes and note in one.notes
    assert served["items"] == json.loads(one.frame.write_json())


def test_the_export_reads_each_subject_where_kg_pools_does(
    store: Path, kg: KnowledgeGraph, expected: dict[str, str], tmp_path: Path
) -> None:
    """Before, the export read only the latest snapshot, which holds Douglas Adams alone
    (dead since 2001: no record)."""
    exported = export(store, tmp_path / "bench", **WINDOW)
    built = [r for split in ("dynamic", "static") for r in records(exported.out, split, "pools")]
    assert len({record["subject"] for record in built}) > 10
    assert all(record["snapshot"] == expected[record["subject"]] for record in built)
    assert max(record["year"] for record in built) == 2015  # full-2015's year, no later
    build = json.loads((exported.out / "kgdiff_build.json").read_text(encoding="utf-8"))
    assert set(build["configs"]["pools"]["groups_by_snapshot"]) == {ADAMS, FULL}
    request = BenchmarkRequest(cutoff=CUTOFF, **WINDOW)
    dates = resolve_dates(kg, request)
    with classified_groups(kg, request, dates, load_catalogue(None)) as classified:
        groups = classified.rows().collect()
    span = pool_years(dates, kg.answers.span()[1])
    read = read_pool_years(kg, groups, span, request)
    wanted = groups.select("subject", "pid").unique()
    assert_frame_equal(read, _years_from_kg_pools(kg, wanted, span.first, span.last))
    after = read.filter(pl.col("reason") == "after_the_data")
    assert after.height and set(after.get_column("year")) == {2016, 2017, 2018}
