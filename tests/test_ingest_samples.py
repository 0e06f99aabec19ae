"""Ingest the three real sample snapshots and check them against independent counts."""

from __future__ import annotations

import bz2
import hashlib
import html
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest

from kgdiff.demo import load_samples
from kgdiff.ingest.pipeline import IngestRequest, IngestResult, ingest_wikidata
from kgdiff.store.layout import table_files
from tests.demo_run import DemoRun
from tests.paths import SAMPLES

TEXT = re.compile(rb"<text[^>]*>(.*?)</text>", re.S)
EPOCH = date(1970, 1, 1)


def independent_xml_counts(path: Path) -> tuple[int, int]:
    """Entities and statements of an XML dump, by regex + json (no kgdiff code)."""
    entities = statements = 0
    for match in TEXT.finditer(bz2.decompress(path.read_bytes())):
        doc = json.loads(html.unescape(match.group(1).decode()))
        entities += 1
        claims = doc.get("claims") or []
        statements += len(claims) if isinstance(claims, list) else sum(map(len, claims.values()))
    return entities, statements


def independent_json_counts(path: Path) -> tuple[int, int]:
    """Entities and statements of a JSON dump, read line by line with ``json``.

    (qwikidata cannot read this real 2014 dump: its dump reader stops at the blank line
    before the closing ``]`` and its claim parser requires a qualifier ``datatype``, which
    2014 dumps do not write.)
    """
    entities = statements = 0
    with bz2.open(path) as lines:
        texts = [line.strip().rstrip(b",") for line in lines]
    for text in texts:
        if text in (b"", b"[", b"]"):
            continue
        doc = json.loads(text)
        entities += 1
        statements += sum(len(group) for group in (doc.get("claims") or {}).values())
    return entities, statements


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("store")


@pytest.fixture(scope="module")
def ingested(store: Path) -> dict[str, IngestResult]:
    results = {}
    for sample in load_samples():
        request = IngestRequest(
            path=SAMPLES / sample.file,
            snapshot=sample.name,
            date=sample.date,
            store=store,
            chunk_bytes=1 << 20,
        )
        results[sample.name] = ingest_wikidata(request)
    return results


@pytest.fixture
def catalog(ingested: dict[str, IngestResult], store: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    # Per test: a read-only connection still locks the file against the duckdb CLI.
    connection = duckdb.connect(str(store / "kg.duckdb"), read_only=True)
    yield connection
    connection.close()


@pytest.mark.parametrize("name", ["wd-2013-12", "wd-2014-10", "wd-2014-12"])
def test_counts_match_independent_reading(
    name: str, ingested: dict[str, IngestResult], catalog: duckdb.DuckDBPyConnection
) -> None:
    sample = next(s for s in load_samples() if s.name == name)
    path = SAMPLES / sample.file
    expected = (
        independent_json_counts(path)
        if path.name.endswith("json.bz2")
        else (independent_xml_counts(path))
    )
    manifest = ingested[name].manifest
    assert (manifest.counts["entities"], manifest.counts["statements"]) == expected
    assert manifest.source.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert manifest.rejects == 0
    rows = catalog.execute(
        "SELECT (SELECT count(*) FROM entities WHERE snapshot = $n),"
        " (SELECT count(*) FROM statements WHERE snapshot = $n)",
        {"n": name},
    ).fetchone()
    assert rows == expected


def statement(catalog: duckdb.DuckDBPyConnection, sid: str, snapshot: str) -> dict[str, Any]:
    cursor = catalog.execute(
        "SELECT * FROM statements WHERE statement_id = $sid AND snapshot = $snap",
        {"sid": sid, "snap": snapshot},
    )
    names = [d[0] for d in cursor.description]
    rows = cursor.fetchall()
    assert len(rows) == 1
    return dict(zip(names, rows[0], strict=True))


def test_julian_start_end_round_trip(catalog: duckdb.DuckDBPyConnection) -> None:
    """Q656 (Saint Petersburg) P1448 'Санкт-Петербург': start 1703-05-16 and end 1914-08-30,
    both day precision in the Julian calendar (Gregorian 1703-05-27 and 1914-09-12)."""
    row = statement(catalog, "Q656$c30b2e84-46de-bbec-2d42-3fc5f137f5a5", "wd-2014-12")
    assert (row["subject"], row["pid"], row["value"]) == ("Q656", "P1448", "ru:Санкт-Петербург")
    assert row["start_lo"] == row["start_hi"] == date(1703, 5, 27)
    assert row["end_lo"] == row["end_hi"] == date(1914, 9, 12)
    quals = catalog.execute(
        "SELECT qualifier_pid, value, time_precision, time_lo FROM qualifiers"
        " WHERE statement_id = $sid AND snapshot = 'wd-2014-12' ORDER BY ordinal",
        {"sid": row["statement_id"]},
    ).fetchall()
    assert quals == [
        ("P580", "+1703-05-16T00:00:00Z|11|Q1985786", 11, date(1703, 5, 27)),
        ("P582", "+1914-08-30T00:00:00Z|11|Q1985786", 11, date(1914, 9, 12)),
    ]


def test_year_precision_interval_and_qualifier_order(catalog: duckdb.DuckDBPyConnection) -> None:
    """Q207 P69: start 1964 and end 1968 at year precision; qualifiers P580, P582, P512."""
    row = statement(catalog, "Q207$28140238-D4E4-47FC-86FD-4723A94878BB", "wd-2014-12")
    assert (row["start_lo"], row["start_hi"]) == (date(1964, 1, 1), date(1964, 12, 31))
    assert (row["end_lo"], row["end_hi"]) == (date(1968, 1, 1), date(1968, 12, 31))
    assert row["object_qid"] == "Q2599077" and row["n_qualifiers"] == 3
    order = catalog.execute(
        "SELECT list(qualifier_pid ORDER BY ordinal) FROM qualifiers"
        " WHERE statement_id = $sid AND snapshot = 'wd-2014-12'",
        {"sid": row["statement_id"]},
    ).fetchone()
    assert order == (["P580", "P582", "P512"],)


def test_novalue_end_is_not_unknown(catalog: duckdb.DuckDBPyConnection) -> None:
    """Q62 P6: a P582 'no value' is kept as its own snak type, not as an unknown end."""
    row = statement(catalog, "q62$540a6c88-4aef-3551-b7c9-f10a70851d87", "wd-2014-12")
    assert row["end_snaktype"] == "novalue" and row["end_lo"] is None
    assert row["start_lo"] == date(2011, 1, 11)


def test_legacy_and_current_values_share_keys(catalog: duckdb.DuckDBPyConnection) -> None:
    """Q183 P463 (member of) Q2595976, 1990-07-01 … 1990-10-02: the same statement read
    from the legacy 2013 XML, the mixed 2014-10 XML and the 2014-12 JSON is identical."""
    rows = catalog.execute(
        "SELECT snapshot, value, object_qid, start_lo, start_hi, end_lo, end_hi FROM statements"
        " WHERE statement_id = 'Q183$f1af0cc1-48dc-ca68-06fa-0b4a363a1409' ORDER BY snapshot"
    ).fetchall()
    assert [r[0] for r in rows] == ["wd-2013-12", "wd-2014-10", "wd-2014-12"]
    expected = ("Q2595976", "Q2595976", date(1990, 7, 1), date(1990, 7, 1))
    assert {r[1:5] for r in rows} == {expected}
    assert {r[5:] for r in rows} == {(date(1990, 10, 2), date(1990, 10, 2))}


def test_entities_labels_and_sitelinks(catalog: duckdb.DuckDBPyConnection) -> None:
    entity = catalog.execute(
        "SELECT label_en, p31, n_sitelinks FROM entities"
        " WHERE qid = 'Q656' AND snapshot = 'wd-2014-12'"
    ).fetchone()
    assert entity is not None and entity[0] == "Saint Petersburg" and entity[2] > 100
    labels = catalog.execute(
        "SELECT count(*) FILTER (kind = 'label'), count(DISTINCT lang) FROM labels"
        " WHERE qid = 'Q656' AND snapshot = 'wd-2014-12'"
    ).fetchone()
    with bz2.open(SAMPLES / "testDump_json_2014-12.json.bz2") as lines:
        line = next(line for line in lines if line.startswith(b'{"id":"Q656",'))
    raw = json.loads(line.rstrip(b",\n"))
    assert labels is not None and labels[0] == len(raw["labels"])
    enwiki = catalog.execute(
        "SELECT title FROM sitelinks"
        " WHERE qid = 'Q656' AND site = 'enwiki' AND snapshot = 'wd-2014-12'"
    ).fetchone()
    assert enwiki == (raw["sitelinks"]["enwiki"]["title"],)


def test_reingest_is_a_noop(ingested: dict[str, IngestResult], store: Path) -> None:
    sample = load_samples()[0]
    before = {p.name: p.stat().st_mtime_ns for p in ingested[sample.name].directory.iterdir()}
    again = ingest_wikidata(
        IngestRequest(
            path=SAMPLES / sample.file, snapshot=sample.name, date=sample.date, store=store
        )
    )
    assert again.status == "unchanged"
    after = {p.name: p.stat().st_mtime_ns for p in again.directory.iterdir()}
    assert after == before


def test_duckdb_cli_opens_catalog_from_any_directory(
    ingested: dict[str, IngestResult], store: Path, tmp_path: Path
) -> None:
    cli = Path(sys.executable).parent / "duckdb"
    env = {"PATH": os.defpath, "HOME": str(tmp_path)}
    result = subprocess.run(
        [
            str(cli),
            "-csv",
            str(store / "kg.duckdb"),
            "-c",
            "select snapshot, count(*) from statements group by 1 order by 1",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    counts = {r.manifest.name: r.manifest.counts["statements"] for r in ingested.values()}
    expected = "".join(f"{name},{n}\n" for name, n in sorted(counts.items()))
    assert result.stdout.split("\n", 1)[1] == expected


def test_one_and_two_workers_give_identical_tables(tmp_path: Path, store: Path) -> None:
    path = SAMPLES / "testDump_json_2014-12.json.bz2"
    one = ingest_wikidata(
        IngestRequest(
            path=path,
            snapshot="one",
            date="2014-12-31",
            store=tmp_path,
            workers=1,
            chunk_bytes=3 << 20,
        )
    )
    reference = store / "snapshots" / "snapshot=wd-2014-12"
    con = duckdb.connect()
    for table in ("entities", "labels", "sitelinks", "statements", "qualifiers"):
        a = [str(path) for path in table_files(one.directory, table)]
        b = [str(path) for path in table_files(reference, table)]
        left = f"read_parquet({a}, hive_partitioning = false)"
        right = f"read_parquet({b}, hive_partitioning = false)"
        diff = con.execute(
            f"SELECT count(*) FROM ((FROM {left} EXCEPT ALL FROM {right})"
            f" UNION ALL (FROM {right} EXCEPT ALL FROM {left}))"
        ).fetchone()
        assert diff == (0,), table


def test_limit_takes_the_first_entities(tmp_path: Path) -> None:
    result = ingest_wikidata(
        IngestRequest(
            path=SAMPLES / "testDump_json_2014-12.json.bz2",
            snapshot="few",
            date="2014-12-31",
            store=tmp_path,
            limit=25,
        )
    )
    assert result.manifest.counts["entities"] == 25
    # the whole file is hashed even though the read stopped early
    digest = hashlib.sha256((SAMPLES / "testDump_json_2014-12.json.bz2").read_bytes()).hexdigest()
    assert result.manifest.source.sha256 == digest
    lines = duckdb.execute(
        f"SELECT min(source_line), max(source_line) FROM '{result.directory}/entities/*.parquet'"
    ).fetchall()
    assert lines == [(2, 26)]


def test_demo_command_runs(demo_run: DemoRun) -> None:
    """The demo ingests the three samples (into an empty folder), shows their counts and
    examples of every level."""
    out = demo_run.stdout
    for name, statements in (
        ("wd-2013-12", "11,340"),
        ("wd-2014-10", "14,647"),
        ("wd-2014-12", "11,712"),
    ):
        assert re.search(rf"{name}\s.*{statements}", out), name
    for level in ("stable", "evolved", "uncharted", "recent", "retracted", "ambiguous"):
        assert re.search(rf"^.\s*{level}\s", out, re.M), level
    assert (demo_run.store / "kg.duckdb").is_file()
    written = Path(demo_run.given) / "exports" / "benchmark-2014-10-11"
    assert f"written to {written}" in out and "one record of qa/evolved" in out
    assert "(correct)  ← gold" in out and "(outdated)" in out
    benchmark = demo_run.store / "exports" / "benchmark-2014-10-11"
    assert (benchmark / "tasks" / "lm_eval" / "kgdiff.yaml").is_file()
