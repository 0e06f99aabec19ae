"""Supporting revisions (AntiLeakBench) from a history dump: the first unreverted revision
after a knowledge update whose lead names subject and new object.

No real sample pairs a knowledge update with the article history that states it, so the
Wikidata entities and the page history here are synthetic (the reader and the ingest are
tested on real dumps elsewhere); the revert rules get a property test."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from xml.sax.saxutils import escape

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.evidence.revisions import HistoryEntry, reverted_ids
from tests.paths import run_kgdiff


def time_value(day: str) -> dict[str, object]:
    """A day-precision Wikidata time datavalue."""
    return {
        "type": "time",
        "value": {
            "time": f"+{day}T00:00:00Z", "timezone": 0, "before": 0, "after": 0,
            "precision": 11, "calendarmodel": "http://www.wikidata.org/entity/Q1985727",
        },
    }  # fmt: skip


def snak(pid: str, datavalue: dict[str, object], datatype: str) -> dict[str, object]:
    """A value snak."""
    return {"snaktype": "value", "property": pid, "datavalue": datavalue, "datatype": datatype}


def head_of_state(guid: str, person: str, start: str, end: str | None) -> dict[str, object]:
    """A P35 statement with start (and end) qualifiers."""
    qualifiers = {"P580": [snak("P580", time_value(start), "time")]}
    if end is not None:
        qualifiers["P582"] = [snak("P582", time_value(end), "time")]
    item: dict[str, object] = {
        "type": "wikibase-entityid",
        "value": {"entity-type": "item", "id": person},
    }
    return {
        "id": guid, "type": "statement", "rank": "normal",
        "mainsnak": snak("P35", item, "wikibase-item"), "qualifiers": qualifiers,
    }  # fmt: skip


def entity(qid: str, label: str, aliases: list[str], **extra: object) -> dict[str, object]:
    """An item with an English label and aliases."""
    return {
        "type": "item", "id": qid, "labels": {"en": {"language": "en", "value": label}},
        "descriptions": {}, "aliases": {"en": [{"language": "en", "value": a} for a in aliases]},
        "claims": {}, "sitelinks": {}, "lastrevid": 1, "modified": "2021-01-01T00:00:00Z",
        **extra,
    }  # fmt: skip


ENTITIES = [
    entity(
        "Q1001", "Freedonia", [],
        claims={"P35": [
            head_of_state("Q1001$old", "Q1002", "1933-01-01", "2020-03-01"),
            head_of_state("Q1001$new", "Q1003", "2020-03-15", None),
        ]},
        sitelinks={"enwiki": {"site": "enwiki", "title": "Freedonia", "badges": []}},
    ),
    entity("Q1002", "Rufus T. Firefly", ["Firefly"]),
    entity("Q1003", "Groucho Marx", ["Julius Henry Marx", "GM"]),  # "GM": short, never trusted
]  # fmt: skip
HISTORY = [  # (revision id, timestamp, lead text, sha1)
    (11, "2019-05-01", "Freedonia is a country. Its president is Rufus T. Firefly.", "a"),
    (12, "2020-03-20", "Freedonia is a country. Its president is Groucho Marx!!", "b"),
    (13, "2020-03-21", "Freedonia is a country. Its president is Rufus T. Firefly.", "a"),
    (14, "2020-04-02", "Freedonia is a country in Europe. GM rules it.", "c"),
    (15, "2020-05-10", "Freedonia is a country. Julius Henry Marx became its president.", "d"),
    (16, "2020-06-01", "Freedonia is a country. Groucho Marx is its president.", "e"),
]


def history_xml() -> str:
    """A history export (schema 0.10) of the page Freedonia."""
    revisions = "".join(
        f"<revision><id>{rid}</id><timestamp>{day}T10:00:00Z</timestamp>"
        "<contributor><username>Editor</username><id>7</id></contributor>"
        f'<model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">'
        f"{escape(text)}\n== History ==\nMore.</text><sha1>{sha1}</sha1></revision>"
        for rid, day, text, sha1 in HISTORY
    )
    return (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10">'
        "<siteinfo><dbname>enwiki</dbname></siteinfo>"
        f"<page><title>Freedonia</title><ns>0</ns><id>77</id>{revisions}</page></mediawiki>"
    )


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with the synthetic Wikidata snapshot and the page's history."""
    return history_store_in(tmp_path_factory.mktemp("supporting"))


def history_store_in(folder: Path) -> Path:
    """``folder/store``: the synthetic Wikidata snapshot and the page's history, ingested by
    the command line."""
    dump = folder / "wikidata-20210101-all.json"
    dump.write_text("[\n" + ",\n".join(json.dumps(e) for e in ENTITIES) + "\n]\n", "utf-8")
    history = folder / "enwiki-20210101-pages-meta-history.xml"
    history.write_text(history_xml(), "utf-8")
    for args in (("wikidata", str(dump)), ("wikipedia", str(history))):
        result = run_kgdiff("ingest", *args, "--store", str(folder / "store"), "--quiet")
        assert result.returncode == 0, result.stderr
    return folder / "store"


def test_the_first_unreverted_revision_naming_both_is_found(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "revisions.jsonl"
    result = run_kgdiff(
        "revisions", "--cutoff", "2020-01-01", "--current", "2021-01-01",
        "--store", str(store), "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    (row,) = [msgspec.json.decode(line) for line in out.read_bytes().splitlines()]
    # 12 names both but was reverted by 13; 14 names Groucho only by a short alias
    assert (row["subject"], row["pid"], row["new_object"]) == ("Q1001", "P35", "Q1003")
    assert (row["title"], row["revision_id"]) == ("Freedonia", 15)
    assert row["sentence"] == "Julius Henry Marx became its president."
    assert row["reason"] is None
    labels = row["subject_label"], row["pid_label"], row["new_object_label"]
    assert labels == ("Freedonia", "P35", "Groucho Marx")  # P35 has no entity in this store
    assert (row["snapshot"], row["gap_days"]) == ("wikidata-20210101", 0)
    assert "Freedonia (Q1001)" in result.stdout and "Groucho Marx (Q1003)" in result.stdout


def test_dates_beyond_the_data_and_unknown_ids_are_refused(store: Path) -> None:
    """Issue 22: a current date past the snapshots was answered (and, through the SQL
    macro's own check, ended in a crash); an unknown property gave an empty table."""
    late = run_kgdiff(
        "revisions", "--cutoff", "2020-01-01", "--current", "2022-06-01", "--store", str(store)
    )
    assert late.returncode == 2 and len(late.stderr.splitlines()) == 1
    assert "after the latest snapshot, wikidata-20210101 (2021-01-01)" in late.stderr
    allowed = run_kgdiff(
        "revisions", "--cutoff", "2020-01-01", "--current", "2022-06-01", "--allow-gap",
        "--pid", "p35", "--store", str(store),
    )  # fmt: skip
    assert allowed.returncode == 0, allowed.stderr
    assert "current 2022-06-01: valid time reads wikidata-20210101" in allowed.stdout
    unknown = run_kgdiff(
        "revisions", "--cutoff", "2020-01-01", "--current", "2021-01-01", "--pid", "P6",
        "--store", str(store),
    )  # fmt: skip
    assert unknown.returncode == 2 and "P6 is in no snapshot of the store" in unknown.stderr


def test_without_a_history_snapshot_the_error_says_what_to_do(tmp_path: Path) -> None:
    result = run_kgdiff(
        "revisions", "--cutoff", "2020-01-01", "--current", "2021-01-01",
        "--wiki", "dewiki", "--store", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 5


@settings(max_examples=200)
@given(st.lists(st.sampled_from("abcde"), min_size=1, max_size=30), st.integers(2, 15))
def test_reverted_revisions_are_exactly_those_between_two_equal_texts(
    shas: list[str], radius: int
) -> None:
    start = datetime(2020, 1, 1)
    history = [HistoryEntry(i, start + timedelta(days=i), sha) for i, sha in enumerate(shas)]
    expected: set[int] = set()
    for j, sha in enumerate(shas):  # a revision restoring the text of a recent one
        earlier = [i for i in range(j) if shas[i] == sha]
        # (equal to its predecessor: a null edit; further back than the radius: no revert)
        if earlier and j - radius <= max(earlier) < j - 1:
            expected.update(range(max(earlier) + 1, j))
    assert reverted_ids(history, radius) == expected
