"""What the second blind read of issue 35 would not keep, on the real samples: a gold that spells
its subject ("official website of Wikipedia" → https://www.wikipedia.org/), "country" read as
Scotland where Wikidata means the sovereign state, a state that did not exist yet (Beethoven's
Germany), a corrected date asked as evolution (Wikidata's inception 29 → 30 October 2012), a
gold whose other values have no words (Champollion's French states), and a Wikipedia edition
without its article (docs/benchmark-export.md#what-is-left-out)."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import kgdiff
from kgdiff.export.benchmark import CONFIGS, BenchmarkExport
from kgdiff.export.core.entity_dates import EntityDates
from kgdiff.export.relations.catalogue import shipped_catalogue
from kgdiff.export.rules.existence import existence_of, not_yet_existing
from kgdiff.export.rules.subject_echo import names_subject, subject_needles
from kgdiff.temporal.dates import GapPolicy
from tests.benchmark_exports import export, records, websites_asked

Record = dict[str, Any]
SPLITS = {
    "qa": ("stable", "evolved", "uncharted"),
    "multi_hop": ("hops_2", "hops_3"),
    "updates": ("updates",),
    "temporal": ("timestamp", "interval", "implicit", "unanswerable"),
    "pools": ("dynamic", "static"),
}


def _by_id(done: BenchmarkExport) -> dict[str, Record]:
    return {
        record["id"]: record
        for config in done.configs
        for split in SPLITS[config]
        for record in records(done.out, split, config)
    }


def _build(done: BenchmarkExport) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((done.out / "kgdiff_build.json").read_text())
    return document


@pytest.fixture(scope="module")
def samples(export_demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    """The blind read's `samples` export: the real dumps of 2013-12 and 2014-10 (official
    websites asked: the rules on answers that spell their subject are read on them)."""
    folder = tmp_path_factory.mktemp("blind-read")
    return export(
        export_demo_store, folder / "samples", init=date(2013, 12, 21), cutoff=date(2013, 12, 25),
        current=date(2014, 10, 11), configs=tuple(CONFIGS), pools_static="all",
        gap=GapPolicy(allow=True), relations=websites_asked(folder),
    )  # fmt: skip


@pytest.fixture(scope="module")
def demo(export_demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    """The demo store's export at its default dates, every config and static pool."""
    folder = tmp_path_factory.mktemp("blind-read")
    return export(
        export_demo_store, folder / "demo", configs=tuple(CONFIGS), pools_static="all",
        relations=websites_asked(folder),
    )  # fmt: skip


@pytest.fixture(scope="module")
def found(samples: BenchmarkExport, demo: BenchmarkExport) -> dict[str, Record]:
    return {**_by_id(samples), **_by_id(demo)}


def test_a_gold_that_spells_its_subject_is_left_out(
    found: dict[str, Record], samples: BenchmarkExport, demo: BenchmarkExport
) -> None:
    # "At which address is the official website of Wikipedia?" → https://www.wikipedia.org/
    for gone in (
        "qa/Q52/P856", "qa/Q76/P856", "qa/Q400/P856", "qa/Q70/P856", "qa/Q355/P856",
        "qa/Q220/P856",  # http://www.comune.roma.it: Rome's alias Roma
        "qa/Q96/P36",  # "Which city is the capital of Mexico?" → Mexico City
        "pools/Q83/P856/2013", "pools/Q1058/P856/2014",
    ):  # fmt: skip
        assert gone not in found, gone
    # a website that does not name its subject is asked
    assert found["qa/Q278/P856"]["answer_labels"] == ["http://www.malts.com/"]
    for record in found.values():
        subject = record.get("hop_subject_labels", [record["subject_label"]])[-1]
        needles = subject_needles([subject])
        assert not names_subject(record["answer_labels"], needles), record["id"]
    dropped = _build(samples)["configs"]["qa"]["dropped"]
    assert dropped["stable"]["answer_names_subject"] >= 40
    assert dropped["uncharted"]["answer_names_subject"] >= 10
    audits = [_build(done)["audit"]["targets"]["names_subject"] for done in (samples, demo)]
    assert all(target["met"] for target in audits)


def test_wikidatas_country_is_asked_as_the_sovereign_state(found: dict[str, Record]) -> None:
    lagavulin = found["qa/Q280/P17"]
    assert lagavulin["question"] == "Which sovereign state is the Lagavulin distillery in?"
    assert lagavulin["cloze"] == "The Lagavulin distillery lies in the sovereign state of"
    assert lagavulin["tf_statement"].startswith("The Lagavulin distillery is in the sovereign")
    assert lagavulin["relation"] == "sovereign state"
    islay = found["multi_hop/Q273/P17/P36"]
    assert islay["question"] == (
        'Let X1 be the answer to "Which sovereign state is Islay in?". Which city is the'
        " capital of X1?"
    )
    assert found["pools/Q163/P17/2013"]["question"] == (
        "In 2013, which sovereign state was Yorkshire in?"
    )
    texts = [
        text
        for record in found.values()
        for text in (record["question"], record.get("cloze"), record.get("tf_statement"))
        if text and record.get("pid", "P17") == "P17"
    ]
    assert texts and not [t for t in texts if re.search(r"\bcountry (was|is) \w.* in\?", t)]
    assert not [t for t in texts if "in the country of" in t]


def test_a_state_that_did_not_exist_yet_is_no_answer(
    found: dict[str, Record], samples: BenchmarkExport, export_demo_store: Path
) -> None:
    # Beethoven died in 1827, Germany's inception is 1871; Galileo's Italy is of 1861
    for gone in ("qa/Q255/P27", "qa/Q307/P27", "multi_hop/Q255/P27/P36"):
        assert gone not in found, gone
    assert found["qa/Q296/P27"]["answer_labels"] == ["France"]  # Monet's France
    built = _build(samples)["configs"]
    assert built["qa"]["dropped"]["stable"]["answer_not_yet_existing"] == 2
    assert built["multi_hop"]["dropped"]["hops_2"]["answer_not_yet_existing"] == 2
    # a year asked before the gold began: Potsdam's Germany (P17) in 1850 and in 2013
    potsdam = found["pools/Q1711/P17/2013"]
    dates = EntityDates.of_store(kgdiff.open(export_demo_store))
    existence = existence_of(dates.of([potsdam["subject"], *potsdam["objects"]]))
    dates.close()
    rows = pl.DataFrame(
        {
            "_id": ["1850", "2013"], "subject": [potsdam["subject"]] * 2, "pid": ["P17"] * 2,
            "latest": [potsdam["objects"]] * 2, "year": [1850, 2013],
        }
    )  # fmt: skip
    late = not_yet_existing(rows, "latest", existence, shipped_catalogue(), "year")
    assert late.to_list() == ["1850"]


def test_a_corrected_fixed_fact_is_not_asked_as_evolution(
    found: dict[str, Record], samples: BenchmarkExport
) -> None:
    # "When did Wikidata come into being?" 29 → 30 October 2012; Facebook 2006 → 2004; Paul
    # Morand's death 24 → 23 July 1976: corrections of the record, not changes in the world
    for gone in ("qa/Q2013/P571", "qa/Q355/P571", "qa/Q272/P570"):
        assert gone not in found, gone
    fixed = {relation.pid for relation in shipped_catalogue() if relation.fixed}
    evolved = records(samples.out, "evolved")
    assert evolved and not [r["id"] for r in evolved if r["pid"] in fixed]
    assert found["qa/Q298/P35"]["level"] == "evolved"  # Chile's head of state, replaced
    dropped = _build(samples)["configs"]["qa"]["dropped"]["evolved"]
    assert dropped["fixed_fact_corrected"] >= 3


def test_a_gold_partly_without_words_is_left_out(
    found: dict[str, Record], samples: BenchmarkExport
) -> None:
    # Champollion's France and five French states without an English label; Andorra's
    # co-princes, the Bishop of Urgell without one; the Black Sea's Abkhazia
    for gone in ("qa/Q260/P27", "qa/Q228/P35", "qa/Q166/P17", "pools/Q524/P17/2013"):
        assert gone not in found, gone
    for record in found.values():
        golds = record.get("latest") or record.get("objects") or []
        if record.get("kind") not in ("timestamp", "interval", "unanswerable"):
            assert len(record["answer_labels"]) == len(golds), record["id"]
    dropped = _build(samples)["configs"]["qa"]["dropped"]
    assert dropped["stable"]["gold_partly_unnamed"] >= 5
    assert dropped["evolved"]["gold_partly_unnamed"] >= 1


def test_a_wikipedia_edition_takes_the_article(found: dict[str, Record]) -> None:
    english = found["qa/Q328/P571"]
    assert english["question"] == "When did the English Wikipedia come into being?"
    assert english["tf_statement"].startswith("The English Wikipedia came into being on")
