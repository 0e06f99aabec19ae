"""Bad input never crashes kgdiff and never publishes anything.

Every damaged file is derived from the bundled real sample (1,704 entities): the
sample recompressed as gzip (ISA-L in-process), bzip2 (``lbzip2`` and, with
``lbzip2`` hidden from PATH, the bz2 module), zstd, and plain JSON, then cut,
bit-flipped or followed by garbage. A damaged stream must end the run with exit
code 3 and one line ``error: ...`` that names the file and the offset; damage
that only spoils single entities must turn into rejects instead.

The failing runs share one store that already holds a published snapshot, so
"nothing published" is checked against a real catalog, not an absent one. The
damaged-stream runs are independent, so one fixture runs them three at a time
(a run spends most of its second waiting on interpreter and worker startup).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest
import zstandard

from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from tests.faultkit import (
    SAMPLE_DATE,
    SAMPLE_ENTITIES,
    SAMPLE_STATEMENTS,
    RunResult,
    array_dump,
    assert_not_published,
    assert_one_line_error,
    catalog_names,
    child_env,
    compressed_sample,
    entity_lines,
    file_identities,
    flip_byte,
    ingest_args,
    parquet_rows,
    path_without_lbzip2,
    read_manifest,
    run_all,
    run_cli,
    sample_dump,
    snapshot_dir,
)

pytestmark = pytest.mark.timeout(300)

EXISTING = "existing"
SMALL_ENTITIES = 300
CHUNKED = ("--workers", "2", "--chunk-mb", "1")
EXIT_OK, EXIT_USAGE, EXIT_INPUT, EXIT_REJECTS, EXIT_STORE = 0, 2, 3, 4, 5

Damage = Callable[[bytes], bytes]
DAMAGES: dict[str, Damage] = {
    "truncated": lambda data: data[: len(data) // 2],
    "flipped-byte": lambda data: flip_byte(data, len(data) // 2),
    "trailing-garbage": lambda data: data + b"garbage\n",
}
CODECS = {
    # codec id: (file extension, hide lbzip2 from PATH)
    "gz": ("gz", False),
    "bz2-lbzip2": ("bz2", False),
    "bz2-module": ("bz2", True),
    "zst": ("zst", False),
}


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def dump(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real sample as a plain JSON array dump."""
    return sample_dump(tmp_path_factory)


@pytest.fixture(scope="module")
def small_lines(dump: Path) -> list[bytes]:
    """The first 300 entity lines of the sample."""
    lines = entity_lines(dump)
    assert len(lines) == SAMPLE_ENTITIES
    return lines[:SMALL_ENTITIES]


@pytest.fixture(scope="module")
def small_dump(tmp_path_factory: pytest.TempPathFactory, small_lines: list[bytes]) -> Path:
    """A valid array dump of 300 real entities."""
    path = tmp_path_factory.mktemp("small") / "small.json"
    path.write_bytes(array_dump(small_lines))
    return path


@pytest.fixture(scope="module")
def busy_store(tmp_path_factory: pytest.TempPathFactory, small_dump: Path) -> Path:
    """A store holding one published snapshot, shared by the tests whose runs must fail
    (ingested in this process: the tests' starting point, not under test)."""
    store = tmp_path_factory.mktemp("busy") / "store"
    assert ingest_wikidata(IngestRequest(small_dump, EXISTING, SAMPLE_DATE, store)).status == (
        "ingested"
    )
    return store


def assert_refused(result: RunResult, store: Path, name: str, path: Path, code: int) -> str:
    """Exit ``code``, a one-line error naming the file and an offset, nothing published."""
    assert result.returncode == code, result.err
    line = assert_one_line_error(result.stderr, path.name, "offset")
    assert_not_published(store, name)
    names = catalog_names(store)
    assert names is not None and EXISTING in names, names
    return line


# ----------------------------------------------------------------------------- damaged streams


@dataclass(frozen=True)
class StreamCase:
    """One ingest of a (possibly damaged) dump file into ``store`` as snapshot ``name``."""

    path: Path
    store: Path
    name: str
    env: dict[str, str]


PLAIN_DAMAGES: dict[str, Damage] = {
    "cut-mid-line": lambda data: data[: len(data) // 2],
    "no-closing-bracket": lambda data: data.rstrip().removesuffix(b"]"),
    "garbage-after-bracket": lambda data: data + b"garbage\n",
    "two-dumps-joined": lambda data: data + data,
}


def _stream_cases(
    folder: Path, factory: pytest.TempPathFactory, busy: Path
) -> dict[str, StreamCase]:
    """Write every damaged file into ``folder``; key ``codec/damage`` (or ``control/codec``)."""
    cases: dict[str, StreamCase] = {}
    no_lbzip2 = child_env(path_without_lbzip2(folder / "bin"))
    for codec, (ext, hide_lbzip2) in CODECS.items():
        if codec == "bz2-lbzip2" and shutil.which("lbzip2") is None:
            continue  # the tests of this codec skip
        env = no_lbzip2 if hide_lbzip2 else child_env()
        sample = compressed_sample(factory, ext)
        cases[f"control/{codec}"] = StreamCase(sample, folder / f"control-{codec}", codec, env)
        for damage, spoil in DAMAGES.items():
            path = folder / f"{codec}-{damage}.json.{ext}"
            path.write_bytes(spoil(sample.read_bytes()))
            cases[f"{codec}/{damage}"] = StreamCase(path, busy, f"{codec}-{damage}", env)
    dump = sample_dump(factory)
    for damage, spoil in PLAIN_DAMAGES.items():
        path = folder / f"plain-{damage}.json"
        path.write_bytes(spoil(dump.read_bytes()))
        cases[f"plain/{damage}"] = StreamCase(path, busy, f"plain-{damage}", child_env())
    jsonl = b"\n".join(entity_lines(dump)) + b"\n"
    data = zstandard.ZstdCompressor(level=3, write_checksum=True).compress(jsonl)
    path = folder / "lines-truncated.json.zst"
    path.write_bytes(data[: len(data) // 2])
    cases["zst-lines/truncated"] = StreamCase(path, busy, "zst-lines-truncated", child_env())
    return cases


@pytest.fixture(scope="module")
def stream_runs(
    tmp_path_factory: pytest.TempPathFactory, busy_store: Path
) -> dict[str, tuple[StreamCase, RunResult]]:
    """Every run of the damaged-stream tests, three at a time (most of a run is startup)."""
    cases = _stream_cases(tmp_path_factory.mktemp("streams"), tmp_path_factory, busy_store)
    commands = {
        key: (ingest_args(case.path, case.store, case.name, *CHUNKED), case.env)
        for key, case in cases.items()
    }
    results = run_all(commands)
    return {key: (case, results[key]) for key, case in cases.items()}


def stream_run(
    runs: dict[str, tuple[StreamCase, RunResult]], key: str
) -> tuple[StreamCase, RunResult]:
    """The case and result of ``key`` (skips the lbzip2 cases when lbzip2 is missing)."""
    if key not in runs:
        pytest.skip("lbzip2 is not installed")
    return runs[key]


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("codec", CODECS)
def test_damaged_compressed_stream_is_refused(
    stream_runs: dict[str, tuple[StreamCase, RunResult]], codec: str, damage: str
) -> None:
    """Cut, bit-flipped or garbage-followed compressed dumps: exit 3, nothing published."""
    case, result = stream_run(stream_runs, f"{codec}/{damage}")
    line = assert_refused(result, case.store, case.name, case.path, EXIT_INPUT)
    if codec == "bz2-module":
        assert "lbzip2" not in line, "lbzip2 ran although it was not on PATH"


@pytest.mark.parametrize("codec", CODECS)
def test_undamaged_compressed_sample_ingests(
    stream_runs: dict[str, tuple[StreamCase, RunResult]], codec: str
) -> None:
    """Control for the test above: the same stream undamaged ingests completely."""
    case, result = stream_run(stream_runs, f"control/{codec}")
    assert result.returncode == EXIT_OK, result.err
    manifest = read_manifest(case.store, case.name)
    assert manifest["counts"] == {
        "entities": SAMPLE_ENTITIES, "labels": 115340, "sitelinks": 39857,
        "statements": SAMPLE_STATEMENTS, "qualifiers": 1536,
    }  # fmt: skip
    assert manifest["rejects"] == 0


@pytest.mark.parametrize("damage", PLAIN_DAMAGES)
def test_damaged_plain_json_dump_is_refused(
    stream_runs: dict[str, tuple[StreamCase, RunResult]], damage: str
) -> None:
    """A plain dump that is cut, followed by garbage or joined to another: exit 3.

    ``two-dumps-joined`` (``cat a.json b.json``) is the case kgdiff's own message
    names ("two files joined?"); accepting it would duplicate every entity.
    """
    case, result = stream_run(stream_runs, f"plain/{damage}")
    assert_refused(result, case.store, case.name, case.path, EXIT_INPUT)


def test_truncated_zstd_json_lines_is_refused(
    stream_runs: dict[str, tuple[StreamCase, RunResult]],
) -> None:
    """A truncated ``.zst`` of a JSON-lines dump (no ``]`` to miss) must still be refused.

    Only the decompressor can notice this truncation: the zstd frame is unfinished.
    """
    case, result = stream_run(stream_runs, "zst-lines/truncated")
    assert_refused(result, case.store, case.name, case.path, EXIT_INPUT)


# ----------------------------------------------------------------------------- damaged entities


def _line_of(data: bytes, offset: int) -> int:
    """1-based number of the line holding byte ``offset``."""
    return data.count(b"\n", 0, offset) + 1


@pytest.mark.parametrize("where", ["middle-byte", "middle-line-brace"])
def test_flipped_byte_in_plain_json_is_one_reject(tmp_path: Path, dump: Path, where: str) -> None:
    """Without a compression checksum a flipped byte spoils one entity: a reject, exit 0.

    ``middle-byte`` flips the byte in the middle of the file (it lands in a
    sitelink title and leaves invalid UTF-8); ``middle-line-brace`` flips the
    ``{`` that opens the entity line holding that byte.
    """
    data = dump.read_bytes()
    offset = len(data) // 2
    if where == "middle-line-brace":
        offset = data.rindex(b"\n", 0, offset) + 1
        assert data[offset : offset + 1] == b"{"
    path = tmp_path / f"flipped-{where}.json"
    path.write_bytes(flip_byte(data, offset))
    store = tmp_path / "store"
    result = run_cli(ingest_args(path, store, "flipped", *CHUNKED, "--quiet"), child_env())
    assert "Traceback" not in result.stderr, result.err
    assert result.returncode == EXIT_OK, result.err
    manifest = read_manifest(store, "flipped")
    assert manifest["rejects"] == 1
    counts = manifest["counts"]
    assert isinstance(counts, dict)
    assert counts["entities"] == SAMPLE_ENTITIES - 1
    rejects = (snapshot_dir(store, "flipped") / "rejects.jsonl").read_bytes().splitlines()
    assert [msgspec.json.decode(r)["line"] for r in rejects] == [_line_of(data, offset)]


MALFORMED_AT = {"truncated-json": 10, "id-not-a-string": 150, "not-json": 250}
"""Index (0-based, among the 300 entity lines) of each damaged entity."""


@pytest.fixture(scope="module")
def malformed(tmp_path_factory: pytest.TempPathFactory, small_lines: list[bytes]) -> Path:
    """300 entity lines, three of them broken in different ways (297 good entities)."""
    lines = list(small_lines)
    cut = lines[MALFORMED_AT["truncated-json"]]
    lines[MALFORMED_AT["truncated-json"]] = cut[: len(cut) // 2]
    lines[MALFORMED_AT["id-not-a-string"]] = b'{"id": 12}'
    lines[MALFORMED_AT["not-json"]] = b"this line is not JSON at all"
    path = tmp_path_factory.mktemp("malformed") / "malformed.json"
    path.write_bytes(array_dump(lines))
    return path


def assert_three_rejects(store: Path, name: str, source: Path) -> None:
    """The snapshot kept the 297 good entities and lists the three bad lines."""
    manifest = read_manifest(store, name)
    assert manifest["rejects"] == len(MALFORMED_AT)
    assert manifest["rejects_file"] == "rejects.jsonl"
    counts = manifest["counts"]
    assert isinstance(counts, dict)
    assert counts["entities"] == SMALL_ENTITIES - len(MALFORMED_AT)
    assert parquet_rows(snapshot_dir(store, name) / "entities") == counts["entities"]
    data = source.read_bytes()
    records = [
        msgspec.json.decode(line)
        for line in (snapshot_dir(store, name) / "rejects.jsonl").read_bytes().splitlines()
    ]
    # line 1 is "[", so entity line i (0-based) is line i + 2 of the file
    assert sorted(r["line"] for r in records) == sorted(i + 2 for i in MALFORMED_AT.values())
    for record in records:
        assert isinstance(record["error"], str) and record["error"].strip(), record
        assert _line_of(data, record["offset"]) == record["line"], record
        assert record["source"] == str(source.resolve())


def test_malformed_entities_become_rejects(tmp_path: Path, malformed: Path) -> None:
    """Three broken entity lines: exit 0, 297 entities, three records in rejects.jsonl."""
    store = tmp_path / "store"
    result = run_cli(ingest_args(malformed, store, "malformed", *CHUNKED, "--quiet"))
    assert result.returncode == EXIT_OK, result.err
    assert result.stderr == "", result.err
    assert_three_rejects(store, "malformed", malformed)
    assert catalog_names(store) == ["malformed"]


def test_max_rejects_aborts_then_a_higher_limit_finishes(tmp_path: Path, malformed: Path) -> None:
    """``--max-rejects 2`` with three rejects: exit 4, nothing published; then 3 → exit 0.

    The second run resumes the first one's staging folder, so this also checks
    that resumed parts do not repeat their rejects.
    """
    store = tmp_path / "store"
    result = run_cli(ingest_args(malformed, store, "limited", *CHUNKED, "--max-rejects", "2"))
    assert result.returncode == EXIT_REJECTS, result.err
    assert_one_line_error(result.stderr, "--max-rejects 2")
    assert_not_published(store, "limited")
    result = run_cli(ingest_args(malformed, store, "limited", *CHUNKED, "--max-rejects", "3"))
    assert result.returncode == EXIT_OK, result.err
    assert_three_rejects(store, "limited", malformed)


# ----------------------------------------------------------------------------- wrong invocations


def test_missing_file(tmp_path: Path, busy_store: Path) -> None:
    """A path that does not exist: exit 3 with the path in the message."""
    missing = tmp_path / "no-such-dump.json.gz"
    result = run_cli(ingest_args(missing, busy_store, "missing"))
    assert result.returncode == EXIT_INPUT, result.err
    assert_one_line_error(result.stderr, str(missing.resolve()))
    assert_not_published(busy_store, "missing")


NOT_DUMPS = {
    "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06",
    "text": b"This is a README, not a Wikidata dump.\nIt has two lines.\n",
    "empty": b"",
}


@pytest.mark.parametrize("kind", NOT_DUMPS)
def test_file_that_is_not_a_dump(tmp_path: Path, busy_store: Path, kind: str) -> None:
    """A PNG, plain text or an empty file named like a dump: exit 3 at offset 0."""
    path = tmp_path / f"{kind}.json"
    path.write_bytes(NOT_DUMPS[kind])
    result = run_cli(ingest_args(path, busy_store, f"not-a-dump-{kind}"))
    assert_refused(result, busy_store, f"not-a-dump-{kind}", path, EXIT_INPUT)


@pytest.mark.parametrize("date", ["2014-13-45", "yesterday", "2014/12/01"])
def test_bad_date_is_a_usage_error(tmp_path: Path, small_dump: Path, date: str) -> None:
    """``--date`` that is not YYYY-MM-DD: exit 2 before anything is created."""
    store = tmp_path / "store"
    args = ingest_args(small_dump, store, "dated")
    args[args.index("--date") + 1] = date
    result = run_cli(args)
    assert result.returncode == EXIT_USAGE, result.err
    assert_one_line_error(result.stderr, "--date", date)
    assert not store.exists()


def test_snapshot_name_taken_by_another_file(
    tmp_path: Path, busy_store: Path, small_lines: list[bytes]
) -> None:
    """Ingesting another file under a published name: exit 5, the old snapshot untouched."""
    before = file_identities(snapshot_dir(busy_store, EXISTING))
    manifest_before = read_manifest(busy_store, EXISTING)
    other = tmp_path / "other.json"
    other.write_bytes(array_dump(small_lines[:50]))
    result = run_cli(ingest_args(other, busy_store, EXISTING, *CHUNKED))
    assert result.returncode == EXIT_STORE, result.err
    assert_one_line_error(result.stderr, repr(EXISTING))
    assert file_identities(snapshot_dir(busy_store, EXISTING)) == before
    assert read_manifest(busy_store, EXISTING) == manifest_before
    names = catalog_names(busy_store)
    assert names is not None and EXISTING in names


def test_reingest_of_the_same_file_is_a_no_op(tmp_path: Path, small_dump: Path) -> None:
    """The same file under the same name again: exit 0 and not one file rewritten."""
    store = tmp_path / "store"
    # the first ingest (as CHUNKED) in this process: the second one is under test
    first = IngestRequest(small_dump, "again", SAMPLE_DATE, store, workers=2, chunk_bytes=1 << 20)
    assert ingest_wikidata(first).status == "ingested"
    published = file_identities(snapshot_dir(store, "again"))
    catalog = file_identities(store)["kg.duckdb"]
    result = run_cli(ingest_args(small_dump, store, "again", *CHUNKED))
    assert result.returncode == EXIT_OK, result.err
    assert "already built" in result.stdout
    assert file_identities(snapshot_dir(store, "again")) == published
    assert file_identities(store)["kg.duckdb"] == catalog
    assert not (store / ".staging" / "again").exists()
