"""``kgdiff store check [--repair]`` on a real demo store damaged in each way (issue 34).

Each damage is reported on its own line (what, where, what to do) with the exit code of its
kind; ``--repair`` mends what kgdiff may (leftovers of stopped processes, missing and extra
views, unreadable builds, orphaned jobs), leaves a live process's files and a resumable
ingest alone, and never changes a published snapshot: a second check is clean and the
snapshots are byte for byte what they were.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import msgspec
import pyarrow.parquet as pq
import pytest

from kgdiff.query.jobs import JobState
from kgdiff.store.liveness import ProcessMark, this_process
from kgdiff.store.manifest import SourceInfo
from kgdiff.store.staging import PartMeta, StagingState
from tests.faultkit import dead_pid
from tests.paths import DATA, run_kgdiff

DATES = ["--init", "2013-12-21", "--cutoff", "2014-10-11", "--current", "2014-12-31"]
VIEW = "classified_20131221_20141011_20141231_record"
SNAPSHOT = "snapshots/snapshot=wd-2014-12"
PART = f"{SNAPSHOT}/statements/part-00000.parquet"
FIX = "'kgdiff snapshots rm wd-2014-12'"
PAGEVIEWS = DATA / "pageviews" / "pageviews-20190701-210000.head10.txt"


def digests(folder: Path) -> dict[str, str]:
    """SHA-256 of every file below ``folder``, by relative path."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def published(store: Path) -> dict[str, str]:
    """Digests of every published snapshot and page view source."""
    found: dict[str, str] = {}
    for parent in ("snapshots", "wikipedia", "pageviews"):
        if (store / parent).is_dir():
            found |= {f"{parent}/{k}": v for k, v in digests(store / parent).items()}
    return found


def check(store: Path, *options: str) -> tuple[int, list[str]]:
    result = run_kgdiff("store", "check", *options, "--store", str(store))
    assert "Traceback" not in result.stderr, result.stderr
    return result.returncode, result.stdout.splitlines()


def lines_about(lines: list[str], where: str) -> list[str]:
    return [line for line in lines if f": {where}: " in line or line.startswith(f"{where}")]


def views(store: Path) -> set[str]:
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as catalog:
        rows = catalog.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal")
        return {str(row[0]) for row in rows.fetchall()}


@pytest.fixture(scope="module")
def prepared(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store with one classification build and one page view source."""
    target = tmp_path_factory.mktemp("store-check") / "store"
    shutil.copytree(demo_store, target, ignore=shutil.ignore_patterns("builds"))
    shutil.copytree(demo_store / "builds" / "evidence", target / "builds" / "evidence")
    for args in (
        ["classify", *DATES],
        ["ingest", "pageviews", str(PAGEVIEWS), "--date", "2019-07-01T21", "--period", "hour"],
    ):
        made = run_kgdiff(*args, "--store", str(target))
        assert made.returncode == 0, made.stderr
    return target


@pytest.fixture
def store(prepared: Path, tmp_path: Path) -> Path:
    """A copy of :func:`prepared` for one test to damage."""
    target = tmp_path / "store"
    shutil.copytree(prepared, target)
    return target


def test_a_sound_store_checks_clean(store: Path) -> None:
    code, lines = check(store)
    assert code == 0, lines
    (summary,) = lines
    assert summary.startswith("checked 3 snapshots, 1 Wikipedia snapshot, 1 page view source")
    assert summary.endswith("nothing to report; the store is sound")


def test_manifests_record_every_file_as_published(store: Path) -> None:
    folders = [
        store / SNAPSHOT,
        store / "wikipedia" / "snapshot=enwiki-2016-05",
        *(store / "pageviews").iterdir(),
    ]
    for folder in folders:
        manifest = json.loads((folder / "manifest.json").read_text())
        files = {p for p in digests(folder) if p != "manifest.json"}
        assert set(manifest["files"]) == files, folder
        for relative, record in manifest["files"].items():
            path = folder / relative
            assert record["bytes"] == path.stat().st_size
            assert record["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
            rows = pq.read_metadata(path).num_rows if path.suffix == ".parquet" else None
            assert record["rows"] == rows


def _truncate(store: Path) -> None:
    path = store / PART
    path.write_bytes(path.read_bytes()[:-100])


def _flip(store: Path) -> None:
    path = store / PART
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def _delete(store: Path) -> None:
    (store / PART).unlink()


def _extra(store: Path) -> None:
    shutil.copy(store / PART, store / SNAPSHOT / "statements" / "part-00001.parquet")


SNAPSHOT_DAMAGES = {
    "truncated part file": (_truncate, PART, "bytes, the manifest"),
    "flipped byte": (_flip, PART, "SHA-256 is not the manifest's"),
    "missing file": (_delete, PART, "it is missing"),
    "file that does not belong": (
        _extra,
        f"{SNAPSHOT}/statements/part-00001.parquet",
        "not in the manifest",
    ),
}


@pytest.mark.parametrize("damage", SNAPSHOT_DAMAGES)
def test_snapshot_damage_is_reported_and_never_touched(store: Path, damage: str) -> None:
    make, where, said = SNAPSHOT_DAMAGES[damage]
    make(store)
    before = published(store)
    code, lines = check(store)
    assert code == 5, lines
    found = [line for line in lines if line.startswith(f"damage: {where}: ")]
    assert len(found) == 1 and said in found[0] and FIX in found[0], lines
    code, lines = check(store, "--repair")
    assert code == 5, lines
    assert published(store) == before
    code, lines = check(store)
    assert code == 5 and [line for line in lines if line.startswith("damage: ")], lines


def test_counts_are_checked_for_manifests_without_checksums(store: Path) -> None:
    manifest_path = store / SNAPSHOT / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    del manifest["files"]  # as an earlier kgdiff wrote it
    manifest["counts"]["statements"] += 1
    manifest_path.write_text(json.dumps(manifest))
    code, lines = check(store)
    assert code == 5, lines
    (counted,) = [line for line in lines if line.startswith("damage: ")]
    assert counted.startswith(f"damage: {SNAPSHOT}/statements: it holds ")
    (said,) = [line for line in lines if line.startswith("note: snapshots: ")]
    assert "1 snapshot(s) published by an earlier kgdiff (wd-2014-12)" in said


@pytest.fixture
def live_lock(store: Path) -> Iterator[Path]:
    """A staging folder whose lock this process holds, as a running ingest does."""
    folder = store / ".staging" / "running"
    (folder / "parts").mkdir(parents=True)
    with (folder.parent / "running.lock").open("wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield folder


def _staging(store: Path, name: str, source: Path) -> Path:
    """The staging of a stopped ingest of ``source`` with one chunk parsed."""
    folder = store / ".staging" / name
    (folder / "parts" / "0000000").mkdir(parents=True)
    stat = source.stat()
    state = StagingState(SourceInfo(str(source), stat.st_size, stat.st_mtime_ns), 1 << 25)
    (folder / "state.json").write_bytes(msgspec.json.encode(state))
    meta = PartMeta(seq=0, entities=1, statements=1, rejects=0, input_bytes=10)
    (folder / "parts" / "0000000" / "meta.json").write_bytes(msgspec.json.encode(meta))
    (store / ".staging" / f"{name}.lock").touch()
    return folder


def _damage_what_repair_mends(store: Path, tmp_path: Path) -> dict[str, str]:
    """Every kind of damage ``--repair`` mends; where each is reported, and how."""
    dead = dead_pid()
    (build,) = (p for p in (store / "builds" / "classify").iterdir() if not p.name.startswith("."))
    hidden = store / "builds" / "classify" / f".tmp-{build.name}-{dead}"
    (hidden / "result").mkdir(parents=True)
    (hidden / "params.json").write_bytes(b'{"init": "20')
    gone = tmp_path / "gone.json"
    gone.write_text("[\n]\n")
    _staging(store, "stopped", gone)
    gone.unlink()
    job = JobState("0" * 20, "running", "/v1/facts", 0.0, owner=ProcessMark(dead, 1, None))
    (store / "builds" / "jobs").mkdir(parents=True)
    (store / "builds" / "jobs" / f"{job.id}.json").write_bytes(msgspec.json.encode(job))
    aside = tmp_path / "aside"
    build.rename(aside)  # the catalog of a classify killed before its rebuild: no view
    assert run_kgdiff("snapshots", "catalog", "--store", str(store)).returncode == 0
    aside.rename(build)
    with duckdb.connect(str(store / "kg.duckdb")) as catalog:
        catalog.execute("CREATE VIEW classified_20990101_20990102_20990103_record AS SELECT 1")
    (store / f".kg.duckdb.tmp-{dead}").write_bytes(b"half a catalog")  # after the rebuild
    return {
        f"builds/classify/.tmp-{build.name}-{dead}": "problem",
        f".kg.duckdb.tmp-{dead}": "problem",
        ".staging/stopped": "problem",
        f"builds/jobs/{job.id}.json": "problem",
        "kg.duckdb": "problem",
    }


def test_repair_mends_what_it_may_and_leaves_live_work_alone(
    store: Path, tmp_path: Path, live_lock: Path
) -> None:
    expected = _damage_what_repair_mends(store, tmp_path)
    live_tmp = store / "builds" / "classify" / f".tmp-0123456789abcdef-{this_process().pid}"
    live_tmp.mkdir()
    resumable = _staging(store, "resumable", PAGEVIEWS)
    before = published(store)
    code, lines = check(store)
    assert code == 1, lines
    for where, severity in expected.items():
        assert [line for line in lines if line.startswith(f"{severity}: {where}: ")], (where, lines)
    catalog_lines = [line for line in lines if line.startswith("problem: kg.duckdb: ")]
    assert any(f"lacks the view {VIEW}" in line for line in catalog_lines), catalog_lines
    assert any("classified_20990101" in line for line in catalog_lines), catalog_lines
    notes = [line for line in lines if line.startswith("note: ")]
    assert any(".staging/running: an ingest of 'running' is running" in n for n in notes), notes
    assert any(live_tmp.name in n and "running process" in n for n in notes), notes
    (resume,) = [n for n in notes if ".staging/resumable:" in n]
    assert f"kgdiff ingest wikidata {PAGEVIEWS} --snapshot resumable" in resume
    assert "--drop-staging" in resume

    code, lines = check(store, "--repair")
    assert code == 0, lines
    assert [line for line in lines if line.startswith("repaired: ")]
    code, lines = check(store)
    assert code == 0, lines
    assert not [line for line in lines if line.startswith(("problem: ", "damage: "))], lines
    assert published(store) == before
    assert VIEW in views(store) and "classified_20990101_20990102_20990103_record" not in views(
        store
    )
    assert live_tmp.is_dir() and live_lock.is_dir() and resumable.is_dir()
    job = json.loads((store / "builds" / "jobs" / f"{'0' * 20}.json").read_text())
    assert (job["status"], job["error_kind"]) == ("failed", "ServerStopped")

    code, lines = check(store, "--repair", "--drop-staging")
    assert code == 0, lines
    assert not resumable.exists() and not (store / ".staging" / "resumable.lock").exists()
    assert live_lock.is_dir()


def test_an_unreadable_build_is_unpublished_and_made_anew(store: Path) -> None:
    (build,) = (p for p in (store / "builds" / "classify").iterdir() if not p.name.startswith("."))
    part = next((build / "result").iterdir())
    data = bytearray(part.read_bytes())
    data[4:40] = bytes(36)  # the first page's header and data, zeroed
    part.write_bytes(bytes(data))
    code, lines = check(store)
    assert code == 1, lines
    (found,) = [
        line for line in lines if line.startswith(f"problem: builds/classify/{build.name}:")
    ]
    assert "--repair removes it" in found
    code, lines = check(store, "--repair")
    assert code == 0 and not build.exists(), lines
    made = run_kgdiff("classify", *DATES, "--store", str(store))
    assert made.returncode == 0, made.stderr
    assert VIEW in views(store) and check(store)[0] == 0


def test_json_report(store: Path) -> None:
    (store / "snapshots" / "snapshot=wd-2014-12" / "extra.txt").write_text("not mine")
    result = run_kgdiff("store", "check", "--json", "--store", str(store))
    assert result.returncode == 5, result.stderr
    report = json.loads(result.stdout)
    (finding,) = report["findings"]
    assert finding["severity"] == "damage"
    assert finding["where"] == "snapshots/snapshot=wd-2014-12/extra.txt"
    assert finding["repair"] is None and finding["line"].startswith("damage: ")
    assert report["exit_code"] == 5 and report["remaining"] is None
    assert report["checked"]["snapshots"] == 3
