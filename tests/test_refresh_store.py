"""Snapshots stored as deltas in the store: chains, compaction, removal, the store check; and
classify, the REST service and the exports answer identically on a delta and on its
compacted copy."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from pathlib import Path

import pytest
from duckdb import DuckDBPyConnection

from bench.refresh_gen.xml_dump import LogEvent, Revision, write_log, write_revisions
from kgdiff.errors import StoreError
from kgdiff.refresh.pipeline import refresh_snapshot
from kgdiff.refresh.request import RefreshRequest
from kgdiff.store.compact import compact_snapshot
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import read_manifest
from kgdiff.store.snapshots import list_snapshots, remove_snapshot
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.parts import classifying
from tests.paths import DATA, run_kgdiff
from tests.refresh_samples import delta_of, refresh_of, snapshot_rows, xml_texts
from tests.rest_server import serving
from tests.test_rest_jobs import poll

DAILY = DATA / "sample-daily-dump-20140220.xml"
DAYS = ("2013-12-21", "2014-01-15", "2014-03-01")
"""init, cutoff and current of the classifications compared: current reads the chain's top."""


def _march(folder: Path) -> tuple[Path, Path]:
    """A change file of 1 March 2014 (Q1 relabelled, Q2 merged into Q1) and a logging dump
    that deletes Q3."""
    q1 = json.loads(xml_texts(DAILY, "2014-02-20")["Q1"])  # the legacy serialisation
    q1["label"]["en"] = "universe (relabelled)"
    changes = folder / "wikidatawiki-20140301-pages-meta-hist-incr.xml.gz"
    write_revisions(
        changes,
        [
            Revision("Q1", 2, "2014-03-01T10:00:00Z", json.dumps(q1).encode()),
            Revision("Q2", 3, "2014-03-01T10:00:01Z", b'{"entity":"Q2","redirect":"Q1"}'),
        ],
    )
    log = folder / "wikidatawiki-20140301-pages-logging.xml"
    write_log(log, [LogEvent("Q3", "2014-03-01T11:00:00Z", "delete", 1)])
    return changes, log


@pytest.fixture(scope="module")
def chain_store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples, then ``daily`` (a delta of wd-2013-12: the real daily dump) and ``march``
    (a delta of ``daily``: Q1 relabelled, Q2 merged into Q1, Q3 deleted)."""
    folder = tmp_path_factory.mktemp("chain")
    store = folder / "store"
    shutil.copytree(sample_store, store, ignore=shutil.ignore_patterns("builds"))
    refresh_snapshot(RefreshRequest((DAILY,), "wd-2013-12", "daily", "2014-02-20", store=store))
    changes, log = _march(folder)
    march = RefreshRequest((changes,), "daily", "march", "2014-03-01", log, store=store)
    result = refresh_snapshot(march)
    assert refresh_of(result.manifest).changes == {
        "changed": 1,
        "added": 0,
        "redirected": 1,
        "deleted": 1,
        "deletions_of_unknown_ids": 0,
        "revisions_kept": 2,
    }
    return store


@pytest.fixture
def store(chain_store: Path, tmp_path: Path) -> Path:
    """A copy of ``chain_store`` this test may change."""
    target = tmp_path / "store"
    shutil.copytree(chain_store, target)
    return target


def test_a_chain_of_deltas_reads_whole_and_stores_only_its_changes(chain_store: Path) -> None:
    rows = snapshot_rows(chain_store, "march")
    base = snapshot_rows(chain_store, "wd-2013-12")
    entities = {row[0]: row for row in rows["entities"]}
    assert entities["Q2"][-1] == "Q1"  # a redirect: the merge
    assert "Q3" not in entities and "Q3" in {row[0] for row in base["entities"]}
    assert entities["Q1"][3] == "universe (relabelled)"  # label_en
    assert len(rows["entities"]) == len(base["entities"]) - 1
    untouched = {row for row in base["statements"] if row[1] not in ("Q1", "Q2", "Q3")}
    assert untouched <= set(rows["statements"])
    manifest = read_manifest(chain_store / "snapshots" / "snapshot=march" / "manifest.json")
    assert delta_of(manifest).base == "daily" and delta_of(manifest).stored["entities"] == 2
    assert manifest.counts["entities"] == len(rows["entities"])
    assert manifest.counts["statements"] == len(rows["statements"])
    with open_catalog(StoreLayout.resolve(chain_store)) as connection:
        bases = dict(connection.execute("SELECT name, base FROM snapshots").fetchall())
    assert bases["march"] == "daily" and bases["daily"] == "wd-2013-12"
    assert bases["wd-2013-12"] is None


def _classified(
    store: Path, opener: Callable[[StoreLayout], ContextManager[DuckDBPyConnection]] = open_catalog
) -> list[tuple[object, ...]]:
    with opener(StoreLayout.resolve(store)) as connection:
        rows = connection.execute(
            "SELECT * FROM classify($i, $c, $n)", {"i": DAYS[0], "c": DAYS[1], "n": DAYS[2]}
        ).fetchall()
    return sorted(rows, key=repr)


def test_a_classification_in_parts_reads_the_merges_kept_once(chain_store: Path) -> None:
    # every part follows the merges; the catalog's view of their rows reads every snapshot's
    # entity rows twice, so the parts' connection keeps them as a table shadowing it
    layout = StoreLayout.resolve(chain_store)
    with open_catalog(layout) as catalog:
        viewed = sorted(catalog.execute("SELECT * FROM entity_redirects").fetchall())
    with classifying(layout) as connection:
        tables = "SELECT table_name FROM duckdb_tables() WHERE database_name = 'temp'"
        assert connection.execute(tables).fetchall() == [("entity_redirects",)]
        kept = sorted(connection.execute("SELECT * FROM entity_redirects").fetchall())
    assert kept == viewed and ("march", "Q2", "Q1") in kept  # Q2 merged into Q1
    assert _classified(chain_store, classifying) == _classified(chain_store)


def _service(store: Path) -> dict[str, object]:
    asked = {
        "facts": f"/v1/facts?init={DAYS[0]}&cutoff={DAYS[1]}&current={DAYS[2]}&limit=1000",
        "q1": f"/v1/entities/Q1/facts?date={DAYS[2]}",
        "q2": "/v1/entities/Q2/timeline",
        "entity": f"/v1/entities/Q1?date={DAYS[2]}",
        "snapshots": "/v1/snapshots",
    }
    query = (
        "SELECT snapshot, count(*) AS n, count(DISTINCT subject) AS subjects FROM statements"
        " WHERE snapshot IN ('daily', 'march') GROUP BY ALL ORDER BY ALL"
    )
    with serving(store, "--enable-sql") as client:
        answers = {}
        for name, path in asked.items():
            response = client.get(path, timeout=120)
            if response.status_code == 202:  # a build slower than the wait (a busy machine)
                assert poll(client, response.headers["location"])["status"] == "done"
                response = client.get(path, timeout=120)
            assert response.status_code == 200, response.text
            answers[name] = response.json()
        response = client.post("/v1/sql", json={"query": query}, timeout=120)
        assert response.status_code == 200, response.text
        answers["sql"] = response.json()["rows"]
    return answers


def _exports(store: Path, out: Path) -> dict[str, bytes]:
    out.mkdir()
    rdf = run_kgdiff("export", "rdf", "--snapshot", "march", "--out", str(out / "march.nt"),
                     "--store", str(store))  # fmt: skip
    assert rdf.returncode == 0, rdf.stderr
    bench = run_kgdiff("export", "benchmark", "--init", DAYS[0], "--cutoff", DAYS[1],
                       "--current", DAYS[2], "--configs", "qa", "--limit", "30", "--out",
                       str(out / "benchmark"), "--store", str(store))  # fmt: skip
    assert bench.returncode == 0, bench.stderr
    files = {"march.nt": (out / "march.nt").read_bytes()}
    for path in sorted((out / "benchmark").rglob("*.jsonl")):
        files[path.relative_to(out).as_posix()] = path.read_bytes()
    return files


def test_classify_the_service_and_the_exports_answer_the_same_once_compacted(
    store: Path, tmp_path: Path
) -> None:
    classified, answers = _classified(store), _service(store)
    exported = _exports(store, tmp_path / "delta")
    assert classified and exported["march.nt"]
    compact_snapshot(StoreLayout.resolve(store), "march")
    assert read_manifest(store / "snapshots" / "snapshot=march" / "manifest.json").delta is None
    shutil.rmtree(store / "builds")  # nothing made from the delta is reused
    assert _classified(store) == classified
    assert _service(store) == answers
    assert _exports(store, tmp_path / "compacted") == exported


def test_a_base_that_deltas_need_is_kept_and_a_compacted_base_still_serves(
    store: Path,
) -> None:
    layout = StoreLayout.resolve(store)
    refused = run_kgdiff("snapshots", "rm", "daily", "-y", "--store", str(store))
    assert refused.returncode == 5
    assert "snapshot 'daily' is the base of 'march'" in refused.stderr
    with pytest.raises(StoreError, match="is the base of 'daily'"):
        remove_snapshot(layout, "wd-2013-12")
    before = snapshot_rows(store, "march")
    compact_snapshot(layout, "daily")  # the middle link: march pins the manifest it replaced
    manifest = read_manifest(store / "snapshots" / "snapshot=daily" / "manifest.json")
    assert manifest.delta is None and len(manifest.compacted_from) == 1
    assert snapshot_rows(store, "march") == before
    remove_snapshot(layout, "wd-2013-12")  # daily no longer needs it
    assert snapshot_rows(store, "march") == before
    check = run_kgdiff("store", "check", "--store", str(store))
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_base_that_changed_leaves_its_deltas_out_and_the_check_says_why(store: Path) -> None:
    manifest = store / "snapshots" / "snapshot=daily" / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"rejects": 0', '"rejects": 0 '))
    rebuilt = run_kgdiff("snapshots", "catalog", "--store", str(store))
    assert (
        "snapshot 'march' (snapshots/snapshot=march) is left out of the catalog" in rebuilt.stderr
    )
    assert "stored as a delta of 'daily', which has changed since" in rebuilt.stderr
    shown = {m.name for m in list_snapshots(StoreLayout.resolve(store))}
    assert "march" not in shown and "daily" in shown
    check = run_kgdiff("store", "check", "--store", str(store))
    assert check.returncode == 5
    assert (
        "damage: snapshots/snapshot=march: it is stored as a delta of 'daily', whose manifest"
        " is not the one it was made on" in check.stdout
    )
    shutil.rmtree(store / "snapshots" / "snapshot=daily")
    check = run_kgdiff("store", "check", "--store", str(store))
    assert "stored as a delta of 'daily', which is not in the store" in check.stdout
