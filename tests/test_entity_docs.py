"""Single-entity files (EntityData, wbgetentities, bare entities) and input detection."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import duckdb
import pytest
from qwikidata.entity import WikidataItem

from kgdiff.errors import UsageError
from kgdiff.ingest.detect import ENTITY_DOC, JSON_DUMP, XML_DUMP, classify_head, resolve_date
from kgdiff.ingest.pipeline import IngestRequest, IngestResult, ingest_wikidata
from kgdiff.store.layout import table_files
from tests.paths import DATA


def ingest(path: Path, store: Path, name: str) -> IngestResult:
    return ingest_wikidata(IngestRequest(path=path, snapshot=name, date="2024-01-01", store=store))


def rows(result: IngestResult, table: str, where: str = "true") -> list[tuple[object, ...]]:
    files = [str(path) for path in table_files(result.directory, table)]
    query = f"SELECT * EXCLUDE (snapshot) FROM read_parquet({files}) WHERE {where}"
    return duckdb.execute(query).fetchall()


def test_q42_statements_match_qwikidata(tmp_path: Path) -> None:
    """Every item-valued claim of Q42 as qwikidata reads it is in the statements table."""
    result = ingest(DATA / "wd_Q42.json", tmp_path, "q42")
    item = WikidataItem(json.loads((DATA / "wd_Q42.json").read_text(encoding="utf-8")))
    groups = item.get_claim_groups()
    assert result.manifest.counts["statements"] == sum(len(g) for g in groups.values())
    expected = set()
    for pid, group in groups.items():
        for claim in group:
            snak = claim.mainsnak
            if snak.snaktype == "value" and snak.snak_datatype == "wikibase-item":
                expected.add((claim.property_id, snak.datavalue.value["id"]))
                assert claim.property_id == pid
    found = duckdb.execute(
        f"SELECT pid, object_qid FROM '{result.directory}/statements/*.parquet'"
        " WHERE object_qid IS NOT NULL AND value_type = 'wikibase-entityid'"
    ).fetchall()
    assert {(p, q) for p, q in found if q.startswith("Q")} == expected
    born = duckdb.execute(
        f"SELECT value, time_lo FROM '{result.directory}/statements/*.parquet' WHERE pid = 'P569'"
    ).fetchall()
    assert born == [("+1952-03-11T00:00:00Z|11|Q1985727", date(1952, 3, 11))]


@pytest.mark.parametrize(
    ("file", "kind", "statements"),
    [
        ("wdtk_lexeme.json", "lexeme", 0),
        ("wdtk_mediainfo.json", "mediainfo", 2),
        ("wdtk_property.json", "property", 10),
        ("wdtk_item.json", "item", 13),
    ],
)
def test_other_entity_types_are_kept(tmp_path: Path, file: str, kind: str, statements: int) -> None:
    result = ingest(DATA / file, tmp_path, "one")
    assert result.manifest.rejects == 0
    assert [r[1] for r in rows(result, "entities")] == [kind]
    assert result.manifest.counts["statements"] == statements


def test_lexeme_lemmas_become_labels(tmp_path: Path) -> None:
    result = ingest(DATA / "wdtk_lexeme.json", tmp_path, "lex")
    lemmas = duckdb.execute(
        f"SELECT lang, value FROM '{result.directory}/labels/*.parquet' WHERE kind = 'lemma'"
    ).fetchall()
    raw = json.loads((DATA / "wdtk_lexeme.json").read_text(encoding="utf-8"))
    assert sorted(lemmas) == sorted((k, v["value"]) for k, v in raw["lemmas"].items())


def test_wbgetentities_response_with_redirect_and_missing(tmp_path: Path) -> None:
    """wbgetentities&redirects=yes marks a merged item; a missing one is skipped, not a reject."""
    q42 = json.loads((DATA / "wd_Q42.json").read_text(encoding="utf-8"))
    response = {
        "entities": {
            "Q42": q42,
            "Q100000000000": {"id": "Q100000000000", "missing": ""},
            "Q4200": {**q42, "redirects": {"from": "Q4200", "to": "Q42"}},
        },
        "success": 1,
    }
    path = tmp_path / "response.json"
    path.write_text(json.dumps(response), encoding="utf-8")
    result = ingest(path, tmp_path / "store", "api")
    entities = {r[0]: r for r in rows(result, "entities")}
    assert set(entities) == {"Q42", "Q4200"}
    qid, _type, _datatype, *_rest = entities["Q4200"]
    redirect = duckdb.execute(
        f"SELECT redirect_to FROM '{result.directory}/entities/*.parquet' WHERE qid = 'Q4200'"
    ).fetchall()
    assert qid == "Q4200" and redirect == [("Q42",)]


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b'[\n{"id":"Q1"},\n', JSON_DUMP),
        (b'{"id":"Q1","type":"item"}\n{"id":"Q2","type":"item"}\n', JSON_DUMP),
        (b'{\n  "pageid": 1,\n  "type": "item"', ENTITY_DOC),
        (b'{"entities":{"Q1":{"id":"Q1"}}}', ENTITY_DOC),
        (b"\xef\xbb\xbf  <mediawiki xmlns=", XML_DUMP),
        (b"\x89PNG\r\n", None),
    ],
)
def test_classify_head(head: bytes, kind: str | None) -> None:
    assert classify_head(head) == kind


def test_dates_from_file_names() -> None:
    assert resolve_date(Path("wikidata-20240101-all.json.gz"), None) == (
        date(2024, 1, 1),
        date(2024, 1, 1),
    )
    assert resolve_date(Path("wikidatawiki-20131221-pages-articles.xml.bz2"), "2013-12-31") == (
        date(2013, 12, 31),
        date(2013, 12, 21),
    )
    with pytest.raises(UsageError, match="--date"):
        resolve_date(Path("dump.json"), None)
    with pytest.raises(UsageError, match="YYYY-MM-DD"):
        resolve_date(Path("dump.json"), "31/12/2013")


def test_wrongly_typed_entity_in_a_document_is_a_reject(tmp_path: Path) -> None:
    """A response whose entity has a field of the wrong type: that entity is rejected, the
    others are ingested (the document path goes through dicts, then msgspec validation)."""
    q42 = json.loads((DATA / "wd_Q42.json").read_text(encoding="utf-8"))
    broken = {"type": "item", "id": "Q9", "claims": {"P31": [{"mainsnak": 5}]}}
    path = tmp_path / "response.json"
    path.write_text(json.dumps({"entities": {"Q42": q42, "Q9": broken}}), encoding="utf-8")
    result = ingest(path, tmp_path / "store", "mixed")
    assert result.manifest.rejects == 1
    assert [r[0] for r in rows(result, "entities")] == ["Q42"]
    reject = json.loads((result.directory / "rejects.jsonl").read_text().splitlines()[0])
    assert "mainsnak" in reject["error"]
