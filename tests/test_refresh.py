"""`kgdiff refresh` on the real samples: a refresh that brings one snapshot to another's state
gives every table, row for row, as an ingest of that state does; the real daily dump on a
base holding its entity likewise; daily dumps in any order and compression; rejects, failures,
re-runs and resumes."""

from __future__ import annotations

import bz2
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest
from lxml import etree

from bench.refresh_gen.xml_dump import Revision, write_revisions
from kgdiff.errors import InputError, StoreError, TooManyRejectsError
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.ingest.progress import NullProgress
from kgdiff.refresh.pipeline import refresh_snapshot
from kgdiff.refresh.request import RefreshRequest, RefreshResult
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots
from kgdiff.store.store_root import open_catalog
from tests.paths import DATA, SAMPLES, run_kgdiff
from tests.refresh_samples import (
    changed_between,
    delta_of,
    folder_subjects,
    json_texts,
    refresh_of,
    rows_per_table,
    snapshot_rows,
    write_changes,
    xml_texts,
)

DAILY = DATA / "sample-daily-dump-20140220.xml"
"""A real daily incremental dump of Wikidata: five revisions of Q1 of 19 and 20 February 2014."""


@pytest.fixture
def store(sample_store: Path, tmp_path: Path) -> Path:
    """A copy of the three real sample snapshots this test may refresh."""
    target = tmp_path / "store"
    shutil.copytree(sample_store, target, ignore=shutil.ignore_patterns("builds"))
    return target


@pytest.fixture(scope="module")
def base_texts() -> dict[str, bytes]:
    """Every entity page's text of wd-2013-12's dump, as of its day (read once: two tests
    change a copy of it, each read the dump anew)."""
    return xml_texts(SAMPLES / "testDump_xml_2013-12.xml.bz2", "2013-12-21")


class _Begun(NullProgress):
    """Remembers what each run began to parse."""

    def __init__(self) -> None:
        self.begun: list[str] = []

    def begin(self, description: str, total_bytes: int) -> None:
        self.begun.append(description)


def _refresh(
    store: Path,
    changes: list[Path],
    base: str,
    name: str,
    day: str,
    progress: NullProgress | None = None,
    **more: Any,
) -> RefreshResult:
    request = RefreshRequest(
        changes=tuple(changes), base=base, snapshot=name, date=day, store=store, **more
    )
    return refresh_snapshot(request, progress)


def _covered(store: Path, snapshot: str) -> set[str]:
    with open_catalog(StoreLayout.resolve(store)) as connection:
        rows = connection.execute(
            "SELECT qid FROM coverage WHERE snapshot = $s", {"s": snapshot}
        ).fetchall()
    return {qid for (qid,) in rows}


@pytest.mark.parametrize(
    ("base", "target", "day", "source"),
    [
        ("wd-2013-12", "wd-2014-10", "2014-10-11", "testDump_xml_2014-10.xml.bz2"),
        ("wd-2014-10", "wd-2014-12", "2014-12-31", "testDump_json_2014-12.json.bz2"),
    ],
    ids=["xml-to-xml", "xml-to-json"],
)
def test_a_refresh_to_another_snapshots_state_equals_its_ingest(
    store: Path, tmp_path: Path, base: str, target: str, day: str, source: str
) -> None:
    changed, gone = changed_between(store, base, target)
    dump = SAMPLES / source
    texts = xml_texts(dump, day) if source.endswith(".xml.bz2") else json_texts(dump)
    # plain XML: bz2 took 10 s to write and 3 to read of each run's 25 (compressed inputs
    # are the daily dumps' test's)
    incr = tmp_path / f"wikidatawiki-{day.replace('-', '')}-pages-meta-hist-incr.xml"
    assert write_changes(incr, texts, changed, f"{day}T12:00:00Z") == len(changed)
    deleted = tmp_path / "deleted.txt"
    deleted.write_text("# deleted since the base\n" + "\n".join(gone) + "\n")
    result = _refresh(store, [incr], base, "refreshed", day, deletions=deleted)
    assert result.status == "refreshed"
    expected = snapshot_rows(store, target)
    assert snapshot_rows(store, "refreshed") == expected
    manifest = result.manifest
    assert refresh_of(manifest).deletions == "known"
    assert refresh_of(manifest).changes["deleted"] == len(gone)
    assert refresh_of(manifest).changes["changed"] + refresh_of(manifest).changes["added"] == len(
        changed
    )
    assert {k: v for k, v in manifest.counts.items() if k != "covered"} == {
        table: len(rows) for table, rows in expected.items()
    }
    # the delta stores the changed entities' rows, all of them, and no other rows
    assert delta_of(manifest).stored["entities"] == len(changed) < manifest.counts["entities"]
    stored = folder_subjects(store, "refreshed")
    assert all(set(subjects) <= set(changed) for subjects in stored.values())
    in_target = rows_per_table(store, target, set(changed))
    assert {table: len(subjects) for table, subjects in stored.items()} == in_target
    assert {table: delta_of(manifest).stored[table] for table in stored} == in_target
    assert _covered(store, "refreshed") == _covered(store, target) | set(gone)


def _q1_revisions() -> list[Revision]:
    """Every revision of Q1 in the real daily dump, oldest first."""
    found = []
    for _, revision in etree.iterparse(str(DAILY), tag="{*}revision"):
        page = revision.getparent()
        title = page.find("{*}title").text
        if title == "Q1":
            text = revision.find("{*}text").text.encode()
            rid, stamp = revision.find("{*}id").text, revision.find("{*}timestamp").text
            found.append(Revision("Q1", int(rid), stamp, text))
    return sorted(found, key=lambda r: r.timestamp)


def _ingest_state(
    store: Path, texts: dict[str, bytes], tmp_path: Path, name: str, day: str
) -> None:
    """Ingest a dump holding ``texts`` (one revision each) as the snapshot ``name``."""
    dump = tmp_path / f"{name}.xml"
    revisions = (Revision(entity, 1, f"{day}T00:00:00Z", text) for entity, text in texts.items())
    write_revisions(dump, revisions)
    ingest_wikidata(
        IngestRequest(path=dump, snapshot=name, date=day, store=store, coverage="subset")
    )


def test_the_real_daily_dump_on_a_base_holding_its_entity_equals_an_ingest_of_that_state(
    store: Path, tmp_path: Path, base_texts: dict[str, bytes]
) -> None:
    result = _refresh(store, [DAILY], "wd-2013-12", "daily", "2014-02-20")
    assert refresh_of(result.manifest).changes == {
        "changed": 1,
        "added": 0,
        "redirected": 0,
        "deleted": 0,
        "deletions_of_unknown_ids": 0,
        "revisions_kept": 1,
    }
    assert refresh_of(result.manifest).deletions == "unknown"
    state = dict(base_texts)
    state["Q1"] = _q1_revisions()[-1].text or b""
    _ingest_state(store, state, tmp_path, "direct", "2014-02-20")
    assert snapshot_rows(store, "daily") == snapshot_rows(store, "direct")
    assert _covered(store, "daily") == _covered(store, "direct")


def test_daily_dumps_in_any_order_and_compression_keep_the_latest_revision_by_the_date(
    store: Path, tmp_path: Path, base_texts: dict[str, bytes]
) -> None:
    revisions = _q1_revisions()
    days = ["2014-02-17", "2014-02-18", "2014-02-19"]
    # the real texts, re-dated: two revisions a day (one the last), three compressions
    dated = [
        Revision("Q1", r.revision_id, f"{days[i // 2]}T{10 + i % 2}:00:00Z", r.text)
        for i, r in enumerate(revisions)
    ]
    names = [
        f"wikidatawiki-{d.replace('-', '')}-pages-meta-hist-incr.xml{suffix}"
        for d, suffix in zip(days, [".bz2", ".gz", ""], strict=True)
    ]
    files = [tmp_path / name for name in names]
    for index, path in enumerate(files):
        write_revisions(path, dated[2 * index : 2 * index + 2])
    assert files[0].read_bytes()[:3] == b"BZh" and files[1].read_bytes()[:2] == b"\x1f\x8b"
    shuffled = [files[2], files[0], files[1]]
    _refresh(store, shuffled, "wd-2013-12", "by-18th", "2014-02-18")
    _refresh(store, shuffled, "wd-2013-12", "by-19th", "2014-02-19")
    for name, latest in (("direct-18th", dated[3]), ("direct-19th", dated[4])):
        state = {**base_texts, "Q1": latest.text or b""}
        _ingest_state(store, state, tmp_path, name, "2014-02-18")
    by_18th, by_19th = snapshot_rows(store, "by-18th"), snapshot_rows(store, "by-19th")
    assert by_18th == snapshot_rows(store, "direct-18th")
    assert by_19th == snapshot_rows(store, "direct-19th")
    assert by_18th != by_19th


def test_a_rerun_is_a_no_op_and_the_name_is_refused_for_other_changes(store: Path) -> None:
    first = _refresh(store, [DAILY], "wd-2013-12", "daily", "2014-02-20")
    files = sorted(p.name for p in (store / "snapshots" / "snapshot=daily").rglob("*"))
    again = _refresh(store, [DAILY], "wd-2013-12", "daily", "2014-02-20")
    assert (again.status, again.manifest) == ("unchanged", first.manifest)
    assert sorted(p.name for p in (store / "snapshots" / "snapshot=daily").rglob("*")) == files
    assert not (store / ".staging" / "daily").exists()
    with pytest.raises(StoreError, match="snapshot 'daily' already exists"):
        _refresh(store, [DAILY], "wd-2013-12", "daily", "2014-02-21")


def test_a_bad_revision_is_rejected_and_its_entity_stays_as_the_base_has_it(
    store: Path, tmp_path: Path
) -> None:
    good = _q1_revisions()[-1]
    incr = tmp_path / "wikidatawiki-20140220-pages-meta-hist-incr.xml"
    write_revisions(
        incr,
        [
            good,
            Revision("Q2", 7, "2014-02-20T01:00:00Z", b'{"type": "item", "id": "Q2", "claims":'),
        ],
    )
    with pytest.raises(TooManyRejectsError, match="more than --max-rejects 0"):
        _refresh(store, [incr], "wd-2013-12", "bad", "2014-02-20", max_rejects=0)
    assert not (store / "snapshots" / "snapshot=bad").exists()
    result = _refresh(store, [incr], "wd-2013-12", "bad", "2014-02-20")
    manifest = result.manifest
    assert (manifest.rejects, manifest.rejects_file) == (1, "rejects.jsonl")
    record = msgspec.json.decode(
        (store / "snapshots" / "snapshot=bad" / "rejects.jsonl").read_bytes().splitlines()[0]
    )
    assert record["source"] == str(incr) and "malformed entity JSON" in record["error"]
    assert refresh_of(manifest).changes["changed"] == 1
    rows = snapshot_rows(store, "bad")
    base = snapshot_rows(store, "wd-2013-12")
    q2 = [row for row in rows["statements"] if row[1] == "Q2"]
    assert q2 and q2 == [row for row in base["statements"] if row[1] == "Q2"]


def test_nothing_is_published_on_failure_and_the_next_run_resumes(
    store: Path, tmp_path: Path
) -> None:
    first = tmp_path / "wikidatawiki-20140219-pages-meta-hist-incr.xml.bz2"
    write_revisions(first, _q1_revisions()[:3])
    second = tmp_path / "wikidatawiki-20140220-pages-meta-hist-incr.xml.bz2"
    whole = bz2.compress(DAILY.read_bytes())
    second.write_bytes(whole[: len(whole) // 2])  # a download cut in the middle
    with pytest.raises(InputError, match=str(second)):
        _refresh(store, [first, second], "wd-2013-12", "resumed", "2014-02-20")
    assert "resumed" not in {m.name for m in list_snapshots(StoreLayout.resolve(store))}
    assert not (store / "snapshots" / "snapshot=resumed").exists()
    parsed = list((store / ".staging" / "resumed" / "inputs").glob("*/parts/[0-9]*"))
    assert len(parsed) == 1  # the first file's chunk, kept
    check = run_kgdiff("store", "check", "--store", str(store))
    assert "a stopped refresh of 'resumed' on 'wd-2013-12'" in check.stdout
    second.write_bytes(whole)
    progress = _Begun()
    result = _refresh(store, [first, second], "wd-2013-12", "resumed", "2014-02-20", progress)
    assert result.status == "refreshed"
    assert progress.begun == [f"parsing {second.name}"]  # the first file was not read again
    assert not parsed[0].exists()  # the staging is gone with the publishing
    assert refresh_of(result.manifest).changes["revisions_superseded"] == 1
