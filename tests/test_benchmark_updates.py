"""kgdiff export benchmark, config updates: every record is a knowledge update as `kgdiff
updates` gives it, with the supporting revision's lead as context (the synthetic history of
tests/test_supporting_revisions.py), and distractor documents from the demo's real articles
that mention none of a record's entities."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

import kgdiff
from kgdiff.export.dataset.schema import UPDATES_SCHEMA
from kgdiff.export.updates.documents import DistractorPool, document_variants, mentions
from tests.benchmark_exports import export, records
from tests.test_supporting_revisions import history_store_in

WINDOW = {"init": date(2019, 1, 1), "cutoff": date(2020, 1, 1), "current": date(2021, 1, 1)}


@pytest.fixture(scope="module")
def history_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return history_store_in(tmp_path_factory.mktemp("updates"))


def test_records_are_the_knowledge_updates_with_their_supporting_revision(
    history_store: Path, tmp_path: Path
) -> None:
    done = export(
        history_store, tmp_path / "u", configs=("updates",), mode="valid", options=3, **WINDOW
    )
    (record,) = records(done.out, "updates", "updates")
    kg = kgdiff.open(history_store)
    (update,) = kg.updates(WINDOW["cutoff"], WINDOW["current"]).iter_rows(named=True)
    assert record["id"] == "updates/Q1001/P35/Q1003"
    assert (record["subject"], record["pid"]) == (update["subject"], update["pid"])
    assert record["latest"] == [update["new_object"]]
    assert record["outdated"] == update["old_objects"]
    assert record["new_start"] == update["new_start_lo"].isoformat()
    assert record["old_end"] == update["old_end_hi"].isoformat()
    assert record["answer_labels"] == ["Groucho Marx"]
    assert "Rufus T. Firefly" in record["outdated_answers"]
    (revision,) = kg.supporting_revisions(WINDOW["cutoff"], WINDOW["current"]).iter_rows(named=True)
    assert (record["context_page"], record["context_revision"]) == ("Freedonia", 15)
    assert record["evidence_sentence"] == revision["sentence"]
    assert record["context"] == "Freedonia is a country. Julius Henry Marx became its president."
    assert sorted(record["choice_types"]) == ["correct", "outdated", "unknown"]


def test_the_split_loads_offline_with_the_datasets_library(
    history_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    done = export(
        history_store, tmp_path / "u", configs=("updates",), mode="valid", options=3, **WINDOW
    )
    loaded = datasets.load_dataset(
        str(done.out), "updates", split="updates", cache_dir=str(tmp_path / "cache")
    )
    assert loaded.column_names == list(UPDATES_SCHEMA)
    assert loaded.to_list() == records(done.out, "updates", "updates")


def test_every_update_of_the_real_samples_is_built_or_counted(
    export_sample_store: Path, tmp_path: Path
) -> None:
    window = {"init": date(2005, 1, 1), "cutoff": date(2012, 1, 1), "mode": "valid"}
    done = export(export_sample_store, tmp_path / "u", configs=("updates",), **window)
    expected = kgdiff.open(export_sample_store).updates(date(2012, 1, 1))
    assert expected.height > 0
    build = json.loads((done.out / "kgdiff_build.json").read_text())["configs"]["updates"]
    built = records(done.out, "updates", "updates")
    assert build["knowledge_updates"] == expected.height
    assert len(built) + sum(build["left_out"].values()) == expected.height
    keys = {(r["subject"], r["pid"], r["new_object"]) for r in expected.iter_rows(named=True)}
    assert {(r["subject"], r["pid"], r["latest"][0]) for r in built} <= keys


def test_distractors_mention_none_of_the_entities(export_demo_store: Path) -> None:
    kg = kgdiff.open(export_demo_store)
    with kg.connection() as connection:
        pool = DistractorPool.read(connection, "enwiki-2016-05")
    names = ["Germany", "Federal Republic of Germany", "FRG", "Berlin", "Angela Merkel"]
    found = pool.pick("updates/Q183/P6/Q567", names, 7)
    assert len(found) == 7 and len(set(found)) == 7
    for lead in found:
        assert mentions(names).search(lead) is None  # type: ignore[union-attr]
        assert not any(f" {name.casefold()} " in f" {lead.casefold()} " for name in names)
    assert found == pool.pick("updates/Q183/P6/Q567", names, 7)
    assert found != pool.pick("updates/Q183/P35/Q2", names, 7)
    variants = document_variants(found)
    assert variants["distractors_3"] == found[:3] and variants["distractors_7"] == found
    assert document_variants(found[:4]) == {
        "distractors_3": found[:3], "distractors_5": None, "distractors_7": None,
    }  # fmt: skip


def test_names_are_matched_as_written_and_as_whole_words() -> None:
    pattern = mentions(["C++", "A.C. Milan", "Ur"])
    assert pattern is not None
    assert pattern.search("He wrote C++ code.") and pattern.search("fans of a.c. milan")
    assert not pattern.search("Cxx and ACX Milan") and not pattern.search("Urban life")
    assert mentions([" ", ""]) is None
