"""A killed ingest leaves nothing visible, and the next run finishes it without redoing work.

Every scenario ingests the real sample decompressed to a plain ``.json`` with
``--chunk-mb 1 --workers 2`` (17 chunks), SIGKILLs the whole process group (main
process, forkserver, parse workers) at a chosen point, checks that nothing was
published, and finally compares the snapshot of a run-to-completion row by row
(``EXCEPT ALL`` both ways, per table) with an uninterrupted reference run.

How "finished chunks are not redone" is shown: a finished chunk is the folder
``parts/NNNNNNN`` (written as ``.tmp-NNNNNNN``, then renamed), and the staging
folder is deleted once the snapshot is published, so the evidence must be
taken before that. After the first kill the test records (inode, size, mtime)
of every file of every finished part; the resumed run is killed as soon as it
has made progress of its own (a part the first run had not finished or, if all
were finished, the start of finalize), and a third run is killed when finalize
starts, i.e. after every chunk was either parsed or skipped. Each time, every
recorded file must still be the very same file: a redone chunk is written into
a fresh ``.tmp`` folder, so its files would have new inodes and mtimes. Only
then is the ingest allowed to finish.

A parse worker killed on its own (as the out-of-memory killer would) must end
the run with exit code 7 and one line saying to rerun, and the rerun resumes.

Further cases: a SIGKILL right after the rename that publishes (before the
catalog rebuild), and SIGINT (Ctrl-C to the whole group while parsing or in
finalize; ``kill -INT`` of the main process), which must stop within seconds
with exit code 130 and no traceback.

Each store already holds a small published snapshot, so that "nothing
published" is checked against a real ``kg.duckdb``, not an absent one.
"""

from __future__ import annotations

import os
import shutil
import signal
from functools import partial
from pathlib import Path

import psutil
import pytest

from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import refresh_catalog
from tests.faultkit import (
    LINGER_GRACE,
    SAMPLE_DATE,
    TABLES,
    Background,
    array_dump,
    assert_not_published,
    assert_one_line_error,
    assert_same_snapshot,
    catalog_names,
    child_env,
    clip,
    entity_lines,
    file_identities,
    group_gone,
    ingest_args,
    run_cli,
    sample_dump,
    snapshot_dir,
    staging_dir,
)

pytestmark = pytest.mark.timeout(300)

NAME = "resumed"
BASE = "base"
CHUNK_BYTES = 1 << 20
CHUNKED = ("--workers", "2", "--chunk-mb", str(CHUNK_BYTES >> 20), "--quiet")
EXIT_INTERRUPTED = 130
EXIT_WORKER_DIED = 7
SENTINEL = ".killed-run-left-this"
"""Dropped into a leftover ``final/`` so that a fresh one (finalize restarted) is told apart."""
ATTEMPTS = 3
INTERRUPT_GRACE = 10.0
"""Seconds an interrupted ingest may take to stop on an idle machine (it needs well under
one); stretched by the machine's load (:func:`stop_grace`)."""

Identities = dict[str, tuple[int, int, int]]


def stop_grace() -> float:
    """:data:`INTERRUPT_GRACE` times the load per core above one: the suite's other workers
    and Spark's JVMs once kept a run that stops in under a second going past 10 s on two
    cores, while a run that does not stop at all still fails."""
    busy = os.getloadavg()[0] / (os.cpu_count() or 1)
    return INTERRUPT_GRACE * max(1.0, busy)


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def dump(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real sample as a plain JSON array dump (16.9 MB)."""
    return sample_dump(tmp_path_factory)


@pytest.fixture(scope="module")
def total_parts(dump: Path) -> int:
    """How many chunks the dump is cut into (whole lines, so one more than full MiBs)."""
    return dump.stat().st_size // CHUNK_BYTES + 1


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, dump: Path) -> Path:
    """The snapshot folder of an uninterrupted run with the same options (:data:`CHUNKED`),
    made in this process: what it must hold, not how a command behaves, is what it is for."""
    store = tmp_path_factory.mktemp("reference") / "store"
    request = IngestRequest(dump, NAME, SAMPLE_DATE, store, workers=2, chunk_bytes=CHUNK_BYTES)
    assert ingest_wikidata(request).status == "ingested"
    return snapshot_dir(store, NAME)


@pytest.fixture(scope="module")
def base_store(tmp_path_factory: pytest.TempPathFactory, dump: Path) -> Path:
    """A store with one small published snapshot (so ``kg.duckdb`` exists), ingested in this
    process (it is the tests' starting point, not under test)."""
    folder = tmp_path_factory.mktemp("base")
    small = folder / "small.json"
    small.write_bytes(array_dump(entity_lines(dump)[:20]))
    store = folder / "store"
    ingest_wikidata(IngestRequest(small, BASE, SAMPLE_DATE, store))
    assert catalog_names(store) == [BASE]
    return store


def fresh_store(base_store: Path, where: Path) -> Path:
    """A copy of the base store, its catalog rebuilt to point at the copy."""
    store = where / "store"
    shutil.copytree(base_store, store)
    refresh_catalog(StoreLayout(store))
    assert catalog_names(store) == [BASE]
    return store


# ----------------------------------------------------------------------------- staging probes


def finished_parts(staging: Path) -> set[str]:
    """Names of the finished part folders (``.tmp-*`` ones are still being written)."""
    try:
        return {path.name for path in (staging / "parts").iterdir() if path.name.isdigit()}
    except FileNotFoundError:
        return set()


def part_identities(staging: Path) -> Identities:
    """(inode, size, mtime) of every file of every finished part."""
    files = file_identities(staging / "parts")
    return {path: ident for path, ident in files.items() if Path(path).parts[0].isdigit()}


def reached(point: str, staging: Path, total: int) -> bool:
    """Whether the ingest writing ``staging`` is at or past kill point ``point``."""
    if point == "staging-opened":
        return (staging / "state.json").is_file() and not finished_parts(staging)
    if point == "first-part":
        return len(finished_parts(staging)) >= 1
    if point == "half-the-parts":
        return len(finished_parts(staging)) >= total // 2
    if point == "finalize":
        return (staging / "final").is_dir()
    raise ValueError(point)


def finalize_restarted(staging: Path) -> bool:
    """A ``final/`` made by the current run (not the one a killed run left, see SENTINEL)."""
    return (staging / "final").is_dir() and not (staging / "final" / SENTINEL).exists()


def mark_leftover_final(staging: Path) -> None:
    """Tag a ``final/`` left by a killed run so :func:`finalize_restarted` ignores it."""
    if (staging / "final").is_dir():
        (staging / "final" / SENTINEL).touch()


def assert_still_same_files(recorded: Identities, staging: Path) -> None:
    """Every recorded part file is still there, untouched (same inode, size, mtime)."""
    now = part_identities(staging)
    changed = {path for path, ident in recorded.items() if now.get(path) != ident}
    assert not changed, f"finished parts were redone or removed: {sorted(changed)}"


def assert_nothing_visible(store: Path) -> None:
    """The interrupted snapshot is invisible; the base snapshot is still in the catalog."""
    assert_not_published(store, NAME)
    assert catalog_names(store) == [BASE]


def assert_finished(store: Path, reference: Path) -> None:
    """Published, identical to the reference, listed in the catalog, staging cleaned up."""
    assert_same_snapshot(store, NAME, reference)
    assert catalog_names(store) == [BASE, NAME]
    assert not staging_dir(store, NAME).exists()
    assert not (store / ".staging" / f"{NAME}.lock").exists()


def kill_at(
    point: str, dump: Path, base_store: Path, tmp_path: Path, total: int
) -> tuple[Path, Path]:
    """A store whose ingest of ``dump`` was SIGKILLed at ``point``; returns (store, staging).

    The kill point is checked again once every process is dead; a run that
    finished or moved past the point first is retried, and after three misses
    the test is skipped (the polling could not keep up on this machine).
    """
    for attempt in range(ATTEMPTS):
        where = tmp_path / f"attempt-{attempt}"
        where.mkdir()
        store = fresh_store(base_store, where)
        staging = staging_dir(store, NAME)
        run = Background(ingest_args(dump, store, NAME, *CHUNKED), where / "stderr.txt")
        killed = run.kill_when(partial(reached, point, staging, total))
        if killed and reached(point, staging, total):
            assert run.proc.returncode == -signal.SIGKILL
            return store, staging
    pytest.skip(f"the ingest outran 2 ms polling for kill point {point!r} {ATTEMPTS} times")


# ----------------------------------------------------------------------------- tests


@pytest.mark.parametrize("point", ["staging-opened", "first-part", "half-the-parts", "finalize"])
def test_killed_ingest_resumes_without_redoing_chunks(
    tmp_path: Path,
    dump: Path,
    base_store: Path,
    reference: Path,
    total_parts: int,
    point: str,
) -> None:
    """SIGKILL at ``point``, twice more while resuming, then finish: same rows as reference."""
    store, staging = kill_at(point, dump, base_store, tmp_path, total_parts)
    assert_nothing_visible(store)
    first = part_identities(staging)
    if point == "finalize":
        assert finished_parts(staging) == {f"{seq:07d}" for seq in range(total_parts)}

    # kill 2: as soon as the resumed run made progress of its own
    done_before = finished_parts(staging)
    mark_leftover_final(staging)
    resumed = Background(ingest_args(dump, store, NAME, *CHUNKED), tmp_path / "resume-1.txt")
    assert resumed.kill_when(
        lambda: bool(finished_parts(staging) - done_before) or finalize_restarted(staging)
    ), f"the resumed run finished before it was seen working: {clip(resumed.stderr)}"
    assert_nothing_visible(store)
    assert_still_same_files(first, staging)

    # kill 3: once finalize starts, every chunk has been parsed or skipped
    if not finalize_restarted(staging):
        second = part_identities(staging)
        mark_leftover_final(staging)
        resumed = Background(ingest_args(dump, store, NAME, *CHUNKED), tmp_path / "resume-2.txt")
        assert resumed.kill_when(lambda: finalize_restarted(staging)), clip(resumed.stderr)
        assert_nothing_visible(store)
        assert_still_same_files(second, staging)
        assert_still_same_files(first, staging)
    assert finished_parts(staging) == {f"{seq:07d}" for seq in range(total_parts)}

    result = run_cli(ingest_args(dump, store, NAME, *CHUNKED))
    assert result.returncode == 0, result.err
    assert result.stderr == "", result.err
    assert_finished(store, reference)


def test_kill_right_after_the_publishing_rename(
    tmp_path: Path, dump: Path, base_store: Path, reference: Path
) -> None:
    """Killed between the rename that publishes and the catalog rebuild: the rerun repairs it.

    The snapshot folder is complete (it appeared by one rename), but ``kg.duckdb``
    does not list it yet and the staging folder is still there. Running the same
    command again must bring the catalog up to date and clean up.
    """
    for attempt in range(ATTEMPTS):
        where = tmp_path / f"attempt-{attempt}"
        where.mkdir()
        store = fresh_store(base_store, where)
        folder = snapshot_dir(store, NAME)
        run = Background(ingest_args(dump, store, NAME, *CHUNKED), where / "stderr.txt")
        if run.kill_when(folder.exists, poll=0.0005) and catalog_names(store) == [BASE]:
            break
    else:
        pytest.skip("could not kill the ingest before its catalog rebuild in 3 attempts")
    assert sorted(p.name for p in folder.iterdir()) == sorted(["manifest.json", *TABLES])
    result = run_cli(ingest_args(dump, store, NAME, *CHUNKED))
    assert result.returncode == 0, result.err
    assert_finished(store, reference)


def start_attempt(
    tmp_path: Path, attempt: int, base_store: Path, dump: Path
) -> tuple[Path, Path, Background]:
    """A fresh store for this attempt and an ingest into it: (store, staging, run)."""
    where = tmp_path / f"attempt-{attempt}"
    where.mkdir()
    store = fresh_store(base_store, where)
    # The Python row builder: the native one parses this dump in a fraction of a second,
    # too fast to land an interrupt inside the parse phase. Interrupt handling lives in
    # the main process and the pool, the same for both builders.
    env = {**child_env(), "KGDIFF_NATIVE": "0"}
    run = Background(ingest_args(dump, store, NAME, *CHUNKED), where / "stderr.txt", env)
    return store, staging_dir(store, NAME), run


def in_phase(phase: str, staging: Path) -> bool:
    """The ingest is parsing (a part done, finalize not started) or inside finalize."""
    final = staging / "final"
    if phase == "parse":
        return bool(finished_parts(staging)) and not final.exists()
    if phase == "finalize":
        return final.is_dir() and any(final.iterdir())
    raise ValueError(phase)


def interrupt(
    tmp_path: Path, dump: Path, base_store: Path, phase: str, whole_group: bool
) -> tuple[Path, Background, int]:
    """An ingest SIGINTed during ``phase``: to its whole group (Ctrl-C) or its main process.

    Returns the store, the run and its exit status. A run whose interrupt landed
    too late (finalize already started, or the snapshot already published) is
    retried; after three misses the test is skipped.
    """
    for attempt in range(ATTEMPTS):
        store, staging, run = start_attempt(tmp_path, attempt, base_store, dump)
        try:
            if not run.wait_for(partial(in_phase, phase, staging)):
                continue
            if whole_group:
                os.killpg(run.proc.pid, signal.SIGINT)
            else:
                os.kill(run.proc.pid, signal.SIGINT)
            code = run.wait(timeout=stop_grace())
            assert group_gone(run.proc.pid, grace=LINGER_GRACE), "workers outlived the interrupt"
        finally:
            run.reap()
        too_late = phase == "parse" and (staging / "final").exists()
        if not too_late and not snapshot_dir(store, NAME).exists():
            return store, run, code
    pytest.skip(f"could not interrupt the ingest during {phase} in {ATTEMPTS} attempts")


def assert_interrupted(code: int, run: Background, store: Path) -> None:
    """Exit status 130, no traceback, nothing published."""
    assert code == EXIT_INTERRUPTED, clip(run.stderr)
    assert "Traceback" not in run.stderr, clip(run.stderr)
    assert_nothing_visible(store)


@pytest.mark.parametrize("phase", ["parse", "finalize"])
def test_ctrl_c_stops_promptly_and_the_rerun_resumes(
    tmp_path: Path, dump: Path, base_store: Path, reference: Path, phase: str
) -> None:
    """Ctrl-C (SIGINT to the whole process group, workers included) while parsing or
    finalizing: exit 130 within 10 s (on an idle machine: :func:`stop_grace`), no traceback,
    nothing published; the rerun finishes."""
    store, run, code = interrupt(tmp_path, dump, base_store, phase, whole_group=True)
    assert_interrupted(code, run, store)
    result = run_cli(ingest_args(dump, store, NAME, *CHUNKED))
    assert result.returncode == 0, result.err
    assert_finished(store, reference)


def test_sigint_says_how_to_resume_in_one_line(
    tmp_path: Path, dump: Path, base_store: Path, reference: Path
) -> None:
    """SIGINT to the main process (``kill -INT``): exit 130, one line telling to rerun."""
    store, run, code = interrupt(tmp_path, dump, base_store, "parse", whole_group=False)
    assert_interrupted(code, run, store)
    result = run_cli(ingest_args(dump, store, NAME, *CHUNKED))
    assert result.returncode == 0, result.err
    assert_finished(store, reference)
    assert_one_line_error(run.stderr, "interrupted")


def parse_workers(pid: int) -> list[psutil.Process]:
    """The parse workers of the run led by ``pid`` (children of its forkserver)."""
    try:
        return [worker for child in psutil.Process(pid).children() for worker in child.children()]
    except psutil.Error:
        return []


def two_workers_parsing(pid: int, staging: Path, found: list[psutil.Process]) -> bool:
    """Parsing is under way with both workers up (``found`` receives them)."""
    found[:] = parse_workers(pid)
    return in_phase("parse", staging) and len(found) == 2


def kill_one_worker(
    tmp_path: Path, base_store: Path, dump: Path, reference: Path
) -> tuple[Path, Background, int]:
    """An ingest one of whose two parse workers was SIGKILLed mid-parse: (store, run, status).

    A kill can land after the worker's last part was parsed, while the other worker still
    parses: nothing was lost and the run rightly ends well. Such a run must have published
    the whole snapshot (a run that lost a worker's part and still ended well fails here);
    it is tried again, as a kill that came too late."""
    for attempt in range(ATTEMPTS):
        store, staging, run = start_attempt(tmp_path, attempt, base_store, dump)
        try:
            workers: list[psutil.Process] = []
            if not run.wait_for(partial(two_workers_parsing, run.proc.pid, staging, workers)):
                continue
            workers[0].kill()
            code = run.wait(timeout=stop_grace())
            assert group_gone(run.proc.pid, grace=LINGER_GRACE), "workers outlived the run"
        finally:
            run.reap()
        if code == 0:
            assert_finished(store, reference)
            continue
        if not (staging / "final").exists():
            return store, run, code
    pytest.skip(f"could not kill a parse worker while parsing in {ATTEMPTS} attempts")


def test_a_killed_parse_worker_ends_the_run_and_the_rerun_resumes(
    tmp_path: Path, dump: Path, base_store: Path, reference: Path
) -> None:
    """A worker SIGKILLed mid-parse: exit 7 within seconds, one line, nothing published."""
    store, run, code = kill_one_worker(tmp_path, base_store, dump, reference)
    assert code == EXIT_WORKER_DIED, clip(run.stderr)
    assert_one_line_error(run.stderr, "run the same command again")
    assert_nothing_visible(store)
    result = run_cli(ingest_args(dump, store, NAME, *CHUNKED))
    assert result.returncode == 0, result.err
    assert_finished(store, reference)
