"""No person offered for a year who could not have held the role in it (issue 35, the blind
read's fix E: docs/benchmark-export.md#people-of-the-year-asked). "In 1792, who was the head
of government of the United States of America?" was offered Donald Tusk (born 1957) and David
Cameron (born 1966), "In 1864, …" George Washington (died 1799) as the outdated option: the
year alone gave the gold away. On a synthetic store of heads of government across four
centuries, every option of a record asked about a year but its gold is someone alive in it
(by the store's dates of birth and death), or someone the store gives no dates."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import kgdiff
from kgdiff.export.core.entity_dates import EntityDates
from kgdiff.export.distractors.human_roles import with_roles
from kgdiff.export.distractors.lifespans import Lifespans, lifespans_of
from kgdiff.export.distractors.noise_tiers import NoiseTiers
from kgdiff.export.records.choice_frames import ChoiceSetting
from kgdiff.export.relations.catalogue import shipped_catalogue
from kgdiff.export.temporal.abstention_frames import abstention_others
from kgdiff.export.words.names import Name, Names
from kgdiff.export.words.word_frames import value_words
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from tests.benchmark_exports import export, records
from tests.role_keys import role_keys_lazy
from tests.test_supporting_revisions import entity, snak, time_value

Record = dict[str, Any]
POLITICIAN, HUMAN = "Q82955", "Q5"
PEOPLE: dict[str, tuple[str, int | None, int | None]] = {
    # Freedonia's heads of government, in order
    "Q2001": ("Rufus Firefly", 1740, 1805),
    "Q2002": ("Ambrose Chase", 1810, 1890),
    "Q2003": ("Cora Vance", 1910, 2000),
    "Q2004": ("Dora Kell", 1940, None),
    "Q2005": ("Edgar Moss", 1960, None),
    # the other countries' heads
    "Q2101": ("Trentino Early", 1750, 1820),
    "Q2102": ("Middle Mia", 1830, 1900),
    "Q2103": ("Nameless Nobody", None, None),
    "Q2104": ("Old Otto", 1700, 1770),
    "Q2105": ("Max Midway", 1920, 1990),
    "Q2106": ("Modern Mark", 1966, None),
    "Q2107": ("Young Yara", 1975, None),
    "Q2108": ("Late Lou", 1957, None),
    "Q2109": ("Hugo Hale", 1725, 1779),
    "Q2110": ("Iris Ivory", 1890, 1960),
}
"""Each person's label and years of birth and death (None: the store has no such date)."""
HEADS: dict[str, tuple[str, list[tuple[str, str, str | None]]]] = {
    "Q1001": ("Freedonia", [
        ("Q2001", "1780-03-01", "1800-03-01"), ("Q2002", "1850-03-01", "1870-03-01"),
        ("Q2003", "1950-03-01", "1960-03-01"), ("Q2004", "1990-03-01", "2005-03-01"),
        ("Q2005", "2005-03-15", None),
    ]),
    "Q1002": ("Sylvania", [
        ("Q2101", "1785-01-01", "1795-01-01"), ("Q2102", "1860-01-01", "1875-01-01"),
        ("Q2106", "2000-01-01", None),
    ]),
    "Q1003": ("Marsovia", [("Q2103", "1990-01-01", "2010-01-01"), ("Q2107", "2010-02-01", None)]),
    "Q1004": ("Grand Fenwick", [
        ("Q2104", "1740-01-01", "1765-01-01"), ("Q2105", "1950-01-01", "1970-01-01"),
        ("Q2108", "2007-01-01", None),
    ]),
    "Q1005": ("Tomainia", [
        ("Q2109", "1750-01-01", "1770-01-01"), ("Q2110", "1930-01-01", "1945-01-01"),
    ]),
}  # fmt: skip
"""Each country's heads of government (P6) with the days they began and ended."""


def _item(qid: str) -> dict[str, object]:
    return {"type": "wikibase-entityid", "value": {"entity-type": "item", "id": qid}}


def _claim(guid: str, pid: str, value: dict[str, object], datatype: str) -> dict[str, object]:
    return {
        "id": guid,
        "type": "statement",
        "rank": "normal",
        "mainsnak": snak(pid, value, datatype),
    }


def _head(guid: str, person: str, start: str, end: str | None) -> dict[str, object]:
    claim = _claim(guid, "P6", _item(person), "wikibase-item")
    qualifiers = {"P580": [snak("P580", time_value(start), "time")]}
    if end is not None:
        qualifiers["P582"] = [snak("P582", time_value(end), "time")]
    return {**claim, "qualifiers": qualifiers}


def _person(qid: str) -> dict[str, object]:
    label, born, died = PEOPLE[qid]
    claims: dict[str, list[dict[str, object]]] = {
        "P31": [_claim(f"{qid}$c", "P31", _item(HUMAN), "wikibase-item")],
        "P106": [_claim(f"{qid}$r", "P106", _item(POLITICIAN), "wikibase-item")],
    }
    for pid, year in (("P569", born), ("P570", died)):
        if year is not None:
            day = time_value(f"{year}-06-15")
            claims[pid] = [_claim(f"{qid}${pid}", pid, day, "time")]
    return entity(qid, label, [], claims=claims)


def _country(qid: str) -> dict[str, object]:
    label, heads = HEADS[qid]
    claims = {
        "P31": [_claim(f"{qid}$c", "P31", _item("Q6256"), "wikibase-item")],
        "P6": [_head(f"{qid}${n}", *head) for n, head in enumerate(heads)],
    }
    sitelinks = {"enwiki": {"site": "enwiki", "title": label, "badges": []}}
    return entity(qid, label, [], claims=claims, sitelinks=sitelinks)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The synthetic snapshot of 2021-01-01: five countries and their heads of government."""
    folder = tmp_path_factory.mktemp("lifespans")
    entities = [
        *(_country(qid) for qid in HEADS), *(_person(qid) for qid in PEOPLE),
        entity(HUMAN, "human", []), entity(POLITICIAN, "politician", []),
        entity("Q6256", "country", []),
    ]  # fmt: skip
    dump = folder / "wikidata-20210101-all.json"
    dump.write_text("[\n" + ",\n".join(json.dumps(e) for e in entities) + "\n]\n", "utf-8")
    ingest_wikidata(
        IngestRequest(path=dump, snapshot="wd-2021-01", date="2021-01-01", store=folder / "store")
    )
    return folder / "store"


@pytest.fixture(scope="module")
def built(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    window = {"init": date(2019, 1, 1), "cutoff": date(2020, 1, 1), "current": date(2021, 1, 1)}
    out = tmp_path_factory.mktemp("lifespans-export") / "bench"
    done = export(
        store, out, configs=("temporal", "pools"), pools_static="all", mode="valid", **window
    )
    return done.out


def alive(qid: str, year: int) -> bool:
    """Whether the store's dates leave ``qid`` possibly alive in ``year`` (no dates: yes)."""
    _, born, died = PEOPLE[qid]
    return not ((born is not None and born > year) or (died is not None and died < year))


BY_LABEL = {label: qid for qid, (label, _, _) in PEOPLE.items()}


def others(record: Record) -> dict[str, str]:
    """The options of ``record`` that are people, but its gold, by their kind."""
    kinds = zip(record["options"], record["choice_types"], strict=True)
    return {option: kind for option, kind in kinds if option in BY_LABEL and kind != "correct"}


def test_an_early_year_offers_no_one_outside_their_lifetime(built: Path) -> None:
    """Before the rule, Freedonia's head of government of the 1780s was offered Modern Mark
    (born 1966), and those of the 1850s, 1950s and 2000s Rufus Firefly (died 1805) as the
    outdated option."""
    implicit = {r["id"]: r for r in records(built, "implicit", "temporal")}
    freedonia = sorted(i for i in implicit if i.startswith("temporal/implicit/Q1001/P6/"))
    assert len(freedonia) >= 4, sorted(implicit)
    for record in implicit.values():
        for option in others(record):
            assert alive(BY_LABEL[option], record["year"]), (record["id"], option)
    early = implicit[freedonia[0]]
    assert 1781 <= early["year"] <= 1799 and early["answer_labels"] == ["Rufus Firefly"]
    # Trentino Early (1750–1820) is the only other head alive then; Nameless Nobody, whom
    # the store gives no dates, is kept; no outdated option: Rufus Firefly was the first
    assert others(early) == {"Trentino Early": "noise", "Nameless Nobody": "noise"}


def test_the_outdated_option_is_the_first_earlier_head_alive_in_the_year(built: Path) -> None:
    """The outdated option is the first of the heads before the year who was alive in it
    (Dora Kell for 2007, not Rufus Firefly), or none (one more distractor instead)."""
    implicit = records(built, "implicit", "temporal")
    starts = {person: int(start[:4]) for person, start, _ in HEADS["Q1001"][1]}
    checked = Counter[str]()
    for record in implicit:
        if record["subject"] != "Q1001":
            continue
        year, gold = record["year"], record["objects"]
        earlier = [q for q in starts if starts[q] < year and q not in gold]
        living = [q for q in earlier if alive(q, year)]
        shown = [o for o, k in others(record).items() if k == "outdated"]
        assert shown == [PEOPLE[q][0] for q in living[:1]], record["id"]
        checked["dead skipped" if earlier and earlier[0] not in living else "first"] += 1
    assert checked["dead skipped"] >= 2, checked


def test_a_pools_year_offers_no_one_dead_by_then(built: Path) -> None:
    """A group's years share their distractors but for the people not alive in a year: "In
    2019, who was the head of government of Freedonia?" was offered Trentino Early (died
    1820)."""
    pools = [*records(built, "dynamic", "pools"), *records(built, "static", "pools")]
    people = [r for r in pools if r["pid"] == "P6"]
    assert people
    offered = Counter[str]()
    for record in people:
        for option in others(record):
            assert alive(BY_LABEL[option], record["year"]), (record["id"], option)
            offered[option] += 1
    assert offered, people


def test_an_unanswerable_years_options_were_alive_in_it(store: Path) -> None:
    """An abstention item (temporal ``unanswerable``) about 1788 is offered the two people
    alive then who are not of its group (Trentino Early, and Nameless Nobody, of no known
    dates), never Hugo Hale (died 1779) nor anyone born since."""
    ids = list(PEOPLE)
    book = {qid: Name(label, (), (HUMAN,)) for qid, (label, _, _) in PEOPLE.items()}
    roles = pl.DataFrame({"value": ids, "pid": "P106", "role": POLITICIAN})
    words = with_roles(value_words(Names(book), ids), role_keys_lazy(roles))
    pairs = pl.DataFrame({"pid": "P6", "value": ids})
    kg = kgdiff.open(store)

    dates = EntityDates.of_store(kg)

    def read(wanted: list[str]) -> pl.DataFrame:
        return lifespans_of(dates.of(wanted))

    catalogue = shipped_catalogue()
    tiers = NoiseTiers.of(pairs, words, catalogue, lifespans=Lifespans(read))
    rows = pl.DataFrame(
        {
            "_id": ["temporal/unanswerable/Q1001/P6/1788"], "subject": ["Q1001"],
            "pid": ["P6"], "group_objects": [["Q2003", "Q2001"]], "reason": ["unknown_value"],
            "year": [1788],
        }
    )  # fmt: skip
    tally: Counter[str] = Counter()
    kept = abstention_others(rows, ChoiceSetting(0, 4, catalogue, words, tiers), tally)
    (item,) = kept.iter_rows(named=True)
    offered = dict(zip(item["_others"], item["_other_types"], strict=True))
    # Cora Vance, born 1910, comes first among the group's objects and is passed over for
    # the next, Rufus Firefly, alive in 1788
    assert offered.pop("Rufus Firefly") == "outdated"
    assert offered == {"Trentino Early": "noise", "Nameless Nobody": "noise"}
