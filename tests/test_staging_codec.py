"""The staging parts' compression (none, LZ4 or zstd): the same snapshot whichever is used.

The codec only changes how the parsed chunks wait on disk for the sort: the published
tables must not depend on it, a staging folder written with one codec must finalize when
the run is resumed with the other (each part file names its codec), and an unknown codec
is refused before anything is written.
"""

from __future__ import annotations

import bz2
from pathlib import Path

import pyarrow as pa
import pyarrow.ipc as ipc
import pytest

from kgdiff.cli.ingest import StagingCodec
from kgdiff.errors import UsageError
from kgdiff.ingest.parse import parse_json_chunk
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.ingest.staging_choice import STAGING_CHOICES
from kgdiff.readers.json_dump import Chunk
from kgdiff.store.buckets import key_ranges
from kgdiff.store.staging import STAGING_CODECS, PartMeta, part_file, part_name, write_part
from tests.faultkit import TABLES, sample_dump, table_differences
from tests.paths import SAMPLES, run_kgdiff

JSON_SAMPLE = SAMPLES / "testDump_json_2014-12.json.bz2"


def _write(parts: Path, tables: dict[str, pa.Table], compression: str) -> Path:
    meta = PartMeta(seq=0, entities=1, statements=0, rejects=0, input_bytes=0)
    parts.mkdir(parents=True)
    write_part(parts, meta, [(tables, key_ranges(tables))], [], compression)
    return parts / part_name(0)


def test_parts_read_back_the_same_whatever_the_codec_and_shrink_in_order(tmp_path: Path) -> None:
    # the sample parsed once: the codec only changes how write_part stores the same tables
    tables = parse_json_chunk(Chunk(0, 0, 0, bz2.decompress(JSON_SAMPLE.read_bytes()))).tables
    folders = {codec: _write(tmp_path / codec, tables, codec) for codec in STAGING_CODECS}
    for table in TABLES:
        files = {codec: part_file(folder, table) for codec, folder in folders.items()}
        read = {codec: ipc.open_file(str(path)).read_all() for codec, path in files.items()}
        for codec in STAGING_CODECS:
            assert read[codec].equals(read["lz4"]), (table, codec)
    size = {codec: part_file(folder, "labels").stat().st_size for codec, folder in folders.items()}
    assert size["zstd"] < size["lz4"] < size["none"]


def test_the_snapshot_does_not_depend_on_the_staging_codec(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    dump = sample_dump(tmp_path_factory)
    out = {}
    for codec in STAGING_CODECS:
        store = tmp_path / codec
        request = IngestRequest(dump, "s", "2014-12-01", store, staging_compression=codec)
        result = ingest_wikidata(request)
        assert result.manifest.staging_compression == codec
        out[codec] = result.directory
    for codec in STAGING_CODECS:
        for table in TABLES:
            assert table_differences(out["lz4"], out[codec], table) == (0, 0), (codec, table)


class CountChunks:
    """Progress that counts the chunks parsed in this run; ``stop`` interrupts after the first."""

    def __init__(self, stop: bool = False) -> None:
        self.stop = stop
        self.parsed = 0

    def begin(self, description: str, total_bytes: int) -> None:
        """Nothing to do."""

    def update(self, done_bytes: int, entities: int, statements: int) -> None:
        """Count one finished chunk; interrupt, as Ctrl-C would, when asked to stop."""
        self.parsed += 1
        if self.stop:
            raise KeyboardInterrupt

    def phase(self, description: str) -> None:
        """Nothing to do."""

    def advance(self, done: float, total: float) -> None:
        """Nothing to do."""

    def end(self) -> None:
        """Nothing to do."""


SMALL_CHUNKS = 256 << 10
"""Several chunks, so that one is finished when the run stops."""


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """An uninterrupted ingest in :data:`SMALL_CHUNKS` (the default codec): its snapshot
    folder and how many chunks it parsed (the reference of every resumed run below)."""
    dump = sample_dump(tmp_path_factory)
    store = tmp_path_factory.mktemp("whole") / "a"
    whole = CountChunks()
    reference = ingest_wikidata(
        IngestRequest(dump, "s", "2014-12-01", store, chunk_bytes=SMALL_CHUNKS), whole
    )
    return reference.directory, whole.parsed


@pytest.mark.parametrize(("first", "then"), [("zstd", "auto"), ("none", "lz4")])
def test_a_run_resumed_with_another_codec_finishes_the_same(
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    whole_run: tuple[Path, int],
    first: str,
    then: str,
) -> None:
    dump = sample_dump(tmp_path_factory)
    small = SMALL_CHUNKS
    reference, parsed = whole_run
    store = tmp_path / "b"
    interrupted = IngestRequest(
        dump, "s", "2014-12-01", store, chunk_bytes=small, staging_compression=first
    )
    with pytest.raises(KeyboardInterrupt):
        ingest_wikidata(interrupted, CountChunks(stop=True))
    staged = [p for p in (store / ".staging" / "s" / "parts").iterdir() if p.name.isdigit()]
    assert staged, "the interrupted run kept no finished chunk"
    rest = CountChunks()
    resumed = ingest_wikidata(
        IngestRequest(dump, "s", "2014-12-01", store, chunk_bytes=small, staging_compression=then),
        rest,
    )
    assert rest.parsed == parsed - len(staged)  # the first run's parts were used
    for table in TABLES:
        assert table_differences(reference, resumed.directory, table) == (0, 0)


def test_an_unknown_codec_is_refused_before_anything_is_written(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    request = IngestRequest(
        sample_dump(tmp_path_factory), "s", "2014-12-01", tmp_path, staging_compression="gzip"
    )
    refusal = "unknown staging compression 'gzip'; use one of auto, lz4"
    with pytest.raises(UsageError, match=refusal):
        ingest_wikidata(request)
    assert not any(tmp_path.iterdir())


def test_the_command_line_takes_the_codec(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    dump = sample_dump(tmp_path_factory)
    store = tmp_path / "store"
    args = ["ingest", "wikidata", str(dump), "--date", "2014-12-01", "--store", str(store)]
    refused = run_kgdiff(*args, "--staging-compression", "brotli")
    assert refused.returncode == 2 and "brotli" in refused.stderr
    done = run_kgdiff(*args, "--staging-compression", "zstd", "--quiet")
    assert done.returncode == 0, done.stderr
    assert (store / "snapshots" / "snapshot=wikidata-20141201" / "manifest.json").is_file()


def test_the_command_line_offers_exactly_the_staging_choices() -> None:
    assert [codec.value for codec in StagingCodec] == list(STAGING_CHOICES)
