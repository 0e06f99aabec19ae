"""``kgdiff spark ingest wikidata`` on a two-executor cluster equals the local ingest."""

from __future__ import annotations

import bz2
import shutil
from collections.abc import Iterator
from datetime import date, datetime, time
from pathlib import Path

import duckdb
import orjson
import pyarrow.parquet as pq
import pytest

from kgdiff.demo import Sample, load_samples
from kgdiff.errors import InputError, UsageError
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.readers.wikidata_xml import decode_entity_text, iter_entity_pages
from kgdiff.store.layout import TABLES, StoreLayout, table_files
from kgdiff.store.manifest import read_manifest
from tests.paths import SAMPLES

pytest.importorskip("pyspark")
if shutil.which("java") is None:
    pytest.skip("the Spark tests need Java (scripts/system-packages test)", allow_module_level=True)

from kgdiff.spark.ingest import SparkIngestRequest, spark_ingest
from tests.spark_session import cluster_session

JSON_SAMPLES = [s for s in load_samples() if s.file.endswith(".json.bz2")]
SPLIT_BYTES = 512 * 1024
"""Small splits, so that a sample is read by several tasks on both executors."""


@pytest.fixture(scope="module")
def spark() -> Iterator[object]:
    yield from cluster_session()


def _table(folder: Path, table: str) -> list[tuple[object, ...]]:
    files = [str(path) for path in table_files(folder, table)]
    connection = duckdb.connect()
    return connection.sql(f"SELECT * FROM read_parquet({files!r}) ORDER BY ALL").fetchall()


def _schema(folder: Path, table: str) -> object:
    return pq.read_schema(table_files(folder, table)[0])


def json_dump_of(sample: Sample, folder: Path) -> Path:
    """The real snapshot ``sample`` as a JSON dump: a JSON sample as it is; for an XML dump,
    the revision its date selects of each entity page, made canonical JSON (the 2013 dump's
    legacy texts converted as the XML ingest converts them), one entity a line."""
    if sample.file.endswith(".json.bz2"):
        return SAMPLES / sample.file
    as_of = datetime.combine(date.fromisoformat(sample.date), time(23, 59, 59))
    with bz2.open(SAMPLES / sample.file) as stream:
        texts = [decode_entity_text(p.text) for p in iter_entity_pages(stream, as_of=as_of)]
    assert len(texts) > 100
    lines = [orjson.dumps(doc) for doc in texts]
    dump = folder / f"wikidata-{sample.date.replace('-', '')}-all.json.bz2"
    dump.write_bytes(bz2.compress(b"[\n" + b",\n".join(lines) + b"\n]\n"))
    return dump


SPARK_SAMPLES = [sample for sample in load_samples() if sample.name != "wd-2013-12"]
"""The JSON dump of December 2014 and the XML dump of October 2014 (legacy and current
JSON, converted: the Spark ingest reads JSON dumps); the 2013 sample's legacy entities, once
converted, are entities of the kinds the October one holds."""


@pytest.mark.parametrize("sample", SPARK_SAMPLES, ids=lambda s: s.name)
def test_spark_snapshot_equals_local(spark: object, sample: Sample, tmp_path: Path) -> None:
    """Real Wikidata samples (the XML one as a JSON dump: the Spark ingest reads JSON
    dumps) give the same snapshot on the cluster as locally: schemas, rows, counts."""
    dump = json_dump_of(sample, tmp_path)
    local = ingest_wikidata(
        IngestRequest(
            path=dump,
            snapshot=sample.name,
            date=sample.date,
            store=tmp_path / "local",
            coverage=sample.coverage,
        )
    )
    remote = spark_ingest(
        SparkIngestRequest(
            path=dump,
            snapshot=sample.name,
            date=sample.date,
            store=tmp_path / "spark",
            coverage=sample.coverage,
            split_bytes=SPLIT_BYTES,
            chunk_bytes=1 << 20,
        ),
        spark,  # type: ignore[arg-type]
    )
    assert remote.status == "ingested"
    assert local.manifest.counts["statements"] > 1000
    assert remote.manifest.counts == local.manifest.counts
    assert remote.manifest.rejects == local.manifest.rejects
    assert remote.manifest.source.sha256 == local.manifest.source.sha256
    for table in [*TABLES, "coverage"]:
        assert _schema(remote.directory, table) == _schema(local.directory, table), table
        assert _table(remote.directory, table) == _table(local.directory, table), table
    assert StoreLayout.resolve(tmp_path / "spark").published_names() == [sample.name]
    assert not any((tmp_path / "spark" / ".staging").iterdir())


def dump_with_rejects(path: Path) -> None:
    lines = [
        b"[",
        b'{"type":"item","id":"Q1","labels":{"en":{"language":"en","value":"one"}},"claims":{}},',
        b'{"type":"item","id":"Q2","labels":{"en":',
        b'{"type":"item","id":"Q3","claims":{}},',
        b'{"type":"item","claims":{}}',
        b"]",
    ]
    path.write_bytes(bz2.compress(b"\n".join(lines) + b"\n"))


def test_rejects_as_in_the_local_path(spark: object, tmp_path: Path) -> None:
    dump = tmp_path / "wikidata-20200101-all.json.bz2"
    dump_with_rejects(dump)
    local = ingest_wikidata(IngestRequest(path=dump, store=tmp_path / "local"))
    remote = spark_ingest(SparkIngestRequest(path=dump, store=tmp_path / "spark"), spark)  # type: ignore[arg-type]
    assert remote.manifest.rejects == local.manifest.rejects == 2
    assert remote.manifest.counts == local.manifest.counts
    rejects = [(d / "rejects.jsonl").read_text() for d in (remote.directory, local.directory)]
    assert rejects[0] == rejects[1]
    assert _table(remote.directory, "entities") == _table(local.directory, "entities")


def _dump_with_duplicates(path: Path) -> int:
    """The real 2014-12 sample with its first 30 entities again at the end, without their
    statements: ten later copies kept as the last read, ten kept for their lastrevid, ten
    left out for theirs (the originals have a higher one). Returns the copies' number."""
    lines = bz2.decompress((SAMPLES / JSON_SAMPLES[0].file).read_bytes()).splitlines()
    docs = [orjson.loads(line.rstrip(b",")) for line in lines[1:-1] if line.strip()]
    copies = []
    for index, doc in enumerate(docs[:30]):
        copy = {key: value for key, value in doc.items() if key != "claims"}
        if index % 3 == 1:
            copy["lastrevid"] = 1
        elif index % 3 == 2:
            doc["lastrevid"], copy["lastrevid"] = 2, 1
        copies.append(copy)
    body = b",\n".join(orjson.dumps(doc) for doc in [*docs, *copies])
    path.write_bytes(bz2.compress(b"[\n" + body + b"\n]\n"))
    return len(copies)


def test_duplicates_as_in_the_local_path(spark: object, tmp_path: Path) -> None:
    """Repeated ids read by several tasks: the cluster keeps the occurrences the local
    ingest keeps (issue 34), with the same tables, counts and rejects records."""
    dump = tmp_path / "wikidata-20141231-all.json.bz2"
    copies = _dump_with_duplicates(dump)
    local = ingest_wikidata(IngestRequest(path=dump, store=tmp_path / "local"))
    request = SparkIngestRequest(
        path=dump, store=tmp_path / "spark", split_bytes=SPLIT_BYTES, chunk_bytes=1 << 20
    )
    remote = spark_ingest(request, spark)  # type: ignore[arg-type]
    assert remote.manifest.duplicates == local.manifest.duplicates == copies
    assert remote.manifest.counts == local.manifest.counts
    for table in TABLES:
        assert _table(remote.directory, table) == _table(local.directory, table), table
    rejects = [(d / "rejects.jsonl").read_text() for d in (remote.directory, local.directory)]
    assert rejects[0] == rejects[1] and rejects[0].count('"reason":"duplicate"') == copies


def test_truncated_bz2_fails_and_publishes_nothing(spark: object, tmp_path: Path) -> None:
    whole = (SAMPLES / JSON_SAMPLES[0].file).read_bytes()
    dump = tmp_path / "wikidata-20141231-all.json.bz2"
    dump.write_bytes(whole[: len(whole) * 2 // 3])
    with pytest.raises(InputError, match=rf"{dump}: (compressed )?offset \d+: .*end-of-stream"):
        spark_ingest(SparkIngestRequest(path=dump, store=tmp_path / "store"), spark)  # type: ignore[arg-type]
    layout = StoreLayout.resolve(tmp_path / "store")
    assert layout.published_names() == []


def test_corrupt_bz2_block_fails_naming_the_file(spark: object, tmp_path: Path) -> None:
    whole = bytearray((SAMPLES / JSON_SAMPLES[0].file).read_bytes())
    middle = len(whole) // 2
    whole[middle : middle + 64] = bytes(64)
    dump = tmp_path / "wikidata-20141231-all.json.bz2"
    dump.write_bytes(bytes(whole))
    with pytest.raises(InputError, match=rf"{dump}: compressed offset \d+"):
        spark_ingest(SparkIngestRequest(path=dump, store=tmp_path / "store"), spark)  # type: ignore[arg-type]
    layout = StoreLayout.resolve(tmp_path / "store")
    assert layout.published_names() == []
    assert not list(layout.snapshots_dir.iterdir())


def test_xml_dump_is_refused(spark: object, tmp_path: Path) -> None:
    xml = next(s for s in load_samples() if s.file.endswith(".xml.bz2"))
    with pytest.raises(UsageError, match="JSON dumps only"):
        spark_ingest(
            SparkIngestRequest(path=SAMPLES / xml.file, date=xml.date, store=tmp_path),
            spark,  # type: ignore[arg-type]
        )


def test_ingesting_again_finds_it_unchanged(spark: object, tmp_path: Path) -> None:
    dump = tmp_path / "wikidata-20200101-all.json.bz2"
    dump_with_rejects(dump)
    request = SparkIngestRequest(path=dump, store=tmp_path / "spark")
    first = spark_ingest(request, spark)  # type: ignore[arg-type]
    again = spark_ingest(request, spark)  # type: ignore[arg-type]
    assert (first.status, again.status) == ("ingested", "unchanged")
    assert read_manifest(first.directory / "manifest.json").row_builder in ("native", "python")
