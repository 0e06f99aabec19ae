"""Which ingests make subset snapshots, and what a subset snapshot lists (its coverage)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from tests.paths import DATA, SAMPLES, run_kgdiff

DUMP = SAMPLES / "testDump_json_2014-12.json.bz2"


def manifest(store: Path, name: str) -> dict[str, object]:
    path = store / "snapshots" / f"snapshot={name}" / "manifest.json"
    data: dict[str, object] = json.loads(path.read_text())
    return data


def covered(store: Path, name: str) -> list[str]:
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as catalog:
        rows = catalog.execute(
            "SELECT qid FROM coverage WHERE snapshot = ? ORDER BY qid", [name]
        ).fetchall()
    return [qid for (qid,) in rows]


def ingest(store: Path, path: Path, name: str, *options: str) -> None:
    result = run_kgdiff(
        "ingest", "wikidata", str(path), "--snapshot", name, "--date", "2014-12-31",
        "--store", str(store), "--quiet", *options,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_a_limited_ingest_is_a_subset_listing_its_entities(tmp_path: Path) -> None:
    store = tmp_path / "store"
    ingest(store, DUMP, "first50", "--limit", "50")
    assert manifest(store, "first50")["coverage"] == "subset"
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as catalog:
        held = [q for (q,) in catalog.execute("SELECT qid FROM entities ORDER BY qid").fetchall()]
    assert covered(store, "first50") == held and len(held) == 50


def test_a_dump_is_full_unless_told_otherwise(tmp_path: Path) -> None:
    store = tmp_path / "store"
    ingest(store, DUMP, "whole")
    ingest(store, DUMP, "sample", "--coverage", "subset")
    assert manifest(store, "whole")["coverage"] == "full"
    assert manifest(store, "sample")["coverage"] == "subset"
    assert covered(store, "whole") == [] and len(covered(store, "sample")) == 1704
    assert not (store / "snapshots" / "snapshot=whole" / "coverage").exists()


def test_an_entity_file_is_a_subset(tmp_path: Path) -> None:
    store = tmp_path / "store"
    ingest(store, DATA / "wd_Q42.json", "q42")
    assert manifest(store, "q42")["coverage"] == "subset" and covered(store, "q42") == ["Q42"]


@pytest.mark.parametrize(
    ("path", "options"),
    [(DUMP, ["--limit", "5"]), (DATA / "wd_Q42.json", [])],
    ids=["limit", "entity-file"],
)
def test_full_coverage_of_a_partial_input_is_refused(
    tmp_path: Path, path: Path, options: list[str]
) -> None:
    result = run_kgdiff(
        "ingest", "wikidata", str(path), "--snapshot", "s", "--date", "2014-12-31",
        "--store", str(tmp_path / "store"), "--coverage", "full", *options,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith("error: --coverage full cannot hold")
    assert not (tmp_path / "store" / "snapshots" / "snapshot=s").exists()


def test_the_same_file_with_another_coverage_is_refused(tmp_path: Path) -> None:
    store = tmp_path / "store"
    ingest(store, DUMP, "d")
    again = run_kgdiff(
        "ingest", "wikidata", str(DUMP), "--snapshot", "d", "--date", "2014-12-31",
        "--store", str(store), "--coverage", "subset",
    )  # fmt: skip
    assert again.returncode == 5
    assert "was built from this file as a full snapshot, not subset" in again.stderr
