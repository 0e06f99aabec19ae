"""The page view reader: real quoted dump lines, generated hourly and "pageview complete"
files (gz, bz2, plain), domain codes, letter-coded counts, and hypothesis properties
(round trips, random fields parse back, garbage only ever counts)."""

from __future__ import annotations

import bz2
import gzip
from datetime import date, datetime
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.errors import InputError, TooManyRejectsError, UsageError
from kgdiff.readers.pageview_codes import dump_site, project_wiki, wiki_project
from kgdiff.readers.pageview_counts import CountsError, decode_counts, encode_counts
from kgdiff.readers.pageview_files import COMPLETE, HOURLY, DumpInfo, describe_dump
from kgdiff.readers.pageviews import PageviewRow, PageviewStats, iter_lines, iter_pageviews
from tests.paths import DATA

QUOTES = DATA / "pageviews"
HOUR_2019 = date(2019, 7, 1)


def read(path: Path, **overrides: str) -> tuple[list[PageviewRow], PageviewStats]:
    """Every row of ``path`` and the reader's counts."""
    stats = PageviewStats(source=str(path))
    info = describe_dump(path, **overrides)
    return list(iter_pageviews(path, info, stats)), stats


def write(path: Path, text: str) -> Path:
    """``text`` as ``path``, compressed as its suffix says."""
    data = text.encode("utf-8")
    if path.suffix == ".gz":
        data = gzip.compress(data)
    elif path.suffix == ".bz2":
        data = bz2.compress(data)
    path.write_bytes(data)
    return path


def hour(wiki: str, title: str, access: str, views: int, agent: str = "user") -> PageviewRow:
    return PageviewRow(wiki, title, HOUR_2019, "hour", access, agent, views)


# --- real quoted lines --------------------------------------------------------------------


def test_real_pageviews_head_lines() -> None:
    rows, stats = read(QUOTES / "pageviews-20190701-210000.head10.txt")
    assert rows == [
        hour("aawiki", "Main Page", "desktop", 1),
        hour("aawiki", "Special:GlobalUsers/sysadmin", "desktop", 1),
        hour("aawiki", "User talk:Qoan", "desktop", 1),
        hour("aawiki", "Wikipedia:Community Portal", "desktop", 1),
        hour("aawiktionary", "Main Page", "desktop", 2),
        hour("aawiki", "Main Page", "mobile-web", 1),
        hour("abwiki", "1005", "desktop", 1),
        hour("abwiki", "105", "desktop", 2),
        hour("abwiki", "1099", "desktop", 1),
        hour("abwiki", "1150", "desktop", 1),
    ]
    assert (stats.lines, stats.rows, stats.views, stats.rejects) == (10, 10, 12, {})


def test_real_pagecounts_lines_are_percent_decoded() -> None:
    path = QUOTES / "pagecounts-2009_aws-public-dataset_sample_lines.txt"
    rows, stats = read(path, start="2009-01-01T05")
    day = date(2009, 1, 1)
    assert [(r.wiki, r.title, r.views) for r in rows] == [
        ("enwiki", "Barack Obama", 997),
        ("enwiki", "Barack Obama's first 100 days", 8),
        ("enwiki", "Barack Obama, Jr", 1),
        ("enwiki", "Barack Obama, Sr.", 37),
        ("enwiki", 'Barack Obama "HOPE" poster', 4),
        ("enwiki", 'Barack Obama "Hope" poster', 5),
    ]
    assert {(r.period_start, r.period, r.access, r.agent) for r in rows} == {
        (day, "hour", "desktop", "all-agents")
    }
    assert stats.views == 1052


def test_real_pagecounts_raw_index_lines() -> None:
    path = QUOTES / "pagecounts-raw_index-page_sample_lines.txt"
    rows, _ = read(path, start="2007-12-10T00")
    assert [(r.wiki, r.title, r.views) for r in rows] == [
        ("frwikibooks", "Special:Recherche/Achille Baraguey d\\'Hilliers", 1),
        ("frwikibooks", "Special:Recherche/Acteurs et actrices N", 1),
        ("frwikibooks", "Special:Recherche/Agrippa d/'Aubigné", 1),
        ("frwikibooks", "Special:Recherche/All Mixed Up", 1),
        ("frwikibooks", "Special:Recherche/André Gazut.html", 1),
        ("enwiki", "Main Page", 242332),
    ]


def test_quoted_files_without_a_date_need_one() -> None:
    with pytest.raises(UsageError, match="--date"):
        read(QUOTES / "pagecounts-2009_aws-public-dataset_sample_lines.txt")


# --- file names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pageviews-20190701-210000.gz", (HOURLY, "hour", datetime(2019, 7, 1, 21), "user", False)),
        (  # legacy names tell the end of the hour
            "pagecounts-20090101-000000.gz",
            (HOURLY, "hour", datetime(2008, 12, 31, 23), "all-agents", True),
        ),
        ("pageviews-20230101-user.bz2", (COMPLETE, "day", datetime(2023, 1, 1), "user", False)),
        ("pageviews-202301-spider.bz2", (COMPLETE, "month", datetime(2023, 1, 1), "spider", False)),
        (
            "pageviews-20230101-automated",
            (COMPLETE, "day", datetime(2023, 1, 1), "automated", False),
        ),
        ("views.txt", (None, None, None, "all-agents", False)),
    ],
)
def test_file_names(name: str, expected: tuple[object, ...]) -> None:
    info = describe_dump(Path(name))
    assert (info.layout, info.period, info.start, info.agent, info.legacy) == expected


def test_overrides() -> None:
    info = describe_dump(Path("views.txt"), period="month", start="2023-02")
    assert (info.layout, info.period, info.start) == (None, "month", datetime(2023, 2, 1))
    assert describe_dump(Path("x"), period="hour").layout == HOURLY
    with pytest.raises(UsageError, match="--period"):
        describe_dump(Path("x"), period="week")
    with pytest.raises(UsageError, match="--date"):
        describe_dump(Path("x"), start="July")


# --- domain codes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "wiki", "access"),
    [
        ("en", "enwiki", "desktop"),
        ("en.m", "enwiki", "mobile-web"),
        ("en.zero", "enwiki", "mobile-web"),
        ("de.b", "dewikibooks", "desktop"),
        ("en.m.d", "enwiktionary", "mobile-web"),
        ("fr.zero.v", "frwikiversity", "mobile-web"),
        ("it.q", "itwikiquote", "desktop"),
        ("de.s", "dewikisource", "desktop"),
        ("en.n", "enwikinews", "desktop"),
        ("en.voy", "enwikivoyage", "desktop"),
        ("commons.m", "commonswiki", "desktop"),
        ("commons.m.m", "commonswiki", "mobile-web"),
        ("meta.m", "metawiki", "desktop"),
        ("wikimania2014.m", "wikimania2014wiki", "desktop"),
        ("www.wd", "wikidatawiki", "desktop"),
        ("www.m.wd", "wikidatawiki", "mobile-web"),
        ("www.w", "mediawikiwiki", "desktop"),
        ("www.f", "foundationwiki", "desktop"),
        ("zh-min-nan", "zh_min_nanwiki", "desktop"),
        ("be-tarask.m", "be_taraskwiki", "mobile-web"),
        ("aa.b", "aawikibooks", "desktop"),
    ],
)
def test_dump_domain_codes(code: str, wiki: str, access: str) -> None:
    site = dump_site(code)
    assert site is not None
    assert (site.wiki, site.access, site.aggregate) == (wiki, access, False)


def test_mobile_project_totals_and_unknown_codes() -> None:
    site = dump_site("en.mw")
    assert site is not None and (site.wiki, site.aggregate) == ("enwiki", True)
    for code in ("en.x", "En", "en.m.d.q", "", ".m", "en..b"):
        assert dump_site(code) is None, code


@pytest.mark.parametrize(
    ("project", "wiki"),
    [
        ("en.wikipedia", "enwiki"),
        ("en.wikipedia.org", "enwiki"),
        ("de.wikibooks", "dewikibooks"),
        ("commons.wikimedia", "commonswiki"),
        ("www.wikidata", "wikidatawiki"),
        ("wikidata", "wikidatawiki"),
        ("www.mediawiki", "mediawikiwiki"),
        ("foundation.wikimedia", "foundationwiki"),
        ("zh-min-nan.wikipedia", "zh_min_nanwiki"),
        ("en.m.wikipedia", "enwiki"),
    ],
)
def test_complete_projects(project: str, wiki: str) -> None:
    assert project_wiki(project) == wiki


@pytest.mark.parametrize(
    "wiki",
    ["enwiki", "dewikibooks", "frwiktionary", "commonswiki", "wikidatawiki", "zh_min_nanwiki"],
)
def test_wiki_project_round_trip(wiki: str) -> None:
    project = wiki_project(wiki)
    assert project is not None and project.endswith(".org")
    assert project_wiki(project) == wiki


# --- letter-coded counts ------------------------------------------------------------------


def test_decode_counts() -> None:
    assert decode_counts("A120B130X4", 24) == {0: 120, 1: 130, 23: 4}
    assert decode_counts("A12C3", 31) == {0: 12, 2: 3}
    assert decode_counts("Z1[2\\3]4^5_6", 31) == {25: 1, 26: 2, 27: 3, 28: 4, 29: 5, 30: 6}
    assert decode_counts("", 24) == {}
    for bad in ("Y1", "A", "A1A2", "a1", "A1 B2", "A-1", "A١"):
        with pytest.raises(CountsError):
            decode_counts(bad, 24)


@given(st.dictionaries(st.integers(0, 30), st.integers(0, 10**15), max_size=31))
def test_counts_round_trip_days(counts: dict[int, int]) -> None:
    code = encode_counts(counts)
    assert decode_counts(code, 31) == {slot: n for slot, n in counts.items() if n}


@given(st.dictionaries(st.integers(0, 23), st.integers(1, 10**9), max_size=24))
def test_counts_round_trip_hours(counts: dict[int, int]) -> None:
    assert decode_counts(encode_counts(counts), 24) == counts


# --- generated hourly files ---------------------------------------------------------------

HOURLY_TEXT = """\
en Main_Page 242332 0
en.m Foo 3 0
de.b Kochbuch 2 0
commons.m File:X.jpg 5 0
commons.m.m File:X.jpg 1 0
www.wd Q42 7 0
en.mw en 99 0

en Foo 2 0
en Foo two 0
en.q.x Bar 1 0
en Only_three
de  4 0
"""


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ""])
def test_generated_hourly_file(tmp_path: Path, suffix: str) -> None:
    path = write(tmp_path / f"pageviews-20230101-230000{suffix}", HOURLY_TEXT)
    rows, stats = read(path)
    day = date(2023, 1, 1)
    assert [(r.wiki, r.title, r.access, r.views) for r in rows] == [
        ("enwiki", "Main Page", "desktop", 242332),
        ("enwiki", "Foo", "mobile-web", 3),
        ("dewikibooks", "Kochbuch", "desktop", 2),
        ("commonswiki", "File:X.jpg", "desktop", 5),
        ("commonswiki", "File:X.jpg", "mobile-web", 1),
        ("wikidatawiki", "Q42", "desktop", 7),
        ("enwiki", "Foo", "desktop", 2),
    ]
    assert {(r.period_start, r.period, r.agent) for r in rows} == {(day, "hour", "user")}
    assert stats.lines == 13 and stats.views == 242352
    assert stats.rejects == {
        "bad_number": 1,
        "unknown_domain": 1,
        "field_count": 1,
        "empty_title": 1,
    }
    assert stats.reject_lines == {
        "bad_number": [10],
        "unknown_domain": [11],
        "field_count": [12],
        "empty_title": [13],
    }
    assert stats.skipped == {"project_total": 1, "blank": 1}


def test_wiki_filter(tmp_path: Path) -> None:
    path = write(tmp_path / "pageviews-20230101-230000.gz", HOURLY_TEXT)
    info = describe_dump(path)
    stats = PageviewStats()
    rows = list(iter_pageviews(path, info, stats, wikis={"commonswiki"}))
    assert [r.views for r in rows] == [5, 1]
    assert stats.skipped["other_wiki"] == 5


def test_legacy_bad_utf8_is_a_reject(tmp_path: Path) -> None:
    path = write(tmp_path / "pagecounts-20090101-010000", "en Caf%E9 1 10\nen Caf%C3%A9 2 20\n")
    rows, stats = read(path)
    assert [(r.title, r.period_start) for r in rows] == [("Café", date(2009, 1, 1))]
    assert stats.rejects == {"bad_utf8": 1}


def test_raw_bad_utf8_is_a_reject() -> None:
    info = DumpInfo(HOURLY, "hour", datetime(2020, 1, 1))
    stats = PageviewStats()
    rows = list(iter_lines([b"en Caf\xe9 1 0\n", b"en Ok 1 0\n"], info, stats))
    assert [r.title for r in rows] == ["Ok"] and stats.reject_lines == {"bad_utf8": [1]}


# --- generated "pageview complete" files --------------------------------------------------

DAILY_TEXT = """\
en.wikipedia Albert_Einstein 736 desktop 4572 A1000B1000C1000D1000E572
en.wikipedia Albert_Einstein 736 mobile-web 10 A4X6
de.wikipedia Köln null mobile-app 3 C3
commons.wikimedia File:Foo.jpg 99 desktop 7 A7
www.wikidata Q42 138 desktop 12 A5B7
en.wikipedia "\\"Weird_Al\\"_Yankovic" 12 desktop 2 B2
en.wikipedia NoCounts 1 desktop 9
en.wikipedia Mismatch 1 desktop 5 A4
en.wikipedia BadHour 1 desktop 5 Y5
en.wikipedia Tablet 1 tablet 1 A1
en.wikipedia OldAgent 1 spider 8 A8
xx.unknownpedia Foo 1 desktop 1 A1
en.wikipedia Page 1x desktop 1 A1
"""


@pytest.mark.parametrize("suffix", [".bz2", ".gz"])
def test_generated_daily_complete_file(tmp_path: Path, suffix: str) -> None:
    rows, stats = read(write(tmp_path / f"pageviews-20230101-user{suffix}", DAILY_TEXT))
    assert [(r.wiki, r.title, r.access, r.agent, r.views) for r in rows] == [
        ("enwiki", "Albert Einstein", "desktop", "user", 4572),
        ("enwiki", "Albert Einstein", "mobile-web", "user", 10),
        ("dewiki", "Köln", "mobile-app", "user", 3),
        ("commonswiki", "File:Foo.jpg", "desktop", "user", 7),
        ("wikidatawiki", "Q42", "desktop", "user", 12),
        ("enwiki", '"Weird Al" Yankovic', "desktop", "user", 2),
        ("enwiki", "NoCounts", "desktop", "user", 9),
        ("enwiki", "OldAgent", "all-access", "spider", 8),
    ]
    assert {(r.period_start, r.period) for r in rows} == {(date(2023, 1, 1), "day")}
    assert stats.unverified == 1
    assert stats.reject_lines == {
        "total_mismatch": [8],
        "bad_counts": [9],
        "bad_access": [10],
        "unknown_domain": [12],
        "bad_page_id": [13],
    }


MONTHLY_TEXT = """\
en.wikipedia Albert_Einstein 736 desktop 100 A10B20_70
en.wikipedia Albert_Einstein 736 mobile-web 31 A1\\10^20
fr.wiktionary chat 5 desktop 3 C3
"""


def test_generated_monthly_complete_file(tmp_path: Path) -> None:
    rows, stats = read(write(tmp_path / "pageviews-202301-user.bz2", MONTHLY_TEXT))
    assert rows == [
        PageviewRow("enwiki", "Albert Einstein", date(2023, 1, 1), "month", "desktop", "user", 100),
        PageviewRow(
            "enwiki", "Albert Einstein", date(2023, 1, 1), "month", "mobile-web", "user", 31
        ),
        PageviewRow("frwiktionary", "chat", date(2023, 1, 1), "month", "desktop", "user", 3),
    ]
    assert stats.rejects == {}


def test_monthly_counts_past_the_end_of_february(tmp_path: Path) -> None:
    text = "en.wikipedia A 1 desktop 3 [1\\2\nen.wikipedia B 1 desktop 3 A1]2\n"
    rows, stats = read(write(tmp_path / "pageviews-202302-user.bz2", text))
    assert [r.title for r in rows] == ["A"]  # days 27 and 28 exist, day 29 does not
    assert stats.reject_lines == {"bad_counts": [2]}


def test_layout_from_the_first_line(tmp_path: Path) -> None:
    path = write(tmp_path / "views.txt", "en.wikipedia X 1 desktop 2 A2\nen X 2 0\n")
    rows, stats = read(path, period="day", start="2023-03-04")
    assert [(r.wiki, r.title, r.period_start, r.views) for r in rows] == [
        ("enwiki", "X", date(2023, 3, 4), 2)
    ]
    assert stats.rejects == {"field_count": 1}


# --- errors -------------------------------------------------------------------------------


def test_truncated_and_corrupt_files(tmp_path: Path) -> None:
    whole = gzip.compress(HOURLY_TEXT.encode() * 50)
    path = tmp_path / "pageviews-20230101-230000.gz"
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(InputError, match="corrupt or truncated"):
        read(path)
    bad = tmp_path / "pageviews-20230101-220000.bz2"
    bad.write_bytes(b"BZh9" + b"\x00" * 200)
    with pytest.raises(InputError, match=str(bad)):
        read(bad)
    with pytest.raises(InputError, match="cannot open"):
        read(tmp_path / "pageviews-20230101-210000.gz")


def test_max_rejects(tmp_path: Path) -> None:
    path = write(tmp_path / "pageviews-20230101-230000", "x y\n" * 5)
    info = describe_dump(path)
    stats = PageviewStats(source=str(path), max_rejects=3)
    with pytest.raises(TooManyRejectsError, match="line 4: more than 3 malformed"):
        list(iter_pageviews(path, info, stats))


# --- properties ---------------------------------------------------------------------------

TITLE = st.text(
    st.characters(blacklist_categories=["Cs"], blacklist_characters=" \r\n"), min_size=1
)
HOURLY_CODES = [
    ("en", "enwiki", "desktop"),
    ("en.m", "enwiki", "mobile-web"),
    ("de.b", "dewikibooks", "desktop"),
    ("commons.m", "commonswiki", "desktop"),
    ("www.wd", "wikidatawiki", "desktop"),
]
COMPLETE_CODES = [
    ("en.wikipedia", "enwiki"),
    ("fr.wiktionary", "frwiktionary"),
    ("commons.wikimedia", "commonswiki"),
]
DAY_INFO = DumpInfo(COMPLETE, "day", datetime(2023, 1, 1), "user")


@given(st.sampled_from(HOURLY_CODES), TITLE, st.integers(0, 10**12), st.booleans())
def test_hourly_fields_parse_back(
    code: tuple[str, str, str], title: str, views: int, legacy: bool
) -> None:
    raw = quote(title, safe="") if legacy else title
    line = f"{code[0]} {raw} {views} 0\n".encode()
    info = DumpInfo(HOURLY, "hour", datetime(2020, 5, 6, 7), "user", legacy)
    stats = PageviewStats()
    rows = list(iter_lines([line], info, stats))
    expected = PageviewRow(
        code[1], title.replace("_", " "), date(2020, 5, 6), "hour", code[2], "user", views
    )
    assert rows == [expected], stats.rejects


@given(
    st.sampled_from(COMPLETE_CODES),
    TITLE,
    st.one_of(st.just("null"), st.integers(0, 10**9).map(str)),
    st.sampled_from(["desktop", "mobile-web", "mobile-app"]),
    st.dictionaries(st.integers(0, 23), st.integers(1, 10**6), min_size=1),
)
def test_complete_fields_parse_back(
    code: tuple[str, str], title: str, page_id: str, access: str, counts: dict[int, int]
) -> None:
    raw = '"' + title.replace('"', '\\"') + '"' if '"' in title else title
    total = sum(counts.values())
    line = f"{code[0]} {raw} {page_id} {access} {total} {encode_counts(counts)}".encode()
    stats = PageviewStats()
    rows = list(iter_lines([line], DAY_INFO, stats))
    expected = PageviewRow(
        code[1], title.replace("_", " "), date(2023, 1, 1), "day", access, "user", total
    )
    assert rows == [expected], stats.rejects


@settings(max_examples=300)
@given(
    st.lists(st.binary(max_size=80).map(lambda b: b.replace(b"\n", b" ")), max_size=20),
    st.sampled_from([HOURLY, COMPLETE, None]),
    st.booleans(),
)
def test_garbage_lines_only_count(lines: list[bytes], layout: str | None, legacy: bool) -> None:
    info = DumpInfo(layout, "month", datetime(2024, 2, 1), "user", legacy)
    stats = PageviewStats()
    rows = list(iter_lines(lines, info, stats))
    assert stats.lines == len(lines)
    assert len(rows) + stats.rejected + sum(stats.skipped.values()) == len(lines)
    assert all(len(kept) <= 5 for kept in stats.reject_lines.values())
