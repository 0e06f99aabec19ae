"""Inputs an ingest must refuse without publishing anything (issue 34, findings 1 and 13):
an input that gives no entity (no page, no row), a folder instead of a file, an RDF/XML file
whose text comes from an external entity; and the publishing step's own check, which never
renames a folder the catalog cannot read into place.

Real files where one exists (tests/data, the bundled samples); the empty inputs are the few
bytes that make them empty."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import duckdb
import msgspec
import pytest
import rdflib

from kgdiff.errors import InputError, StoreError
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.ingest.rdf_snapshot import RdfIngestRequest, ingest_rdf
from kgdiff.pageviews.ingest import PageviewIngest, ingest_file
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import read_manifest
from kgdiff.store.publish import publish_snapshot
from kgdiff.wikipedia.ingest import WikipediaRequest, ingest_wikipedia
from tests.paths import DATA, run_kgdiff

ENTITY_FILE = DATA / "wd_Q42.json"
PEAR = DATA / "wikipedia" / "article-pear.xml"
DAILY_XML = DATA / "sample-daily-dump-20140220.xml"
PAGEVIEWS = DATA / "pageviews" / "pageviews-20190701-210000.head10.txt"
RDF_SOURCE = DATA / "rdf" / "Q37599471.ttl"


def _published(store: Path) -> list[str]:
    return StoreLayout.resolve(store).published_names()


def _catalog_reads(store: Path) -> int:
    """Rebuild the catalog from the folders (as ``kgdiff snapshots catalog``) and count the
    snapshots its view lists."""
    result = run_kgdiff("snapshots", "catalog", "--store", str(store))
    assert result.returncode == 0, result.stderr
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        (count,) = connection.execute("SELECT count(*) FROM snapshots").fetchall()[0]
    return int(count)


# -- finding 1: an input without entities -----------------------------------------------------


def test_an_empty_dump_publishes_nothing_and_the_store_keeps_working(tmp_path):
    """The issue's command: exit 3, one line naming the file and what it held; afterwards
    a good ingest and the catalog work (before: exit 70, a published ``snapshot=bad`` without
    part files, and every later ingest and catalog rebuild failing)."""
    zero = tmp_path / "zero.json"
    zero.write_bytes(b"[\n]\n")
    store = tmp_path / "store"
    result = run_kgdiff(
        "ingest", "wikidata", str(zero), "--snapshot", "bad", "--date", "2015-02-01",
        "--coverage", "subset", "--store", str(store),
    )  # fmt: skip
    assert result.returncode == 3, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"{zero} holds no entity (an empty JSON array); nothing was published" in lines[0]
    assert _published(store) == []
    assert not (store / "snapshots" / "snapshot=bad").exists()
    assert not (store / ".staging" / "bad").exists()  # nothing worth resuming
    good = run_kgdiff(
        "ingest", "wikidata", str(ENTITY_FILE), "--snapshot", "good", "--date", "2015-02-01",
        "--store", str(store), "-q",
    )  # fmt: skip
    assert good.returncode == 0, good.stderr
    assert _catalog_reads(store) == 1


def _refused(path: Path, store: Path, date: str = "2015-02-01") -> str:
    with pytest.raises(InputError) as caught:
        ingest_wikidata(IngestRequest(path, snapshot="x", date=date, store=store))
    assert _published(store) == []
    return str(caught.value)


def test_an_entity_document_without_entities_is_refused(tmp_path):
    document = tmp_path / "none.json"
    document.write_bytes(b'{"entities": {}}')
    message = _refused(document, tmp_path / "store")
    assert message == (
        f"{document} holds no entity (a JSON document without entities); nothing was published"
    )


def test_an_xml_dump_without_entity_pages_is_refused(tmp_path):
    """A real Wikipedia page export given as a Wikidata XML dump: one page, no entity."""
    message = _refused(PEAR, tmp_path / "store")
    assert "holds no entity (1 page, none of them a Wikibase entity)" in message


def test_an_xml_dump_whose_entities_all_begin_after_the_date_is_refused(tmp_path):
    """The real daily dump of 2014-02-20 read as of 2010: its entity page has no revision yet."""
    message = _refused(DAILY_XML, tmp_path / "store", date="2010-01-01")
    assert "1 entity page whose first revision is after --date 2010-01-01" in message
    assert "choose a later date" in message


def test_a_dump_whose_entities_are_all_malformed_is_refused_and_its_rejects_kept(tmp_path):
    """Q42 (real) twice, each with one field of the wrong type: both are rejects."""
    q42 = msgspec.json.decode(ENTITY_FILE.read_bytes())
    lines = [
        msgspec.json.encode({**q42, "id": 42}),
        msgspec.json.encode({**q42, "claims": {"P31": [{"mainsnak": 5}]}}),
    ]
    dump = tmp_path / "bad.json"
    dump.write_bytes(b"[\n" + b",\n".join(lines) + b"\n]\n")
    message = _refused(dump, tmp_path / "store")
    assert re.search(
        r"holds no entity that could be read: all 2 were malformed \(the first "
        r"at line 2: .+\); nothing was published; see .+rejects\.jsonl",
        message,
    )
    rejects = list((tmp_path / "store" / ".staging" / "x" / "parts").glob("*/rejects.jsonl"))
    assert rejects


def test_a_wikipedia_dump_without_pages_is_refused(tmp_path):
    """The real pear export with its one page cut out."""
    text = PEAR.read_text(encoding="utf-8")
    empty = tmp_path / "nopage.xml"
    empty.write_text(text[: text.index("<page>")] + text[text.rindex("</page>") + 7 :])
    store = tmp_path / "store"
    with pytest.raises(InputError, match=r"nopage.xml holds no page revision \(no page\); nothing"):
        ingest_wikipedia(WikipediaRequest(empty, snapshot="wp", date="2010-01-01", store=store))
    assert StoreLayout.resolve(store).wikipedia_names() == []


def test_a_rdf_file_without_entities_is_refused(tmp_path):
    rdf = tmp_path / "empty.ttl"
    rdf.write_text("@prefix wd: <http://www.wikidata.org/entity/> .\n")
    with pytest.raises(InputError, match="no Wikibase entity found"):
        ingest_rdf(RdfIngestRequest(rdf, snapshot="r", date="2020-01-01", store=tmp_path / "s"))
    assert _published(tmp_path / "s") == []


@pytest.mark.parametrize(
    ("content", "seen"),
    [
        (b"", "an empty file"),
        (b"\n\n", "blank lines only"),
        (b"en Main_Page\nde\n", "all 2 lines malformed: 2 \u00d7 field_count"),
    ],
)
def test_a_page_view_file_without_counts_is_refused(tmp_path, content, seen):
    path = tmp_path / "pageviews-20190701-210000"
    path.write_bytes(content)
    store = tmp_path / "store"
    with pytest.raises(InputError) as caught:
        ingest_file(PageviewIngest(path, store=store))
    assert str(caught.value) == f"{path} holds no page view count ({seen}); nothing was published"
    assert StoreLayout.resolve(store).pageview_sources() == []


def test_a_page_view_file_without_the_wiki_asked_is_published_empty_and_readable(tmp_path):
    """Its lines were read: the source says that wiki had no views that hour."""
    path = tmp_path / PAGEVIEWS.name.removesuffix(".head10.txt")
    shutil.copy(PAGEVIEWS, path)
    store = tmp_path / "store"
    outcome = ingest_file(PageviewIngest(path, store=store, wikis=("enwiki",)))
    assert outcome.manifest["counts"]["rows_written"] == 0
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        assert connection.execute("SELECT count(*) FROM pageviews").fetchone() == (0,)


# -- the publishing step checks what it publishes ------------------------------------------


@pytest.fixture
def one_snapshot(tmp_path: Path) -> Path:
    """A store with Q42 (real) ingested, as ``entity``."""
    store = tmp_path / "store"
    ingest_wikidata(IngestRequest(ENTITY_FILE, snapshot="entity", date="2015-01-01", store=store))
    return store


def _publish_copy(store: Path, spoil: str) -> None:
    """Publish a copy of snapshot ``entity`` as ``copy`` after removing ``spoil`` from it."""
    layout = StoreLayout.resolve(store)
    source = layout.snapshot_dir("entity")
    folder = store / ".staging" / "copy"
    shutil.copytree(source, folder)
    (folder / "manifest.json").unlink()
    for path in folder.glob(spoil):
        path.unlink()
    manifest = read_manifest(source / "manifest.json")
    publish_snapshot(layout, folder, msgspec.structs.replace(manifest, name="copy"))


@pytest.mark.parametrize(
    ("spoil", "problem"),
    [
        ("labels/part-*.parquet", "table labels has no Parquet file"),
        ("coverage/part-*.parquet", "table coverage has no Parquet file"),
    ],
)
def test_a_folder_without_a_tables_files_is_never_published(one_snapshot, spoil, problem):
    with pytest.raises(StoreError, match=f"snapshot 'copy' is incomplete: {problem}"):
        _publish_copy(one_snapshot, spoil)
    assert _published(one_snapshot) == ["entity"]
    assert _catalog_reads(one_snapshot) == 1


def test_a_folder_whose_rows_differ_from_its_manifest_is_never_published(one_snapshot):
    layout = StoreLayout.resolve(one_snapshot)
    source = layout.snapshot_dir("entity")
    manifest = read_manifest(source / "manifest.json")
    folder = one_snapshot / ".staging" / "copy"
    shutil.copytree(source, folder)
    counts = {**manifest.counts, "statements": manifest.counts["statements"] + 1}
    wrong = msgspec.structs.replace(manifest, name="copy", counts=counts)
    with pytest.raises(StoreError, match=r"table statements holds \d+ rows, its manifest counts"):
        publish_snapshot(layout, folder, wrong)
    assert _published(one_snapshot) == ["entity"]


# -- finding 13: a folder given instead of a file ----------------------------------------------


@pytest.mark.parametrize(
    ("command", "wanted"),
    [
        (["ingest", "wikidata"], "a Wikidata dump"),
        (["ingest", "wikipedia"], "a MediaWiki XML dump"),
        (["ingest", "rdf"], "an RDF file"),
        (["ingest", "pageviews"], "a page view dump file"),
        (["spark", "ingest", "wikidata"], "a Wikidata JSON dump"),
    ],
)
def test_a_folder_is_named_a_folder(tmp_path, command, wanted):
    folder = tmp_path / "dumps"
    folder.mkdir()
    shutil.copy(ENTITY_FILE, folder)
    result = run_kgdiff(*command, str(folder), "--date", "2015-01-01", "--store", str(tmp_path))
    assert result.returncode == 3, result.stderr
    line = result.stderr.strip()
    assert "\n" not in line and "no such file" not in line
    assert f"{folder} is a directory, not a file; give the path of {wanted}" in line
    assert not (tmp_path / "snapshots").exists() or _published(tmp_path) == []


# -- finding 13: an RDF/XML external entity --------------------------------------------------


def _rdf_xml(tmp_path: Path, doctype: str, label_text: str, name: str = "q") -> Path:
    """The real Q37599471 Turtle file as RDF/XML, with ``doctype`` before its root and
    ``label_text`` in place of the text of its English label."""
    graph = rdflib.Graph().parse(RDF_SOURCE, format="turtle")
    xml = graph.serialize(format="xml", encoding="utf-8").decode("utf-8")
    label = next(
        str(o) for _, p, o in graph
        if p == rdflib.RDFS.label and getattr(o, "language", None) == "en"
    )  # fmt: skip
    head, body = xml.split("\n", 1)
    body = body.replace(f'xml:lang="en">{label}<', f'xml:lang="en">{label_text}<')
    path = tmp_path / f"{name}.rdf"
    path.write_text(f"{head}\n{doctype}\n{body}", encoding="utf-8")
    return path


def _ingest_xml(path: Path, store: Path, name: str) -> Path:
    request = RdfIngestRequest(path, snapshot=name, date="2024-04-08", store=store)
    return ingest_rdf(request).ingest.directory


def test_an_rdf_xml_external_entity_is_refused(tmp_path):
    """Before: the entity was dropped and the label published as ''."""
    doctype = '<!DOCTYPE rdf:RDF [ <!ENTITY secret SYSTEM "file:///etc/hostname"> ]>'
    path = _rdf_xml(tmp_path, doctype, "&secret;")
    store = tmp_path / "store"
    with pytest.raises(InputError) as caught:
        _ingest_xml(path, store, "x")
    message = str(caught.value)
    assert message.startswith(f"{path}: line 2: the RDF/XML declares the external entity")
    assert "&secret;" in message and "file:///etc/hostname" in message and "\n" not in message
    assert _published(store) == []


def test_an_entity_of_an_external_dtd_is_refused(tmp_path):
    doctype = '<!DOCTYPE rdf:RDF SYSTEM "http://example.org/wikibase.dtd">'
    path = _rdf_xml(tmp_path, doctype, "&name;")
    with pytest.raises(InputError, match=r"uses the entity &name; that its DTD does not declare"):
        _ingest_xml(path, tmp_path / "store", "x")


def test_an_internal_entity_is_still_read(tmp_path):
    """OWL files declare namespaces as internal entities: plain text, kept working."""
    plain = _ingest_xml(_rdf_xml(tmp_path, "", "Douglas"), tmp_path / "store", "plain")
    doctype = '<!DOCTYPE rdf:RDF [ <!ENTITY first "Doug"> ]>'
    path = _rdf_xml(tmp_path, doctype, "&first;las", "entity")
    entity = _ingest_xml(path, tmp_path / "store", "entity")
    query = "SELECT value FROM '{}/labels/*.parquet' WHERE lang = 'en' AND kind = 'label'"
    with duckdb.connect() as connection:
        assert connection.execute(query.format(plain)).fetchall() == [("Douglas",)]
        assert connection.execute(query.format(entity)).fetchall() == [("Douglas",)]
