"""No single unreadable snapshot or build breaks the catalog (issue 34, findings 1, 2, 8).

A rebuild leaves out each published folder a view cannot read, says which and why (one
``warning:`` line per folder on stderr, the catalog's view ``kgdiff_left_out``, ``/health``
``degraded``), and every command goes on with the rest: ``snapshots catalog``, ``classify``,
``ingest``. Unfinished builds of other processes are never read, and a build published
without its view gets it back when it is asked for again.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.built_once import private_copy
from tests.faultkit import array_dump, entity_lines, sample_dump
from tests.paths import run_kgdiff
from tests.rest_server import copy_store_without_builds, serving

DATES = ["--init", "2013-12-21", "--cutoff", "2014-10-11", "--current", "2014-12-31"]
OTHER_DATES = ["--init", "2013-12-21", "--cutoff", "2014-11-01", "--current", "2014-12-31"]
VIEW = "classified_20131221_20141011_20141231_record"
GOOD = ["wd-2013-12", "wd-2014-10", "wd-2014-12"]
TABLES = ("entities", "labels", "sitelinks", "statements", "qualifiers")


def copied(store: Path, into: Path) -> Path:
    """The store's snapshots without the builds other tests made in it."""
    return copy_store_without_builds(store, into)


def write_empty_snapshot(store: Path, name: str) -> None:
    """What ``kgdiff ingest wikidata`` of a dump of no entity (``[\\n]\\n``) published before
    issue 34: a manifest, empty table folders, a coverage table of no row."""
    folder = store / "snapshots" / f"snapshot={name}"
    manifest = json.loads(
        (store / "snapshots" / "snapshot=wd-2014-12" / "manifest.json").read_text()
    )
    counts = dict.fromkeys(TABLES, 0) | {"covered": 0}
    manifest |= {"name": name, "date": "2015-02-01", "counts": counts, "coverage": "subset"}
    manifest["source"] |= {"path": "/tmp/zero.json", "size": 4, "sha256": "0" * 64}
    for table in TABLES:
        (folder / table).mkdir(parents=True)
    (folder / "coverage").mkdir()
    empty = pa.table({"qid": pa.array([], pa.string())})
    pq.write_table(empty, folder / "coverage" / "part-00000.parquet")
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2))


def warnings(stderr: str) -> list[str]:
    lines = stderr.splitlines()
    assert all(line.startswith("warning: ") for line in lines), stderr
    return lines


def catalog_rows(store: Path, query: str) -> list[tuple[object, ...]]:
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as catalog:
        return catalog.execute(query).fetchall()


def shown_snapshots(store: Path) -> list[str]:
    return [str(row[0]) for row in catalog_rows(store, "SELECT name FROM snapshots ORDER BY 1")]


def views(store: Path) -> set[str]:
    rows = catalog_rows(store, "SELECT view_name FROM duckdb_views() WHERE NOT internal")
    return {str(row[0]) for row in rows}


@pytest.fixture
def store_with_empty(sample_store: Path, tmp_path: Path) -> Path:
    store = copied(sample_store, tmp_path)
    write_empty_snapshot(store, "bad")
    return store


@pytest.fixture(scope="module")
def small_dump(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dump of 20 real entities of the 2014-12 sample."""
    path = tmp_path_factory.mktemp("small-dump") / "small.json"
    path.write_bytes(array_dump(entity_lines(sample_dump(tmp_path_factory))[:20]))
    return path


@pytest.fixture(scope="module")
def classified(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples' snapshots and their classification at ``DATES``, made by the command once
    for the tests that start from a classified store (each changes a copy of its own)."""
    store = copied(sample_store, tmp_path_factory.mktemp("classified"))
    made = run_kgdiff("classify", *DATES, "--store", str(store))
    assert made.returncode == 0, made.stderr
    return store


def test_a_snapshot_of_an_empty_dump_is_left_out_with_one_warning(store_with_empty: Path) -> None:
    rebuilt = run_kgdiff("snapshots", "catalog", "--store", str(store_with_empty))
    assert rebuilt.returncode == 0, rebuilt.stderr
    (line,) = warnings(rebuilt.stderr)
    assert line.startswith("warning: snapshot 'bad' (snapshots/snapshot=bad) is left out")
    assert "entities/ holds no part files" in line and "'kgdiff snapshots rm bad'" in line
    assert shown_snapshots(store_with_empty) == GOOD
    left_out = catalog_rows(store_with_empty, "SELECT kind, name, path FROM kgdiff_left_out")
    assert left_out == [("snapshot", "bad", "snapshots/snapshot=bad")]


def test_classify_ingest_and_rm_go_on_beside_it(store_with_empty: Path, small_dump: Path) -> None:
    store = str(store_with_empty)
    made = run_kgdiff("classify", *OTHER_DATES, "--store", store)
    assert made.returncode == 0, made.stderr
    assert [line for line in warnings(made.stderr) if "'bad'" in line]
    ingested = run_kgdiff(
        "ingest", "wikidata", str(small_dump), "--snapshot", "small", "--date", "2015-03-01",
        "--coverage", "subset", "--store", store,
    )  # fmt: skip
    assert ingested.returncode == 0, ingested.stderr
    said = [line for line in ingested.stderr.splitlines() if line.startswith("warning: ")]
    assert len(said) == 1 and said[0].startswith("warning: snapshot 'bad' "), ingested.stderr
    assert shown_snapshots(store_with_empty) == sorted([*GOOD, "small"])
    listed = run_kgdiff("snapshots", "--store", store)
    assert listed.returncode == 0 and "snapshot 'bad'" in listed.stderr, listed.stderr
    removed = run_kgdiff("snapshots", "rm", "bad", "-y", "--store", store)
    assert removed.returncode == 0, removed.stderr
    assert removed.stderr == ""
    assert catalog_rows(store_with_empty, "SELECT * FROM kgdiff_left_out") == []


def test_health_is_degraded_and_names_what_is_left_out(store_with_empty: Path) -> None:
    run_kgdiff("snapshots", "catalog", "--store", str(store_with_empty))  # as its ingest did
    with serving(store_with_empty) as client:
        answer = client.get("/health")
        assert answer.status_code == 200
        health = answer.json()
        assert health["status"] == "degraded" and health["snapshots"] == 3
        (problem,) = health["problems"]
        assert "snapshot 'bad'" in problem and "no part files" in problem
        assert str(store_with_empty) not in problem  # no machine path
        listed = client.get("/v1/snapshots").json()["snapshots"]
        assert [s["name"] for s in listed] == GOOD


def _damaged_manifest(store: Path) -> str:
    folder = store / "snapshots" / "snapshot=cut"
    shutil.copytree(store / "snapshots" / "snapshot=wd-2014-12", folder)
    (folder / "manifest.json").write_bytes(b'{"name": "cut", "date": ')
    return "snapshot 'cut'"


def _truncated_first_part(store: Path) -> str:
    folder = store / "snapshots" / "snapshot=cut"
    shutil.copytree(store / "snapshots" / "snapshot=wd-2014-12", folder)
    manifest = json.loads((folder / "manifest.json").read_text()) | {"name": "cut"}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    part = folder / "statements" / "part-00000.parquet"
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    return "snapshot 'cut'"


def _build_params_damaged(store: Path) -> str:
    build = store / "builds" / "classify" / "0123456789abcdef"
    (build / "result").mkdir(parents=True)
    (build / "params.json").write_bytes(b'{"init": "2013-12-21", "cut')
    return "build '0123456789abcdef'"


def _build_without_results(store: Path) -> str:
    made = run_kgdiff("classify", *DATES, "--store", str(store))
    assert made.returncode == 0, made.stderr
    (build,) = (store / "builds" / "classify").iterdir()
    for part in (build / "result").iterdir():
        part.unlink()
    return f"build '{build.name}'"


def _pageviews_damaged(store: Path) -> str:
    source = store / "pageviews" / "source=hourly"
    source.mkdir(parents=True)
    (source / "manifest.json").write_text(json.dumps({"name": "hourly", "kind": "pageviews"}))
    (source / "pageviews.parquet").write_bytes(gzip.compress(b"not parquet"))
    return "page view source 'hourly'"


DAMAGES = {
    "damaged manifest": _damaged_manifest,
    "truncated first part file": _truncated_first_part,
    "damaged build params": _build_params_damaged,
    "build without result files": _build_without_results,
    "damaged page view table": _pageviews_damaged,
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_each_unreadable_folder_is_left_out_the_rest_is_shown(
    sample_store: Path, tmp_path: Path, damage: str
) -> None:
    store = copied(sample_store, tmp_path)
    shutil.rmtree(store / "builds", ignore_errors=True)
    named = DAMAGES[damage](store)
    rebuilt = run_kgdiff("snapshots", "catalog", "--store", str(store))
    assert rebuilt.returncode == 0, rebuilt.stderr
    (line,) = warnings(rebuilt.stderr)
    assert line.startswith(f"warning: {named} (") and "is left out of the catalog" in line, line
    assert shown_snapshots(store) == GOOD
    again = run_kgdiff("classify", *OTHER_DATES, "--store", str(store))
    assert again.returncode == 0, again.stderr


def test_damaged_evidence_is_left_out(demo_store: Path, tmp_path: Path) -> None:
    store = copied(demo_store, tmp_path)
    table = store / "builds" / "evidence" / "enwiki-2016-05" / "evidence.parquet"
    table.write_bytes(table.read_bytes()[:100])
    rebuilt = run_kgdiff("snapshots", "catalog", "--store", str(store))
    assert rebuilt.returncode == 0, rebuilt.stderr
    (line,) = warnings(rebuilt.stderr)
    assert line.startswith("warning: evidence 'enwiki-2016-05' (builds/evidence/enwiki-2016-05)")
    assert "evidence" not in views(store)
    remade = run_kgdiff("evidence", "build", "enwiki-2016-05", "--store", str(store))
    assert remade.returncode == 0 and "built evidence" in remade.stdout, remade.stderr
    assert "evidence" in views(store)


def test_unfinished_builds_of_other_processes_are_never_read(
    classified: Path, tmp_path: Path
) -> None:
    """Finding 2: a rebuild read ``.tmp-<key>-<pid>/params.json`` of a build being written
    (here truncated) and failed with msgspec's DecodeError."""
    store = private_copy(classified, tmp_path / "store")  # one build, for DATES
    unfinished = store / "builds" / "classify" / ".tmp-0123456789abcdef-4242"
    (unfinished / "result").mkdir(parents=True)
    (unfinished / "params.json").write_bytes(b'{"init": "2013-12-21", "cuto')
    rebuilt = run_kgdiff("snapshots", "catalog", "--store", str(store))
    assert (rebuilt.returncode, rebuilt.stderr) == (0, "")
    assert VIEW in views(store)
    other = run_kgdiff("classify", *OTHER_DATES, "--store", str(store))
    assert (other.returncode, other.stderr) == (0, ""), other.stderr


def test_a_build_published_without_its_view_gets_it_back(classified: Path, tmp_path: Path) -> None:
    """Finding 8: a classify killed between the build's rename and the catalog's rebuild
    leaves a build the catalog does not show; asking for it again restores the view."""
    store = private_copy(classified, tmp_path / "store")  # one build, for DATES
    (build,) = (p for p in (store / "builds" / "classify").iterdir() if not p.name.startswith("."))
    aside = tmp_path / "aside"
    build.rename(aside)  # the catalog as the killed run left it: made before the build
    assert run_kgdiff("snapshots", "catalog", "--store", str(store)).returncode == 0
    aside.rename(build)
    assert VIEW not in views(store)
    again = run_kgdiff("classify", *DATES, "--store", str(store))
    assert again.returncode == 0, again.stderr
    assert VIEW in views(store)
    assert catalog_rows(store, f"SELECT count(*) > 1000 FROM {VIEW}") == [(True,)]


def test_a_build_that_cannot_be_read_is_made_anew(classified: Path, tmp_path: Path) -> None:
    store = private_copy(classified, tmp_path / "store")  # one build, for DATES
    (build,) = (p for p in (store / "builds" / "classify").iterdir() if not p.name.startswith("."))
    for part in (build / "result").iterdir():
        part.write_bytes(b"")
    again = run_kgdiff("classify", *DATES, "--store", str(store))
    assert again.returncode == 0 and "built" in again.stdout, again.stderr
    assert catalog_rows(store, f"SELECT count(*) > 1000 FROM {VIEW}") == [(True,)]
    assert sorted(p.name for p in (store / "builds" / "classify").iterdir()) == [build.name]
