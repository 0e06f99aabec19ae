"""Evidence and EvoWiki's filters, end to end: the three real Wikidata snapshots of the demo,
Wikipedia articles at three dates (real pages for the mentions, synthetic exports for the
dated snapshots, since no real dump of those dates is small enough), classification, export.
"""

from __future__ import annotations

import shutil
from itertools import pairwise
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import duckdb
import msgspec
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.evidence import build as evidence_build
from kgdiff.evidence.build import build_evidence
from kgdiff.store.layout import StoreLayout
from kgdiff.wikipedia.ingest import WikipediaRequest, ingest_wikipedia
from kgdiff.wording import counted
from tests.paths import SAMPLES, run_kgdiff

# the article texts at each Wikipedia snapshot: Chile's president changed (Piñera → Bachelet),
# California stayed in the United States, Boston's new P131 value has no English name
ARTICLES = {
    "enwiki-2013-12": {
        "Chile": "Chile is a country in South America. Its president is Sebastián Piñera.",
        "California": "California is a state of the United States.",
        "Boston": "Boston is the capital of Massachusetts.",
    },
    "enwiki-2014-10": {
        "Chile": "Chile is a country in South America. Its president is Michelle Bachelet.",
        "California": "California is a state on the Pacific coast.",
        "Boston": "Boston is the capital of Massachusetts.",
    },
    "enwiki-2014-12": {
        "Chile": "Chile is a country.\n== Politics ==\nMichelle Bachelet is its president.",
        "California": "California is a state of the United States.",
        "Boston": "Boston is the capital of Massachusetts.",
    },
}
SNAPSHOT_DATES = {
    "enwiki-2013-12": "2013-12-01",
    "enwiki-2014-10": "2014-10-01",
    "enwiki-2014-12": "2014-12-01",
}
PAGE_IDS = {"Chile": 5489, "California": 5407, "Boston": 24437894}


def export_xml(texts: dict[str, str], day: str, revision_base: int) -> str:
    """A pages-articles export (schema 0.10) of ``texts`` with revisions dated ``day``."""
    pages = []
    for offset, (title, text) in enumerate(sorted(texts.items())):
        pages.append(
            f"<page><title>{escape(title)}</title><ns>0</ns><id>{PAGE_IDS[title]}</id>"
            f"<revision><id>{revision_base + offset}</id><timestamp>{day}T12:00:00Z</timestamp>"
            f"<contributor><username>Editor</username><id>7</id></contributor>"
            f"<model>wikitext</model><format>text/x-wiki</format>"
            f'<text xml:space="preserve">{escape(text)}</text>'
            f"<sha1>s{revision_base + offset}</sha1>"
            f"</revision></page>"
        )
    return (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">'
        "<siteinfo><sitename>Wikipedia</sitename><dbname>enwiki</dbname>"
        "<base>https://en.wikipedia.org/wiki/Main_Page</base></siteinfo>"
        + "".join(pages)
        + "</mediawiki>"
    )


def add_wikipedia(store: Path, tmp: Path, name: str) -> None:
    """Ingest the synthetic snapshot ``name`` and find its evidence."""
    day = SNAPSHOT_DATES[name]
    path = tmp / f"{name}.xml"
    path.write_text(export_xml(ARTICLES[name], day, 1000 * len(name) + int(day[5:7])), "utf-8")
    ingest_wikipedia(WikipediaRequest(path, snapshot=name, date=day, store=store))
    build_evidence(StoreLayout.resolve(store), name)


def exported(
    store: Path, tmp: Path, init: str = "2013-12-21", *options: str
) -> dict[tuple[str, str], dict[str, Any]]:
    """The record-time classification with its evidence columns, by (subject, pid)."""
    out = tmp / "groups.jsonl"
    dates = ("--init", init, "--cutoff", "2014-10-11", "--current", "2014-12-31")
    result = run_kgdiff("classify", *dates, *options, "--out", str(out), "--store", str(store))
    assert result.returncode == 0, result.stderr
    rows = [msgspec.json.decode(line) for line in out.read_bytes().splitlines()]
    return {(row["subject"], row["pid"]): row for row in rows}


@pytest.fixture(scope="module")
def store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's Wikidata snapshots and the first two Wikipedia snapshots."""
    target = tmp_path_factory.mktemp("evidence") / "store"
    shutil.copytree(sample_store, target)
    for name in ("enwiki-2013-12", "enwiki-2014-10"):
        add_wikipedia(target, target.parent, name)
    return target


def test_each_date_reads_the_latest_wikipedia_snapshot_at_or_before_it(
    store: Path, tmp_path: Path
) -> None:
    groups = exported(store, tmp_path)
    chile = groups[("Q298", "P35")]
    assert chile["wikipedia_init"] == "enwiki-2013-12"
    assert chile["wikipedia_current"] == "enwiki-2014-10"
    assert chile["mentioned_init"] == ["Q306"] and chile["mentioned_current"] == ["Q320"]
    assert (chile["level"], chile["supported"]) == ("evolved", True)


def test_without_a_snapshot_at_init_support_cannot_be_told(store: Path, tmp_path: Path) -> None:
    # before the first Wikidata snapshot too: classify answers only when told to
    groups = exported(store, tmp_path, "2013-06-01", "--allow-gap")
    chile = groups[("Q298", "P35")]
    assert chile["level"] == "recent" and chile["wikipedia_init"] is None
    assert chile["supported"] is None
    assert chile["supported_reason"] == (
        "no enwiki snapshot at or before the init date (2013-06-01); "
        "the earliest is enwiki-2013-12 (2013-12-01)"
    )


def test_evowiki_filters_with_three_snapshots(store: Path, tmp_path: Path) -> None:
    add_wikipedia(store, tmp_path, "enwiki-2014-12")
    groups = exported(store, tmp_path)
    chile = groups[("Q298", "P35")]
    assert chile["level"] == "evolved" and chile["outdated"] == ["Q306"]
    assert chile["mentioned_init"] == ["Q306"] and chile["mentioned_current"] == ["Q320"]
    assert chile["supported"] is True
    assert chile["evidence"] == {
        "title": "Chile",
        "revision_id": 14014,  # 1000 × len(name) + month, then Chile is the third page
        "sentence": "Michelle Bachelet is its president.",
        "page_role": "subject",
        "section": "body",
    }
    # the United States is named at init and current but not at the cutoff
    california = groups[("Q99", "P17")]
    assert california["level"] == "stable" and california["supported"] is False
    assert california["mentioned_cutoff"] == []
    # Massachusetts (outdated) is named throughout; the new value has no English name
    boston = groups[("Q100", "P131")]
    assert boston["level"] == "evolved" and boston["supported"] is False
    # a retracted group is never judged
    assert all(g["supported"] is None for g in groups.values() if g["level"] == "retracted")


def test_a_snapshot_without_evidence_leaves_support_unknown_and_says_so(
    store: Path, tmp_path: Path
) -> None:
    """Without its evidence, the snapshot read at current would mention nothing: support is
    not refuted but unknown, and the reason names the command that finds it."""
    unsearched = tmp_path / "store"
    shutil.copytree(store, unsearched)
    path = tmp_path / "enwiki-2014-12-20.xml"  # the latest at current, whatever the others
    path.write_text(export_xml(ARTICLES["enwiki-2014-12"], "2014-12-20", 9000), "utf-8")
    ingest_wikipedia(WikipediaRequest(path, "enwiki-2014-12-20", "2014-12-20", store=unsearched))
    chile = exported(unsearched, tmp_path)[("Q298", "P35")]
    assert (chile["level"], chile["wikipedia_current"]) == ("evolved", "enwiki-2014-12-20")
    assert chile["supported"] is None
    assert chile["supported_reason"] == (
        "no evidence built for enwiki-2014-12-20: run 'kgdiff evidence build enwiki-2014-12-20'"
    )


def test_known_support_has_no_reason_and_each_unknown_one_has_one(
    store: Path, tmp_path: Path
) -> None:
    if "enwiki-2014-12" not in StoreLayout.resolve(store).wikipedia_names():
        add_wikipedia(store, tmp_path, "enwiki-2014-12")
    groups = exported(store, tmp_path)
    for key in [("Q298", "P35"), ("Q99", "P17"), ("Q100", "P131")]:
        assert groups[key]["supported"] is not None and groups[key]["supported_reason"] is None
    # Germany has no article in these snapshots, and no article of its objects names it
    germany = groups[("Q183", "P36")]
    assert germany["level"] == "stable" and germany["supported"] is None
    assert germany["supported_reason"] == "the subject has no page in enwiki-2014-12"
    # Massachusetts has no article either, but Boston's names it as its capital's state; only
    # the latest sample holds it, so in record time it is not covered (and not judged), in
    # valid time (which reads that sample alone) it is
    assert groups[("Q771", "P36")]["level"] == "not_covered"
    massachusetts = exported(store, tmp_path, "2013-12-21", "--mode", "valid")[("Q771", "P36")]
    assert massachusetts["mentioned_current"] == ["Q100"]
    assert massachusetts["supported"] is not None and massachusetts["supported_reason"] is None
    assert all(
        g["supported_reason"] == f"{g['level']} groups are not judged"
        for g in groups.values()
        if g["level"] in ("retracted", "ambiguous", "not_covered")
    )
    assert all(
        (g["supported"] is None) == (g["supported_reason"] is not None) for g in groups.values()
    )


def test_the_evidence_view_holds_the_golden_context(store: Path) -> None:
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        rows = connection.execute(
            "SELECT snapshot, title, page_role, term, section, sentence, weak FROM evidence "
            "WHERE subject = 'Q298' AND pid = 'P35' ORDER BY snapshot, object_qid"
        ).fetchall()
    assert rows == [
        (
            "enwiki-2013-12",
            "Chile",
            "subject",
            "Sebastián Piñera",
            "lead",
            "Its president is Sebastián Piñera.",
            False,
        ),
        (
            "enwiki-2014-10",
            "Chile",
            "subject",
            "Michelle Bachelet",
            "lead",
            "Its president is Michelle Bachelet.",
            False,
        ),
        (
            "enwiki-2014-12",
            "Chile",
            "subject",
            "Michelle Bachelet",
            "body",
            "Michelle Bachelet is its president.",
            False,
        ),
    ]


def test_the_demo_sample_gives_evidence_from_real_articles(
    sample_store: Path, tmp_path: Path
) -> None:
    store = tmp_path / "store"
    shutil.copytree(sample_store, store)
    sample = SAMPLES / "enwiki-sample-pages-articles.xml.bz2"
    ingest_wikipedia(
        WikipediaRequest(sample, snapshot="enwiki-2016-05", date="2016-05-01", store=store)
    )
    build = build_evidence(StoreLayout.resolve(store), "enwiki-2016-05")
    again = build_evidence(StoreLayout.resolve(store), "enwiki-2016-05")
    assert (build.reused, again.reused, again.rows) == (False, True, build.rows)
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        einstein = connection.execute(
            "SELECT term, section, sentence FROM evidence "
            "WHERE subject = 'Q937' AND pid = 'P27' AND object_qid = 'Q39'"
        ).fetchall()
    # the first sentence naming Switzerland: the lead does not name it
    assert einstein == [
        (
            "Switzerland",
            "body",
            "On the advice of the principal of the Polytechnic, he attended the Argovian "
            "cantonal school (gymnasium) in Aarau, Switzerland, in 1895–96 to complete his "
            "secondary schooling.",
        )
    ]


def test_on_the_demo_dates_the_unknowns_say_there_is_no_wikipedia_snapshot_yet(
    demo_store: Path, tmp_path: Path
) -> None:
    """The demo's one Wikipedia snapshot (2016-05-01) is later than every date compared."""
    dates = ("--init", "2013-12-21", "--cutoff", "2014-10-11", "--current", "2014-12-31")
    out = tmp_path / "groups.parquet"
    result = run_kgdiff("classify", *dates, "--out", str(out), "--store", str(demo_store))
    assert result.returncode == 0, result.stderr
    earliest = "the earliest is enwiki-2016-05 (2016-05-01)"
    at_init = f"no enwiki snapshot at or before the init date (2013-12-21); {earliest}"
    at_cutoff = f"no enwiki snapshot at or before the cutoff date (2014-10-11); {earliest}"
    with duckdb.connect(str(demo_store / "kg.duckdb"), read_only=True) as catalog:
        view = "classified_20131221_20141011_20141231_record"
        reasons = catalog.execute(
            f"SELECT level, coalesce(changed_after_cutoff, false), supported_reason, count(*), "
            f"count(supported) FROM {view} GROUP BY ALL ORDER BY ALL"
        ).fetchall()
        exported_reasons = catalog.execute(
            "SELECT supported_reason, count(*) FROM read_parquet(?) GROUP BY ALL", [str(out)]
        ).fetchall()
    assert {(level, changed, reason) for level, changed, reason, _, _ in reasons} == {
        ("ambiguous", False, "ambiguous groups are not judged"),
        ("not_covered", False, "not_covered groups are not judged"),
        ("evolved", False, at_init),
        ("evolved", True, at_cutoff),
        ("recent", False, at_init),
        ("retracted", False, "retracted groups are not judged"),
        ("stable", False, at_init),
        ("uncharted", False, at_init),
    }
    assert all(known == 0 for *_, known in reasons)
    # the summary under the evidence table counts the unknowns per reason
    for reason, groups in exported_reasons:
        assert f"unknown, {counted(groups, 'group')}: {reason}\n" in result.stdout


def test_a_build_range_by_range_equals_one_of_all_pages(
    sample_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real sample's evidence, read in ranges of a few candidate facts, is the evidence
    read in one range, row for row and in the same order."""
    tables, ranges_read = {}, []
    page_ranges = evidence_build.page_ranges

    def recorded(connection: duckdb.DuckDBPyConnection) -> list[tuple[int, int]]:
        ranges_read.append(page_ranges(connection))
        return ranges_read[-1]

    monkeypatch.setattr(evidence_build, "page_ranges", recorded)
    for per_range in (evidence_build.RANGE_FACTS, 40):
        monkeypatch.setattr(evidence_build, "RANGE_FACTS", per_range)
        store = tmp_path / f"store-{per_range}"
        shutil.copytree(sample_store, store)
        sample = SAMPLES / "enwiki-sample-pages-articles.xml.bz2"
        ingest_wikipedia(
            WikipediaRequest(sample, snapshot="enwiki-2016-05", date="2016-05-01", store=store)
        )
        build = build_evidence(StoreLayout.resolve(store), "enwiki-2016-05")
        tables[per_range] = pq.ParquetFile(build.path)
    whole, ranged = tables[evidence_build.RANGE_FACTS], tables[40]
    assert whole.metadata.num_rows > 50
    assert ranged.read().equals(whole.read())
    assert (len(ranges_read[0]), len(ranges_read[1]) > 5) == (1, True)


@settings(max_examples=60)
@given(
    facts=st.lists(st.integers(1, 30), min_size=1, max_size=60),
    per_range=st.integers(1, 50),
)
def test_page_ranges_cover_every_page_once_and_hold_their_share(
    facts: list[int], per_range: int
) -> None:
    """Ranges in page order, each page in one, each holding fewer than ``per_range`` facts
    before its last page (a page is never split)."""
    pages = [(page_id * 7, count) for page_id, count in enumerate(facts)]
    with duckdb.connect() as connection:
        connection.execute("CREATE TEMP TABLE evidence_candidates (page_id BIGINT)")
        rows = [(page_id,) for page_id, count in pages for _ in range(count)]
        connection.executemany("INSERT INTO evidence_candidates VALUES (?)", rows)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(evidence_build, "RANGE_FACTS", per_range)
            ranges = evidence_build.page_ranges(connection)
    assert ranges == sorted(ranges)
    for (lo, hi), (next_lo, _) in pairwise(ranges):
        assert lo <= hi < next_lo
    counts = dict(pages)
    for lo, hi in ranges:
        inside = [page_id for page_id, _ in pages if lo <= page_id <= hi]
        assert inside and inside[0] == lo and inside[-1] == hi
        assert sum(counts[p] for p in inside[:-1]) < per_range
    assert sum(sum(1 for p, _ in pages if lo <= p <= hi) for lo, hi in ranges) == len(pages)
    assert (ranges[0][0], ranges[-1][1]) == (pages[0][0], pages[-1][0])
